/**
 * Session host fault test (issue 9 "Proof": "Redis restart → sessions come back"). A
 * private redis-server (app/queue/private-redis.server.ts) on a free port, a real worker process,
 * the simulator in this process. Two restarts: one that keeps the data (append-only file: the
 * jobs are still there, their locks expired) and one that comes back empty (the jobs are
 * gone: the workers' reconcile enqueues the started sessions again).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { getStalkerStatus, startStalker, stopStalker } from "~/models/stalker.server";
import { upsertUser } from "~/models/user.server";
import { resetEnv } from "~/utils/env.server";
import { startPrivateRedis, type PrivateRedis } from "../app/queue/private-redis.server";
import { closeQueues, getQueue } from "../app/queue/queues.server";
import { sessionJobId } from "./session-host.server";
import { freePort, spawnWorker, waitFor, type WorkerChild } from "./test-helpers";

let sim: Simulator;
let url: string;
let redis: PrivateRedis | undefined;
let worker: WorkerChild | undefined;
const dirs: string[] = [];

function tmpDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "gt-redis-"));
  dirs.push(d);
  return d;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  url = `redis://127.0.0.1:${await freePort()}`;
  process.env.REDIS_URL = url;
  resetEnv();
  await closeQueues();
  redis = await startPrivateRedis(url, { dir: tmpDir() });
  worker = spawnWorker({
    REDIS_URL: url,
    GALAXY_WS_URL: sim.wsUrl,
    STALKER_TIME_SCALE: "0.25",
    SESSION_LOCK_DURATION_MS: "3000",
    SESSION_STALLED_INTERVAL_MS: "1000",
    SESSION_RECONCILE_MS: "2000",
    SESSION_POLL_MS: "500",
  });
  await waitFor(`worker ready\n${worker.output()}`, () => /\[jobs\] worker \S+ processing/.test(worker!.output()), 30_000);
}, 60_000);

afterAll(async () => {
  if (worker && worker.child.exitCode === null) worker.child.kill("SIGKILL");
  await closeQueues();
  await redis?.stop();
  await sim?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function comeBack(ids: string[], loginsBefore: number) {
  await waitFor(
    `sessions back: ${JSON.stringify(await Promise.all(ids.map(getStalkerStatus)))}\n${worker!.output().slice(-2000)}`,
    async () => {
      for (const id of ids) {
        const s = await getStalkerStatus(id);
        if (s?.state !== "active" || sim.sockets.sessions(id).length !== 1) return false;
        const job = await getQueue("stalker")
          .getJob(sessionJobId("stalker", id))
          .catch(() => undefined);
        if (!job || (await job.getState()) !== "active") return false;
      }
      return sim.sockets.total > loginsBefore;
    },
    40_000,
    200,
  );
}

describe("session host: Redis restart (issue 9 Proof: fault tests)", () => {
  it("sessions come back after a restart that keeps the data, and after one that loses it", async () => {
    const accounts = sim.world.accounts.filter((a) => a.kind === "stalker").slice(0, 2);
    for (const a of accounts) await upsertUser({ accountId: a.id, nick: a.nick, password: a.password, type: "stalker" });
    const ids = accounts.map((a) => a.id);
    for (const id of ids) await startStalker(id);
    await comeBack(ids, 0);

    // 1. Down longer than the lock, back with its append-only file.
    const dir = (redis as PrivateRedis).dir;
    await redis!.stop();
    await new Promise((r) => setTimeout(r, 4_500));
    let before = sim.sockets.total;
    redis = await startPrivateRedis(url, { dir });
    await comeBack(ids, before);

    // 2. Back empty: every job is gone; the worker's reconcile restores them from the database.
    await redis.stop();
    await new Promise((r) => setTimeout(r, 1_500));
    before = sim.sockets.total;
    redis = await startPrivateRedis(url, { dir: tmpDir() });
    await comeBack(ids, before);
    for (const id of ids) expect(sim.sockets.sessions(id)).toHaveLength(1);

    for (const id of ids) await stopStalker(id);
    await waitFor("stopped sessions gone", () => ids.every((id) => sim.sockets.sessions(id).length === 0), 10_000);
  }, 120_000);
});
