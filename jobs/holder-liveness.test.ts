/**
 * Issue 29 "Holder liveness", with real worker processes (`jobs/worker.ts`) and real sockets to
 * the simulator: a worker holding stalkers is killed (SIGKILL, no goodbye); with no worker left,
 * this process — the web, running its beat watcher — reads the truth through the /api routes
 * and sees it arrive on the live bus within the window; a new worker then takes the sessions
 * ("Moving to worker …", then active). Sessions beyond every live worker's capacity say
 * "all workers are full (N of M)". The figures printed are not asserted (bench/ measures them).
 */
import { desc } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PHASE_TEXTS, type SessionView } from "#api/sessions";
import { startSimulator, type Simulator } from "#sim/server";
import { apiArgs } from "#tests/kit/api";
import { getDb } from "~/db/client.server";
import { logs, sessions } from "~/db/schema";
import { startHolderWatcher } from "~/models/session-liveness.server";
import { getStalkerStatus, startStalker, stopStalker } from "~/models/stalker.server";
import { upsertUser } from "~/models/user.server";
import { loader as activeLoader } from "~/routes/_app+/_characters+/api.stalker.active";
import { loader as healthLoader } from "~/routes/_system+/api.health";
import { getEnv } from "~/utils/env.server";
import { closeLive, liveBusUp, onLive, type LiveMessage } from "../app/queue/live.server";
import { defaultSessionCapacity } from "./session-host.server";
import { jobEngineDetails, resetJobEngineStatus } from "../app/queue/status.server";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "./test-helpers";

let sim: Simulator;
const children: WorkerChild[] = [];
let stopWatcher: () => void = () => {};

async function worker(env: Record<string, string> = {}) {
  // The default beat (1 s, 3 s TTL) and session lock: what operators run.
  const w = spawnWorker({ GALAXY_WS_URL: sim.wsUrl, STALKER_TIME_SCALE: "0.25", SESSION_POLL_MS: "500", ...env });
  children.push(w);
  const id = await waitFor(`worker ready\n${w.output()}`, () => /\[jobs\] worker (\S+) processing/.exec(w.output())?.[1], 30_000);
  return Object.assign(w, { id });
}

