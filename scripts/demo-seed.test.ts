/**
 * Issue 19 part C item 1: `npm start -- --demo` shows a lived-in product in every section,
 * seeded once, into an empty database only (scripts/demo-seed.ts), through the demo start
 * itself (scripts/demo-env.ts: both simulators, the plan, the live phase after listening).
 */
import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { planetEntries } from "#api/planets";
import { getDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { listAds } from "~/models/ad.server";
import { listCompanions } from "~/models/companion.server";
import { getCharacterDetails } from "~/models/character-details.server";
import { getState, listProfiles } from "~/models/collections.server";
import { createCustomPlanet, deleteCustomPlanet, listCustomPlanets } from "~/models/custom-planet.server";
import { dailyTotals } from "~/models/daily-totals.server";
import { listSavedAccounts } from "~/models/galacord.server";
import { getGiftRates } from "~/models/gift-rates.server";
import { findOperatorByName, verifyOperatorPassword } from "~/models/operator.server";
import { listSequences } from "~/models/planet-sequence.server";
import { listUsers } from "~/models/user.server";
import { resetEnv } from "~/utils/env.server";
import { startDemoEnvironment, type DemoEnvironment } from "./demo-env";
import { DEMO_GIFT_RATES, DEMO_OPERATOR, DEMO_SEED_KEY, demoAccounts } from "./demo-seed";

const saved = { ...process.env };
let env: DemoEnvironment | null = null;
const lines: string[] = [];

beforeAll(() => {
  process.env.GALAXY_SIM_PORT = "0";
  process.env.DISCORD_SIM_PORT = "0";
});
afterEach(async () => {
  await env?.close();
  env = null;
  for (const k of ["GALAXY_WS_URL", "GALAXY_SERVICES_URL", "GALAXY_SIM_URL", "GIFT_IMAGE_BASE_URL", "DISCORD_TOKEN", "DISCORD_API_URL"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnv();
});

async function demoStart(): Promise<DemoEnvironment> {
  lines.length = 0;
  env = await startDemoEnvironment({ log: (l) => lines.push(l) });
  await env.afterListening("http://localhost:3800");
  return env;
}

/** Every row of every table the seed writes, keyed by table (ids included): a second start must leave it identical. */
async function snapshot() {
  const db = await getDb();
  const tables = {
    users: schema.users,
    exchangeRates: schema.exchangeRates,
    giftRates: schema.giftRates,
    dailyAwards: schema.dailyAwards,
    bowlingCompanions: schema.bowlingCompanions,
    planetSequences: schema.planetSequences,
    customPlanets: schema.customPlanets,
    ads: schema.ads,
    galacordAccounts: schema.galacordAccounts,
    collectionsProfiles: schema.collectionsProfiles,
    operators: schema.operators,
  };
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) out[name] = (await db.select().from(table)).length;
  return out;
}

describe("the demo seed (issue 19 C item 1)", () => {
  it("a database holding someone's data (no demo marker) is left untouched", async () => {
    const mine = await createCustomPlanet({ name: "MyPlanet", type: "english" });
    const demo = await demoStart();
    expect(demo.plan).toBe("not-empty");
    expect(lines.join("\n")).toContain("Demo data: not seeded, the database already holds data (custom_planets)");
    expect(await listCustomPlanets()).toEqual([mine]);
    expect(await listUsers()).toEqual([]);
    expect(await findOperatorByName(DEMO_OPERATOR.name)).toBeNull();
    expect((await snapshot()).exchangeRates).toBe(0);
    // The last lines still say where things are; no demo operator is offered.
    expect(lines.at(-1)).toContain("GalaCord channel #relay:");
    expect(lines.join("\n")).toContain("sign in with your operator");
    await deleteCustomPlanet(mine._id);
  });

  it("an empty database gets every section's data: characters, companions, 7 days with gift rates, the Capybara collection, trading, GalaCord, Collections", async () => {
    const demo = await demoStart();
    expect(demo.plan).toBe("seed");
    const { world } = demo;

    // Characters of every default type; the first stalker wanted.
    const users = await listUsers();
    expect(users.map((u) => u.type).sort()).toEqual(
      [
        "bowling",
        "bowling",
        "bowling",
        "bowling",
        "recipients",
        "recipients",
        "stalker",
        "stalker",
        "suppliers",
        "suppliers",
        "trading",
        "trading",
        "trading",
      ].sort(),
    );

    // Bowling Bots: a companion for every bowling account; the Capybara collection and gifts loaded.
    const bowlers = users.filter((u) => u.type === "bowling").map((u) => u.account_id);
    expect((await listCompanions()).map((c) => c.bowling_id).sort()).toEqual([...bowlers].sort());
    const details = await getCharacterDetails();
    for (const id of bowlers) {
      expect(details.get(id)?.collection, id).not.toBeNull();
      expect(details.get(id)?.gifts?.length, id).toBeGreaterThan(0);
    }
    // All Characters: every character's gift stats are loaded (no "Gifts not loaded yet" grid).
    for (const u of users) expect(details.get(u.account_id)?.gifts, u.nick).toBeTruthy();

    // Summary: gift rates and the last 7 days (the chart draws from both).
    expect(await getGiftRates()).toEqual(DEMO_GIFT_RATES);
    const days = await dailyTotals(7);
    expect(days.length).toBeGreaterThanOrEqual(6); // the simulator dates in UTC, the Summary in Moscow time
    expect(days.some((d) => Object.keys(d.awards).length > 0 && Object.keys(d.ballStats).length > 0)).toBe(true);

    // Trading Planets: every active sequence has planets the simulator's population lets a trader post on.
    const custom = await listCustomPlanets();
    const blacklisted = new Set(custom.filter((c) => c.type === "blacklisted").map((c) => c.name.toLowerCase()));
    const sequences = await listSequences();
    expect(sequences.length).toBe(3);
    for (const s of sequences.filter((x) => x.isActive)) {
      const planets = s.sequence.flatMap((step) => planetEntries(step.planetType, custom)).filter((p) => !blacklisted.has(p.toLowerCase()));
      const postable = planets.filter((p) => {
        const n = world.occupants(p).length;
        return world.planet(p) && s.openPlanetsLevel <= n && n <= s.closedPlanetsLevel;
      });
      expect(postable.length, s.name).toBeGreaterThan(0);
    }
    const adList = await listAds();
    expect(adList.filter((a) => a.category === "ads" && a.isActive).length).toBeGreaterThanOrEqual(2);
    expect(adList.filter((a) => a.category === "msg" && a.isActive).length).toBeGreaterThanOrEqual(1);

    // GalaCord: the bot wanted, one account relaying a planet the simulator has, to #relay.
    const db = await getDb();
    const [bot] = await db
      .select()
      .from(schema.sessions)
      .where(and(eq(schema.sessions.purpose, "relay"), eq(schema.sessions.key, "bot")));
    expect(bot?.desired).toBe("run");
    const relayed = await listSavedAccounts();
    expect(relayed).toHaveLength(1);
    expect(relayed[0]).toMatchObject({ accountId: demoAccounts(world).relay.id, channelName: "relay", guildName: "Galaxy Fans" });
    expect(world.planet(relayed[0]!.planet!)).toBeDefined();

    // Collections: the demo operator signs in with the printed password and has a profile with the set read.
    const operator = await verifyOperatorPassword(DEMO_OPERATOR.name, DEMO_OPERATOR.password);
    expect(operator?.role).toBe("admin");
    const profiles = await listProfiles(operator!.id);
    expect(profiles.map((p) => p.accountId)).toEqual([demoAccounts(world).collections.id]);
    const state = await getState(operator!.id);
    expect(state.profileId).toBe(profiles[0]!.id);
    expect(state.items).not.toBeNull();
    expect(state.giftIds?.length).toBeGreaterThan(0);
    expect(world.accounts.some((a) => a.id === state.recipientId && a.id !== profiles[0]!.accountId)).toBe(true);

    // The Audit Trail says who wrote it: the command line.
    const audit = await db.select().from(schema.auditLog);
    expect(audit.map((a) => [a.operator, a.action, a.target])).toEqual(
      expect.arrayContaining([
        ["(command line)", "operator.create", DEMO_OPERATOR.name],
        ["(command line)", "demo.seed", "demo data"],
      ]),
    );

    const [marker] = await db.select().from(schema.appSettings).where(eq(schema.appSettings.key, DEMO_SEED_KEY));
    expect(marker?.value).toMatchObject({ phase: "done" });

    // The log ends with the URL, the demo operator and where the demo accounts are.
    const tail = lines.at(-1)!.split("\n");
    expect(tail[0]).toBe("Galaxy Toolbox (demo) on http://localhost:3800");
    expect(tail[1]).toBe(`  sign in as ${DEMO_OPERATOR.name} / ${DEMO_OPERATOR.password}`);
    expect(tail[2]).toBe(`  demo accounts (ids, nicks, recovery codes): ${demo.controlUrl}accounts`);
    expect(tail[3]).toMatch(/^ {2}to try GalaCord \(Connect\) or Collections: \S+'s recovery code \w{10}$/);
  });

  it("a second start finds it seeded and changes nothing (no duplicates)", async () => {
    const before = await snapshot();
    expect(before.users).toBe(13);
    const demo = await demoStart();
    expect(demo.plan).toBe("seeded");
    expect(lines).toContain("Demo data: seeded on an earlier start, kept as it is");
    expect(await snapshot()).toEqual(before);
  });
});
