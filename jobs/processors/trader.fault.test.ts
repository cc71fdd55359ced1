/**
 * The trading run survives its worker (issue 11 Proof: "a killed worker resumes the run").
 * Real worker processes (`node --import tsx jobs/worker.ts`) against this file's database and
 * Redis prefix, real sockets to the simulator running in this process; short session locks
 * (3 s lock, 1 s stalled check) and TRADER_TIME_SCALE 0.05 (4 s JOIN gap → 200 ms).
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PLANET_CATALOGUE } from "#api/planets";
import { startSimulator, type Simulator } from "#sim/server";
import { getDb } from "~/db/client.server";
import { ads, customPlanets, planetSequences, sessions, traderSessions } from "~/db/schema";
import { createAd } from "~/models/ad.server";
import { createCustomPlanet } from "~/models/custom-planet.server";
import { createSequence } from "~/models/planet-sequence.server";
import { getTraderStatus, startTrader, stopTrader } from "~/models/trader.server";
import { upsertUser } from "~/models/user.server";
import { getEnv } from "~/utils/env.server";
import { closeQueues } from "../../app/queue/queues.server";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "../test-helpers";

let sim: Simulator;
const children: WorkerChild[] = [];
const FAST = {
  SESSION_LOCK_DURATION_MS: "3000",
  SESSION_STALLED_INTERVAL_MS: "1000",
  SESSION_POLL_MS: "500",
  SESSION_RECONCILE_MS: "2000",
  WORKER_HEARTBEAT_MS: "500",
};
const PLANETS = ["Galaxy", "Paradise", "Orion", "Nebula", "Andromeda"];

async function worker(): Promise<WorkerChild & { id: string }> {
  const w = spawnWorker({ ...FAST, GALAXY_WS_URL: sim.wsUrl, TRADER_TIME_SCALE: "0.05" });
  children.push(w);
  const id = await waitFor(`worker ready\n${w.output()}`, () => /\[jobs\] worker (\S+) processing/.exec(w.output())?.[1], 30_000);
  return Object.assign(w, { id });
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
});
afterEach(() => {
  for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
});
afterAll(async () => {
  await sim?.close();
  await closeQueues();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

let next = 0;
beforeEach(async () => {
  const db = await getDb();
  await db.delete(sessions);
  await db.delete(traderSessions);
  await db.delete(planetSequences);
  await db.delete(customPlanets);
  await db.delete(ads);
  sim.world.reset();
  for (const name of PLANETS) await createCustomPlanet({ name, type: "english" });
  for (const name of PLANET_CATALOGUE.english!) await createCustomPlanet({ name, type: "blacklisted" });
  await createAd({ adsMessage: "Buying roses", category: "ads", isActive: true });
  // A 20 s stay (1 s scaled): time enough to kill the worker in the middle of a visit.
  await createSequence({
    name: "Five planets",
    sequence: [{ planetType: "english", shuffle: false }],
    seconds: 20,
    closedPlanetsLevel: 999,
    openPlanetsLevel: 0,
    isActive: true,
  });
});

async function traderAccount() {
  const acc = sim.world.accounts.filter((a) => a.kind === "trader")[next++]!;
  await upsertUser({ accountId: acc.id, nick: acc.nick, password: acc.password, type: "trading" });
  return acc;
}
const postedOn = (id: string) => sim.sockets.trading.chat.filter((c) => c.fromId === id && c.toId === "0").map((c) => c.planet);
/** The planets posted on, in order: the list order round after round, none twice in a row, none left out. */
function expectListOrder(posted: string[]) {
  expect(posted).toEqual(posted.map((_, i) => PLANETS[i % PLANETS.length]));
}
async function positionOf(id: string) {
  const [row] = await (await getDb()).select().from(traderSessions).where(eq(traderSessions.accountId, id));
  return row?.position ?? null;
}

describe("trader failover (issue 11 Proof: a killed worker resumes the run)", () => {
  it("SIGKILL of the worker in the middle of a visit: another worker goes on with the next planet (nothing visited twice, nothing skipped)", async () => {
    const acc = await traderAccount();
    const a = await worker();
    await startTrader(acc.id);
    // On Orion (the third planet) with its ad posted.
    await waitFor(
      "posted on Orion",
      async () => {
        const p = await positionOf(acc.id);
        return p?.planetIndex === 2 && p.posted;
      },
      30_000,
    );
    expect((await getTraderStatus(acc.id))!.holder).toBe(a.id);
    a.child.kill("SIGKILL");
    expect((await a.exited).signal).toBe("SIGKILL");

    const b = await worker();
    await waitFor(`the round finished on ${b.id}: ${postedOn(acc.id).join(", ")}`, () => postedOn(acc.id).length >= 6, 40_000);
    expectListOrder(postedOn(acc.id));
    expect((await getTraderStatus(acc.id))!.holder).toBe(b.id);
    await stopTrader(acc.id);
    await waitFor("QUIT :ds", () => sim.sockets.closed.some((c) => c.accountId === acc.id && c.quit === "ds"), 10_000);
  }, 120_000);

  it("SIGTERM hands the run over: QUIT :ds from the stopping worker, the next one continues from the same position", async () => {
    const acc = await traderAccount();
    const a = await worker();
    const b = await worker();
    await startTrader(acc.id);
    const first = await waitFor("a worker holds it", async () => (await getTraderStatus(acc.id))?.holder ?? false, 30_000);
    const [holder, other] = first === a.id ? [a, b] : [b, a];
    await waitFor(
      "posted on Paradise",
      async () => {
        const p = await positionOf(acc.id);
        return p?.planetIndex === 1 && p.posted;
      },
      30_000,
    );
    holder.child.kill("SIGTERM");
    expect((await holder.exited).code).toBe(0);
    expect(sim.sockets.closed.some((c) => c.accountId === acc.id && c.quit === "ds")).toBe(true);
    const before = postedOn(acc.id).length;
    await waitFor(`two more posts by ${other.id}: ${postedOn(acc.id).join(", ")}`, () => postedOn(acc.id).length >= before + 2, 40_000);
    expectListOrder(postedOn(acc.id));
    expect((await getTraderStatus(acc.id))!.holder).toBe(other.id);
    await stopTrader(acc.id);
  }, 120_000);
});
