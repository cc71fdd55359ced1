/**
 * The demo's data (`npm start -- --demo`, issue 19 part C): a lived-in product in every section,
 * written once, into an empty database only, through the models (so every row is one the app
 * could have written itself), against the running simulators:
 *
 *   phase "data" (before the server starts; needs the database and the Galaxy simulator)
 *     Exchange Rates, the characters of every type (a stalker wanted), bowling companions,
 *     gift rates, the bowling refresh (pictures, gift stats, the Capybara collection) and seven
 *     days of daily totals for the Summary chart, trading sequences whose planets the
 *     simulator's population lets a trader post on, custom planets, ads and messages, and the
 *     demo operator (so the first visit signs in instead of asking for a first operator);
 *   phase "live" (once the server runs; needs the job engine)
 *     the GalaCord bot started with one relayed account on a planet of the simulator, and a
 *     Collections profile of the demo operator (signed in with a recovery code).
 *
 * A marker in app_settings (`demo.seed`) says how far it got, so a start interrupted between
 * the phases finishes the second one next time and a seeded database is never seeded again.
 * A database that holds anything of its own (an operator, a character, a rate, …) without the
 * marker is left alone.
 *
 * Every start (the simulators keep nothing): the trader stands on the stalker's planet, the
 * scripted users move, and a few messages go through the relay channel (`demoChannelChatter`).
 */
import { count, eq, getTableName } from "drizzle-orm";
import type { DiscordSimulator } from "#sim/discord/server";
import type { Simulator } from "#sim/server";
import { GIFT_RATE_NAMES } from "#api/summary";
import { getDb } from "~/db/client.server";
import {
  ads,
  appSettings,
  bowlingCompanions,
  collectionsProfiles,
  customPlanets,
  dailyAwards,
  galacordAccounts,
  giftRates,
  operators,
  planetSequences,
  exchangeRates,
  users,
} from "~/db/schema";
import { seedDemoCharacters } from "./demo-characters";

/** The demo's operator: printed at start-up and in the README (a demo has nothing to protect). */
export const DEMO_OPERATOR = { name: "demo", password: "demo-password" } as const;

export const DEMO_SEED_KEY = "demo.seed";
export type DemoSeedPhase = "data" | "done";

/** The tables whose rows make a database "not empty" (the operator's own data). */
const OWN_TABLES = [
  operators,
  users,
  exchangeRates,
  giftRates,
  dailyAwards,
  planetSequences,
  customPlanets,
  ads,
  bowlingCompanions,
  galacordAccounts,
  collectionsProfiles,
] as const;

/** Gift rates (prize units per Fire Cannon Ball, docs/summary.md) for the Summary's valuation. */
export const DEMO_GIFT_RATES: Record<(typeof GIFT_RATE_NAMES)[number], number> = {
  Clay: 0.5,
  "Fire Cannon Ball": 1,
  "Skeleton Key": 0.25,
  "Silver Ring": 0.5,
  "Electric Bowling Ball": 2,
  "Red Bowling Ball": 3,
  "Green Bowling Ball": 3,
  "Collection Capybara": 0.5,
};

/** Custom planets: two busy general planets join the english step; one cannon planet is blacklisted. */
export const DEMO_CUSTOM_PLANETS = [
  { name: "Paradise", type: "english" },
  { name: "Nebula", type: "english" },
  { name: "Cannon*13", type: "blacklisted" },
] as const;

/**
 * The sequences. The simulator's game planets hold one to three people (a cannon planet always
 * has its bot) and its trade zones none, so the levels are set where its population lets a
 * trader post: from 1 other user up (docs/trading-planets.md "Levels"). The test checks it.
 */
export const DEMO_SEQUENCES = [
  {
    name: "Evening round",
    sequence: [{ planetType: "english" }, { planetType: "cannon" }],
    seconds: 6,
    openPlanetsLevel: 1,
    closedPlanetsLevel: 51,
    isActive: true,
  },
  {
    name: "Quiet cannons",
    sequence: [{ planetType: "cannon", shuffle: false }],
    seconds: 8,
    openPlanetsLevel: 1,
    closedPlanetsLevel: 2,
    isActive: true,
  },
  {
    name: "Bowling alleys",
    sequence: [{ planetType: "bowling" }, { planetType: "ring" }],
    seconds: 5,
    openPlanetsLevel: 1,
    closedPlanetsLevel: 30,
    isActive: false,
  },
];

