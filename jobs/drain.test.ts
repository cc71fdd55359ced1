/**
 * Issue 31 item 1, "drain" on the Sessions page's Workers panel, with real worker processes
 * (`jobs/worker.ts`) and real sockets to the simulator: POST /api/workers/{id}/drain makes that
 * worker hand every session it holds to the other worker the SIGTERM way — each sends
 * `QUIT :ds` before the next worker logs in, so the platform counts no 950 takeover — and it
 * then takes no new session (a stalker started afterwards goes to the other worker) until it
 * is undrained; its beat says it is drained. Real rows, real beats, real Redis.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DrainAnswer, SessionsListAnswer, WorkersAnswer } from "#api/operations";
import { startSimulator, type Simulator } from "#sim/server";
import { apiArgs } from "#tests/kit/api";
import { getDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { startHolderWatcher } from "~/models/session-liveness.server";
import { startStalker, stopStalker } from "~/models/stalker.server";
import { upsertUser } from "~/models/user.server";
import { action as drainAction } from "~/routes/_app+/_sessions+/api.workers.$id.drain";
import { loader as sessionsLoader } from "~/routes/_app+/_sessions+/api.sessions";
import { loader as workersLoader } from "~/routes/_app+/_sessions+/api.workers";
import { getEnv } from "~/utils/env.server";
import { closeLive } from "../app/queue/live.server";
import { resetJobEngineStatus } from "../app/queue/status.server";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "./test-helpers";

let sim: Simulator;
const children: WorkerChild[] = [];
let stopWatcher: () => void = () => {};

async function worker() {
  const w = spawnWorker({ GALAXY_WS_URL: sim.wsUrl, STALKER_TIME_SCALE: "0.25", SESSION_POLL_MS: "500" });
  children.push(w);
  const id = await waitFor(`worker ready\n${w.output()}`, () => /\[jobs\] worker (\S+) processing/.exec(w.output())?.[1], 30_000);
  return Object.assign(w, { id });
}

async function api<T>(handler: (args: never) => Promise<Response>, path: string, init: RequestInit = {}, params: Record<string, string> = {}) {
  const res = await handler((await apiArgs(new Request(`http://localhost${path}`, init), params)) as never);
  return { status: res.status, body: (await res.json()) as T };
}

async function listed() {
  resetJobEngineStatus();
  return (await api<SessionsListAnswer>(sessionsLoader as never, "/api/sessions?purpose=stalker")).body.sessions;
}

async function workerOf(id: string) {
  resetJobEngineStatus();
  return (await api<WorkersAnswer>(workersLoader as never, "/api/workers")).body.workers.find((w) => w.id === id);
}

async function counters(): Promise<{ logins: number; takeovers: number }> {
  return (await (await fetch(`${sim.controlUrl}counters`)).json()) as { logins: number; takeovers: number };
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  for (const p of sim.world.planets) if (p.kind === "general") p.capacity = 1_000;
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

describe("drain a worker (issue 31)", () => {
  it("hands its sessions to the other worker without a platform kick, then takes none until undrained", async () => {
    const accounts = sim.world.accounts.slice(60, 65);
    for (const a of accounts) await upsertUser({ accountId: a.id, nick: a.nick, password: a.password, type: "stalker" });
    const a = await worker();
    const first = accounts.slice(0, 4);
    for (const acc of first) await startStalker(acc.id);
    await waitFor("four active on worker A", async () => (await listed()).filter((s) => s.phase === "active" && s.holder === a.id).length === 4, 30_000);
    const b = await worker();
    await waitFor("worker B beats", async () => !!(await workerOf(b.id)), 10_000);
    const before = await counters();

    const drained = await api<DrainAnswer>(drainAction as never, `/api/workers/${a.id}/drain`, { method: "POST" }, { id: a.id });
    expect(drained.status).toBe(202);
    expect(drained.body.message).toBe(
      `Worker ${a.id} is draining: its sessions move to other workers, and it takes no new ones until it is undrained or restarted`,
    );

    // Every session moves to B and comes up there.
    await waitFor(
      "all four active on worker B",
      async () => {
        const rows = await listed();
        return rows.filter((s) => s.key !== accounts[4]!.id).every((s) => s.phase === "active" && s.holder === b.id);
      },
      40_000,
      250,
    );
    // Handed over cleanly: each logged out of A before B logged in (no 950 "another device").
    const after = await counters();
    expect(after.takeovers - before.takeovers).toBe(0);
    expect(after.logins - before.logins).toBe(4);
    for (const s of await listed()) expect(s.last_error).toBeNull();
    // A's beat says it is drained and holds nothing; it is still alive.
    await waitFor("A's beat says drained, holding none", async () => {
      const w = await workerOf(a.id);
      return w?.state === "alive" && !!w.drained_at && (w.sessions.stalker ?? 0) === 0;
    });

    // A new session goes to B: the drained worker takes none.
    await startStalker(accounts[4]!.id);
    await waitFor("the new stalker active", async () => (await listed()).find((s) => s.key === accounts[4]!.id)?.phase === "active", 30_000);
    expect((await listed()).find((s) => s.key === accounts[4]!.id)?.holder).toBe(b.id);

    // Undrained: it takes sessions again (B is stopped; A picks its sessions up).
    const undone = await api<DrainAnswer>(drainAction as never, `/api/workers/${a.id}/drain`, { method: "DELETE" }, { id: a.id });
    expect(undone.status).toBe(200);
    await waitFor("A's beat says undrained", async () => (await workerOf(a.id))?.drained_at === null);
    b.child.kill("SIGTERM");
    await b.exited;
    await waitFor(
      "all five active on worker A again",
      async () => {
        const rows = await listed();
        return rows.length === 5 && rows.every((s) => s.phase === "active" && s.holder === a.id);
      },
      40_000,
      250,
    );
  }, 150_000);
});
