/**
 * Session host fault tests (issue 9 "Proof": "SIGKILL a worker holding stalker sessions →
 * another worker resumes them; a stopped stalker is not resumed"). Real worker processes
 * (`node --import tsx jobs/worker.ts`, what `npm run worker` runs) against this file's
 * database and Redis prefix, real sockets to the simulator running in this process.
 * Short session locks (3 s lock, 1 s stalled check) so the test does not wait the
 * production 8 + 4 s; the failover timing itself is measured in bench/ (c).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { getStalkerStatus, startStalker, stopStalker, type StalkerStatus } from "~/models/stalker.server";
import { upsertUser } from "~/models/user.server";
import { getEnv } from "~/utils/env.server";
import { getQueue } from "../app/queue/queues.server";
import { sessionJobId } from "./session-host.server";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "./test-helpers";

let sim: Simulator;
const children: WorkerChild[] = [];

const FAST = {
  SESSION_LOCK_DURATION_MS: "3000",
  SESSION_STALLED_INTERVAL_MS: "1000",
  SESSION_POLL_MS: "500",
  SESSION_RECONCILE_MS: "2000",
  WORKER_HEARTBEAT_MS: "500",
};

async function worker(): Promise<WorkerChild & { id: string }> {
  const w = spawnWorker({ ...FAST, GALAXY_WS_URL: sim.wsUrl, STALKER_TIME_SCALE: "0.25" });
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
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

let next = 0;
async function stalkerAccounts(n: number) {
  const accounts = sim.world.accounts.filter((a) => a.kind === "stalker").slice(next, next + n);
  next += n;
  for (const a of accounts) await upsertUser({ accountId: a.id, nick: a.nick, password: a.password, type: "stalker" });
  return accounts;
}

async function statuses(ids: string[]): Promise<StalkerStatus[]> {
  return Promise.all(ids.map(async (id) => (await getStalkerStatus(id))!));
}
async function allActiveOn(ids: string[], workerId: string, timeoutMs = 30_000) {
  return waitFor(
    `all active on ${workerId}: ${JSON.stringify(await statuses(ids))}`,
    async () => {
      const s = await statuses(ids);
      return s.every((x) => x.state === "active" && x.holder === workerId && sim.sockets.sessions(x.accountId).length === 1) ? s : false;
    },
    timeoutMs,
    100,
  );
}

describe("session host failover (issue 9 Proof: fault tests)", () => {
  it("SIGKILL of the worker holding stalker sessions: a second worker resumes them (active again, held by it)", async () => {
    const accounts = await stalkerAccounts(3);
    const ids = accounts.map((a) => a.id);
    const a = await worker();
    for (const id of ids) await startStalker(id);
    await allActiveOn(ids, a.id);

    const b = await worker();
    const before = sim.sockets.total;
    a.child.kill("SIGKILL");
    expect((await a.exited).signal).toBe("SIGKILL");
    // The dead worker's sockets closed with it; the platform sees them go.
    await waitFor("sessions gone with the dead worker", () => ids.every((id) => sim.sockets.sessions(id).length === 0), 10_000);

    const resumed = await allActiveOn(ids, b.id);
    expect(resumed.map((s) => s.planet)).toEqual(accounts.map((x) => x.homePlanet));
    expect(sim.sockets.total - before).toBe(3); // one new login per session
    for (const id of ids) expect(await (await getQueue("stalker").getJob(sessionJobId("stalker", id)))!.getState()).toBe("active");

    for (const id of ids) await stopStalker(id);
    await waitFor(
      "jobs ended",
      async () => (await Promise.all(ids.map((id) => getQueue("stalker").getJob(sessionJobId("stalker", id))))).every((j) => !j),
      10_000,
    );
  }, 90_000);

  it("a stopped stalker is not resumed: stopped before the kill, and stopped while its worker was dead", async () => {
    const [keep, stoppedBefore, stoppedWhileDead] = await stalkerAccounts(3);
    const a = await worker();
    for (const acc of [keep, stoppedBefore, stoppedWhileDead]) await startStalker(acc.id);
    await allActiveOn([keep.id, stoppedBefore.id, stoppedWhileDead.id], a.id);

    await stopStalker(stoppedBefore.id);
    await waitFor("QUIT :ds from the holder", () => sim.sockets.closed.some((c) => c.accountId === stoppedBefore.id && c.quit === "ds"), 10_000);

    a.child.kill("SIGKILL");
    await a.exited;
    await stopStalker(stoppedWhileDead.id); // nobody holds it now: only the database knows

    const b = await worker();
    await allActiveOn([keep.id], b.id);
    // The second worker takes the dead one's orphaned jobs (its stalled check runs each second):
    // the one stopped while nobody held it ends there, without a sign-in.
    await waitFor(
      "the orphaned job of the stalker stopped while its worker was dead ended",
      async () => !(await getQueue("stalker").getJob(sessionJobId("stalker", stoppedWhileDead.id))),
      20_000,
      100,
    );
    for (const acc of [stoppedBefore, stoppedWhileDead]) {
      expect(await getStalkerStatus(acc.id)).toMatchObject({ desired: "stop", state: "inactive" });
      expect(sim.sockets.sessions(acc.id)).toHaveLength(0);
      expect(await getQueue("stalker").getJob(sessionJobId("stalker", acc.id))).toBeUndefined();
    }
    await stopStalker(keep.id);
  }, 90_000);

  it("SIGTERM hands sessions over: the stopping worker sends QUIT :ds and another worker takes them at once", async () => {
    const [acc] = await stalkerAccounts(1);
    const a = await worker();
    await startStalker(acc.id);
    await allActiveOn([acc.id], a.id);
    const b = await worker();
    a.child.kill("SIGTERM");
    expect((await a.exited).code).toBe(0);
    await allActiveOn([acc.id], b.id, 15_000);
    expect(sim.sockets.closed.some((c) => c.accountId === acc.id && c.quit === "ds")).toBe(true);
    await stopStalker(acc.id);
  }, 60_000);
});