export const DEMO_ADS = [
  { adsMessage: "Selling Fire Cannon Balls in bulk: 10 for a Silver Ring. Message me!", category: "ads", isActive: true },
  { adsMessage: "Buying Collection Capybara pieces, paying in Skeleton Keys.\nFair rates, fast trades.", category: "ads", isActive: true },
  { adsMessage: "Red and Green Bowling Balls available, swap for Clay.", category: "ads", isActive: false },
  { adsMessage: "Hi! I'm trading right now; see my ad above or wait a moment.", category: "msg", isActive: true },
  { adsMessage: "Thanks for the message, I'll be back on this planet soon.", category: "msg", isActive: true },
] as const;

/**
 * Simulator accounts the demo uses, by role: plain accounts other than the first one, which the
 * start-up log offers for trying GalaCord. `recipient` receives the Collections sends (the
 * spec's default recipient 10000001 is no account of the simulator).
 */
export function demoAccounts(world: Simulator["world"]) {
  const plain = world.accounts.filter((a) => a.kind === "plain");
  return { relay: plain[1]!, collections: plain[2]!, recipient: plain[3]! };
}

/** The relay channel of the Discord simulator (guild "Galaxy Fans", #relay). */
export function demoRelayChannel(discord: Pick<DiscordSimulator, "state">) {
  for (const g of discord.state.guilds) {
    const c = g.channels.find((ch) => ch.name === "relay");
    if (c) return { id: c.id, name: c.name, guildId: g.id, guildName: g.name };
  }
  const g = discord.state.guilds[0]!;
  const c = g.channels[0]!;
  return { id: c.id, name: c.name, guildId: g.id, guildName: g.name };
}

export async function demoSeedPhase(): Promise<DemoSeedPhase | null> {
  const db = await getDb();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, DEMO_SEED_KEY)).limit(1);
  const phase = (row?.value as { phase?: DemoSeedPhase } | undefined)?.phase;
  return phase ?? null;
}

