/**
 * Demo characters (`npm start -- --demo`, issue 9): some of the simulator's seeded accounts
 * become users of every default type (passwords stored encrypted by upsertUser), and the
 * first stalker is marked wanted, so the boot restore (jobs/session-host.server.ts) starts
 * it and the All Characters screen shows it running. One trading character stands on the
 * stalker's planet (a sighting to show), and the simulator's scripted users start moving.
 */
import type { Simulator } from "#sim/server";
import type { AccountKind } from "#sim/world";
import { getDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { upsertUser } from "~/models/user.server";

/** Category → simulator account kind and how many of them. */
export const DEMO_CHARACTERS: { type: string; kind: AccountKind; count: number }[] = [
  { type: "stalker", kind: "stalker", count: 2 },
  { type: "trading", kind: "trader", count: 3 },
  { type: "bowling", kind: "bowling", count: 4 },
  { type: "recipients", kind: "recipient", count: 2 },
  { type: "suppliers", kind: "supplier", count: 2 },
];

export async function seedDemoCharacters(sim: Pick<Simulator, "world" | "npcs">, options: { moveNpcsEveryMs?: number | null } = {}): Promise<string> {
  const { world } = sim;
  let n = 0;
  for (const { type, kind, count } of DEMO_CHARACTERS) {
    for (const a of world.accounts.filter((x) => x.kind === kind).slice(0, count)) {
      await upsertUser({ accountId: a.id, nick: a.nick, password: a.password, type, recoveryCode: a.recoveryCode });
      n++;
    }
  }
  const stalker = startDemoWorld(sim, { moveNpcsEveryMs: options.moveNpcsEveryMs });
  const db = await getDb();
  // Wanted and waiting: the boot restore gives it to a worker (docs/sessions.md).
  await db
    .insert(sessions)
    .values({ purpose: "stalker", key: stalker.id, accountId: stalker.id, desired: "run", actual: "waiting" })
    .onConflictDoUpdate({ target: [sessions.purpose, sessions.key], set: { desired: "run", actual: "waiting", error: null, since: new Date() } });
  return `${n} characters from the simulator; stalker ${stalker.nick} (${stalker.id}) starts on ${stalker.homePlanet}`;
}

/**
 * What the simulator needs on every demo start (it keeps nothing): a trading character on the
 * first stalker's planet and, unless `moveNpcsEveryMs` is null, the scripted users moving.
 * Returns the stalker's account.
 */
export function startDemoWorld(sim: Pick<Simulator, "world" | "npcs">, options: { moveNpcsEveryMs?: number | null } = {}) {
  const { world } = sim;
  const stalker = world.accounts.find((a) => a.kind === "stalker")!;
  const trader = world.accounts.find((a) => a.kind === "trader")!;
  world.moveTo(trader.id, stalker.homePlanet);
  const every = options.moveNpcsEveryMs === undefined ? 5_000 : options.moveNpcsEveryMs;
  if (every) sim.npcs.start(every);
  return stalker;
}