async function getJson(loader: typeof activeLoader, path: string) {
  const res = (await loader(await apiArgs(new Request(`http://localhost${path}`)))) as Response;
  return res.json();
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  for (const p of sim.world.planets) if (p.kind === "general") p.capacity = 1_000;
  // This process plays the web process: it watches the beats (app boot does the same).
  stopWatcher = startHolderWatcher();
});
afterEach(async () => {
  const db = await getDb();
  for (const s of await db.select().from(sessions)) await stopStalker(s.key).catch(() => {});
  for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
  await db.delete(sessions);
});
afterAll(async () => {
  stopWatcher();
  await closeLive();
  await sim?.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

let next = 40;
async function stalkers(n: number) {
  const accounts = sim.world.accounts.slice(next, next + n);
  next += n;
  for (const a of accounts) await upsertUser({ accountId: a.id, nick: a.nick, password: a.password, type: "stalker" });
  return accounts;
}

describe("holder liveness with real workers (issue 29)", () => {
  it("a killed worker's sessions show 'worker lost' in /api and on the live bus within 6 s with no worker left; a new worker moves them", async () => {
    const accounts = await stalkers(2);
    const a = await worker();
    for (const acc of accounts) await startStalker(acc.id);
    await waitFor("both active", async () => (await Promise.all(accounts.map((x) => getStalkerStatus(x.id)))).every((s) => s?.phase === "active"), 30_000);
    expect((await getJson(activeLoader, "/api/stalker/active")).connections).toEqual(accounts.map((x) => x.id).sort());
    // Its beat (each second) has said what it holds: the lost worker is described by that beat.
    await waitFor("the beat names the two sessions", async () => {
      resetJobEngineStatus();
      return (await jobEngineDetails()).workers.find((w) => w.id === a.id)?.sessions.stalker === 2;
    });

    const events: LiveMessage[] = [];
    const off = onLive((m) => events.push(m));
    try {
      await waitFor("the bus subscribed", () => liveBusUp(), 5_000, 20);
      const killedAt = Date.now();
      a.child.kill("SIGKILL");
      await a.exited;
      // The live bus: the watcher announces each session with the truth (no worker is left to do it).
      const seen = await waitFor(
        "both sessions announced as worker lost",
        () => {
          const lost = new Set(events.filter((e) => e.topic === "session" && (e.data as SessionView).status === PHASE_TEXTS.workerLost).map((e) => e.key));
          return accounts.every((x) => lost.has(x.id)) ? Date.now() : undefined;
        },
        15_000,
        50,
      );
      console.log(`[holder-liveness] SIGKILL → "worker lost" on the live bus: ${((seen! - killedAt) / 1000).toFixed(1)} s (target ≤ 6 s)`);
      // The `workers` event follows the sessions' (session-liveness.server.ts publishes it after them).
      await waitFor("the workers event naming the lost worker", () =>
        events.some((e) => e.topic === "workers" && (e.data as { lost: string[] }).lost.includes(a.id)),
      );

      // /api says the same, fresh.
      resetJobEngineStatus();
      expect((await getJson(activeLoader, "/api/stalker/active")).connections).toEqual([]);
      for (const acc of accounts) {
        expect(await getStalkerStatus(acc.id)).toMatchObject({ phase: "waiting", status: PHASE_TEXTS.workerLost, state: "connecting", holder: a.id });
      }
      const health = await getJson(healthLoader, "/api/health");
      expect(health.worker.state).toBe("stopped");
      expect(health.workers).toEqual([expect.objectContaining({ id: a.id, state: "lost", sessions: expect.objectContaining({ stalker: 2 }) })]);
      expect(health.workers[0].status).toBe("Worker lost · 2 sessions waiting for a worker");
      expect(health.sessions).toEqual({ waiting: 2, status: PHASE_TEXTS.workerLost });
      expect(sim.sockets.sessions(accounts[0]!.id)).toHaveLength(0);
    } finally {
      off();
    }

    // Another worker takes them: "Moving to worker …" while it logs in, then active there.
    const moving: string[] = [];
    const off2 = onLive((m) => {
      const s = m.data as SessionView | undefined;
      if (m.topic === "session" && s?.status?.startsWith("Moving to worker")) moving.push(s.status);
    });
    try {
      const b = await worker();
      await waitFor(
        "both active on the new worker",
        async () => (await Promise.all(accounts.map((x) => getStalkerStatus(x.id)))).every((s) => s?.phase === "active" && s.holder === b.id),
        40_000,
      );
      expect(moving).toContain(PHASE_TEXTS.moving(b.id));
      expect((await getJson(activeLoader, "/api/stalker/active")).connections).toEqual(accounts.map((x) => x.id).sort());
    } finally {
      off2();
    }
  }, 120_000);

  it("sessions beyond every live worker's capacity say 'all workers are full (N of M)', never active", async () => {
    const accounts = await stalkers(3);
    const w = await worker({ SESSION_CONCURRENCY: "2" });
    for (const acc of accounts) await startStalker(acc.id);
    await waitFor(
      "two active",
      async () => (await Promise.all(accounts.map((x) => getStalkerStatus(x.id)))).filter((s) => s?.phase === "active").length === 2,
      30_000,
    );
    const full = "Waiting for a worker: all workers are full (2 of 2)";
    // What the sessions and the workers' beats said last, for the message if the wait runs out
    // (it did twice in fresh-clone runs at a load average of 10, at 10 s and at 30 s).
    let seen = "";
    const third = await waitFor(
      "the third says all workers are full",
      async () => {
        resetJobEngineStatus();
        const all = await Promise.all(accounts.map((x) => getStalkerStatus(x.id)));
        const beats = (await jobEngineDetails()).workers.map((x) => ({ id: x.id, sessions: x.sessions, capacity: x.capacity }));
        seen = JSON.stringify({ sessions: all.map((s) => s && [s.phase, s.actual, s.status, s.holder]), beats });
        return all.find((s) => s?.status === full);
      },
      30_000,
    ).catch(async (err: Error) => {
      const db = await getDb();
      const entries = await db
        .select({ at: logs.timestamp, message: logs.message })
        .from(logs)
        .orderBy(desc(logs.timestamp))
        .limit(12)
        .catch(() => []);
      const log = entries.map((e) => `${e.at.toISOString()} ${e.message}`).join("\n");
      throw new Error(`${err.message}\nlast seen: ${seen}\nSystem Logs, newest first:\n${log}\nworker ${w.id}:\n${w.output().slice(-3000)}`);
    });
    // What every screen shows; the row's own `actual` may still be "connecting" when a runner
    // that took it let go while it was still wanted (seen in a CI run): no one holds it.
    expect(third).toMatchObject({ phase: "waiting", holder: null });
    expect((await getJson(activeLoader, "/api/stalker/active")).connections).not.toContain(third!.key);
    expect((await getJson(healthLoader, "/api/health")).sessions).toEqual({ waiting: 1, status: full });
  }, 90_000);

  it("the default capacity lets one of two workers carry a 1,000-session fleet", () => {
    expect(defaultSessionCapacity()).toBeGreaterThanOrEqual(1_000);
  });
});