async function setPhase(phase: DemoSeedPhase) {
  const db = await getDb();
  const value = { phase, at: new Date().toISOString() };
  await db
    .insert(appSettings)
    .values({ key: DEMO_SEED_KEY, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
}

/** The tables of ours that hold rows (empty list: an empty database). */
export async function nonEmptyTables(): Promise<string[]> {
  const db = await getDb();
  const found: string[] = [];
  for (const table of OWN_TABLES) {
    const [row] = await db.select({ n: count() }).from(table);
    if (row && row.n > 0) found.push(getTableName(table));
  }
  return found;
}

export type DemoPlan = "seed" | "finish" | "seeded" | "not-empty";

/** What this start does: seed an empty database, finish an interrupted seed, or leave the data alone. */
export async function demoPlan(): Promise<{ plan: DemoPlan; tables: string[] }> {
  const phase = await demoSeedPhase();
  if (phase === "done") return { plan: "seeded", tables: [] };
  if (phase === "data") return { plan: "finish", tables: [] };
  const tables = await nonEmptyTables();
  return { plan: tables.length ? "not-empty" : "seed", tables };
}

type Sims = { sim: Pick<Simulator, "world" | "npcs">; discord: Pick<DiscordSimulator, "state">; log?: (line: string) => void };

/**
 * Phase "data" (before the server): everything that needs only the database and the Galaxy
 * simulator. Call it only when `demoPlan()` says "seed". Returns a one-line summary.
 */
export async function seedDemoData({ sim }: Sims): Promise<string> {
  const { seedDemoRates } = await import("~/models/rate.seed.server");
  const { createCompanion } = await import("~/models/companion.server");
  const { replaceGiftRates } = await import("~/models/gift-rates.server");
  const { pullDailyStats } = await import("~/platform/daily-stats.server");
  const { setLastFetched } = await import("~/models/bowling-user.server");
  const { refreshBowlingUsers } = await import("#jobs/processors/bowling");
  const { refreshCharacters } = await import("#jobs/processors/characters");
  const { createSequence } = await import("~/models/planet-sequence.server");
  const { createCustomPlanet } = await import("~/models/custom-planet.server");
  const { createAd } = await import("~/models/ad.server");
  const { createOperator } = await import("~/models/operator.server");

  const parts: string[] = [];
  parts.push(`${await seedDemoRates()} exchange rates`);
  // Characters of every type; the first stalker wanted (the boot restore starts it).
  await seedDemoCharacters(sim, { moveNpcsEveryMs: null });
  parts.push(`${(await getDb().then((db) => db.select({ n: count() }).from(users)))[0]!.n} characters`);

  // Bowling Bots: every bowling account gets a companion (suppliers and recipients in turn).
  const db = await getDb();
  const byType = async (type: string) => (await db.select({ accountId: users.accountId }).from(users).where(eq(users.type, type))).map((r) => r.accountId);
  const [bowlers, suppliers, recipients] = [await byType("bowling"), await byType("suppliers"), await byType("recipients")];
  let companions = 0;
  for (const [i, bowlingId] of bowlers.entries()) {
    if (!suppliers.length || !recipients.length) break;
    await createCompanion({ bowling_id: bowlingId, supplier: suppliers[i % suppliers.length]!, consumer: recipients[i % recipients.length]! });
    companions++;
  }
  parts.push(`${companions} bowling companions`);

  // The Summary: gift rates, then the bowling refresh (pictures, statuses, gifts, the Capybara
  // collection) and the last 7 days of awards and balls spent, as the Refresh button does.
  await replaceGiftRates(DEMO_GIFT_RATES);
  const refreshed = await refreshBowlingUsers({ skipCache: true });
  if (refreshed.done > refreshed.failed) await setLastFetched(new Date().toISOString());
  const pulled = await pullDailyStats({ skipCache: true });
  parts.push(`gift rates, ${refreshed.done - refreshed.failed} bowling refreshes, ${pulled.rows} daily totals`);
  // All Characters: every character's picture, status and gift stats, as its Refresh does (the
  // grids of the stalkers, traders, suppliers and recipients would say "Gifts not loaded yet").
  const details = await refreshCharacters({ force: true, parts: { pictures: true, statuses: true, gifts: true } });
  parts.push(`details of ${details.done - details.failed} characters`);

  // Trading Planets.
  for (const p of DEMO_CUSTOM_PLANETS) await createCustomPlanet({ ...p });
  for (const s of DEMO_SEQUENCES) await createSequence({ ...s, sequence: s.sequence.map((step) => ({ ...step })) });
  for (const a of DEMO_ADS) await createAd({ ...a });
  parts.push(`${DEMO_SEQUENCES.length} sequences, ${DEMO_CUSTOM_PLANETS.length} custom planets, ${DEMO_ADS.length} ads and messages`);

  const { CLI_ACTOR, recordAudit } = await import("~/models/audit.server");
  const op = await createOperator(DEMO_OPERATOR.name, DEMO_OPERATOR.password, { role: "admin" });
  // As `npm run operator -- create` records it; the seed itself is one entry (what it wrote).
  await recordAudit(CLI_ACTOR, { action: "operator.create", target: op.name, details: { role: op.role } });
  await recordAudit(CLI_ACTOR, { action: "demo.seed", target: "demo data", details: { wrote: parts.join(", ") } });
  await setPhase("data");
  return parts.join(", ");
}

/**
 * Phase "live" (the server and its job engine running): the GalaCord bot with one relayed
 * account on its planet, and the demo operator's Collections profile. Returns a summary.
 */
export async function seedDemoLive({ sim, discord }: Sims): Promise<string> {
  const { getSavedAccount, saveBotInfo, saveLinkAccount, startBot } = await import("~/models/galacord.server");
  const { connectNew } = await import("~/platform/galacord-connect.server");
  const { loginWithRecoveryCode } = await import("~/platform/collections-login.server");
  const { collectionStatus, giftInventory } = await import("~/platform/clay.server");
  const { getState, profileCredentials, storeItems, updateState, withActivity } = await import("~/models/collections.server");
  const { findOperatorByName } = await import("~/models/operator.server");
  const { relay, collections, recipient } = demoAccounts(sim.world);
  const channel = demoRelayChannel(discord);

  // The channels the bot will see (it writes the same list when it logs in), then the bot and
  // one account relaying its home planet to #relay.
  await saveBotInfo({ channels: discord.state.guilds.flatMap((g) => g.channels.map((c) => ({ id: c.id, name: c.name, guildId: g.id, guildName: g.name }))) });
  await startBot();
  if (!(await getSavedAccount(relay.id))) await connectNew({ channelId: channel.id, recoveryCode: relay.recoveryCode });
  await saveLinkAccount(relay.id, { planet: relay.homePlanet });

  const operator = await findOperatorByName(DEMO_OPERATOR.name);
  let profile = "no Collections profile (the demo operator is gone)";
  if (operator) {
    const p = await loginWithRecoveryCode(operator.id, collections.recoveryCode);
    profile = `Collections profile ${p.nick} (${p.accountId})`;
    // What Status and the inventory refresh would do: the set's pieces and the gifts in stock, in the Activity Log.
    const creds = (await profileCredentials(p.id))!;
    const state = await getState(operator.id);
    const set = state.collectionId as Parameters<typeof giftInventory>[1];
    const pair = { userID: creds.userID, password: creds.password };
    await withActivity(operator.id, "Reading collection status", async () => {
      await storeItems(operator.id, set, await collectionStatus(pair, set, { skipCache: true }));
      return { result: null, message: "Collection status updated" };
    });
    const ids = await withActivity(operator.id, "Fetching gift inventory", async () => {
      const giftIds = await giftInventory(pair, set);
      return { result: giftIds, message: `${giftIds.length} gifts in stock` };
    });
    await updateState(operator.id, { giftIds: ids, giftsAt: new Date(), recipientId: recipient.id });
  }
  await setPhase("done");
  return `GalaCord bot started, ${relay.nick} (${relay.id}) relays ${relay.homePlanet} to #${channel.name}; ${profile}`;
}

/** The relayed account's saved planet and channel (null when GalaCord has no demo account). */
export async function demoRelayTarget(sim: Pick<Simulator, "world">): Promise<{ accountId: string; planet: string; channelId: string } | null> {
  const db = await getDb();
  const { relay } = demoAccounts(sim.world);
  const [row] = await db.select().from(galacordAccounts).where(eq(galacordAccounts.accountId, relay.id)).limit(1);
  return row?.planet ? { accountId: row.accountId, planet: row.planet, channelId: row.channelId } : null;
}

/**
 * A few messages through the relay (every start: the simulators keep nothing): two Discord
 * users write in the channel (the bot relays them to the planet) and two people on the planet
 * talk (the bot relays them to the channel). Waits up to `waitMs` for the relay connection to
 * stand on its planet; returns how many messages went, 0 when it never got there.
 */
export async function demoChannelChatter(
  { sim, discord }: { sim: Pick<Simulator, "world" | "sockets">; discord: Pick<DiscordSimulator, "state" | "gateway"> },
  options: { waitMs?: number; pollMs?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const target = await demoRelayTarget(sim);
  if (!target) return 0;
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  const onPlanet = () => sim.sockets.sessions(target.accountId).some((c) => c.planet === target.planet);
  while (!onPlanet()) {
    if (Date.now() > deadline || options.signal?.aborted) return 0;
    await new Promise((r) => setTimeout(r, options.pollMs ?? 500));
  }
  const { snowflake } = await import("#sim/discord/state");
  const channel = discord.state.channel(target.channelId);
  if (!channel) return 0;
  let sent = 0;
  const fromDiscord = (username: string, content: string) => {
    const author = discord.state.user(username);
    if (!author) return;
    const msg = { id: snowflake(), channel_id: channel.id, guild_id: channel.guildId, author, content, timestamp: new Date().toISOString() };
    discord.state.addMessage(msg);
    discord.gateway.dispatchMessage("MESSAGE_CREATE", msg);
    sent++;
  };
  const people = sim.world.occupants(target.planet).filter((id) => id !== target.accountId);
  const fromGalaxy = (i: number, text: string) => {
    const who = people[i % Math.max(people.length, 1)];
    if (who && sim.sockets.say(target.planet, who, text) > 0) sent++;
  };
  fromDiscord("alice", `Hello ${target.planet}! Anyone selling Capybara pieces?`);
  fromGalaxy(0, "Hi Discord! I have a few, what do you offer?");
  fromDiscord("bob", "I can give Skeleton Keys, 2 for one.");
  fromGalaxy(1, "Deal, meet me here in five minutes.");
  return sent;
}
