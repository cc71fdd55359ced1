/**
 * GET /api/health "reports database, Redis and worker state" (issue "Foundation", item 6).
 * Real Redis (this file's QUEUE_PREFIX) and database; the Redis-down case is in
 * jobs/offline.server.test.ts.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { resetJobEngineStatus } from "~/queue/status.server";
import { deleteKeys } from "#jobs/test-helpers";
import os from "node:os";
import { startWorkers } from "#jobs/worker";
import { heartbeatKeys, producerConnection } from "~/queue/redis.server";
import { waitFor } from "#jobs/test-helpers";
import { watchHoldersOnce } from "~/models/session-liveness.server";
import { claimSession, reportSession, startSession, stopSession } from "~/models/session.server";
import { upsertUser } from "~/models/user.server";
import { action, loader } from "./api.health";
import { apiArgs, errorBody } from "#tests/kit/api";

async function health() {
  const res = (await loader(await apiArgs(new Request("http://localhost/api/health")))) as Response;
  return { status: res.status, body: await res.json(), cache: res.headers.get("Cache-Control") };
}

beforeEach(() => resetJobEngineStatus());
afterAll(async () => {
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

describe("GET /api/health", () => {
  it("degraded while no worker runs (Redis up, database up)", async () => {
    expect(await health()).toEqual({
      status: 200,
      cache: "no-store",
      body: {
        status: "degraded",
        database: { ok: true, kind: "postgres", state: "up" },
        redis: { ok: true, state: "up" },
        worker: { state: "stopped", lastHeartbeat: null },
        down: [],
        workers: [],
        sessions: { waiting: 0, status: null },
      },
    });
  });

  it("ok with a running worker, with its last heartbeat; stopped again after it closes", async () => {
    const before = Date.now();
    const pool = startWorkers({ mode: "in-process" });
    try {
      // The worker's first beat comes once it is up: on a loaded machine later than any fixed wait.
      await waitFor("the worker running", async () => {
        resetJobEngineStatus();
        return (await health()).body.worker.state === "running";
      });
      const { status, body } = await health();
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: "ok", redis: { ok: true }, worker: { state: "running" } });
      const beat = Date.parse(body.worker.lastHeartbeat);
      expect(beat).toBeGreaterThanOrEqual(before - 5);
      expect(beat).toBeLessThanOrEqual(Date.now());
    } finally {
      await pool.close(5_000);
    }
    resetJobEngineStatus();
    const after = await health();
    expect(after.body.status).toBe("degraded");
    expect(after.body.worker.state).toBe("stopped");
    expect(after.body.worker.lastHeartbeat).not.toBeNull();
  });

  it("issue 29: lists each worker (host, pid, beat age, sessions held, capacity) and one that was lost, with what its sessions show", async () => {
    const pool = startWorkers({ mode: "in-process" });
    const redis = producerConnection();
    try {
      await waitFor("the in-process worker listed", async () => {
        resetJobEngineStatus();
        return (await health()).body.workers.length === 1;
      });
      const { body } = await health();
      expect(body.workers).toEqual([
        expect.objectContaining({ id: pool.id, host: os.hostname(), pid: process.pid, mode: "in-process", state: "alive", status: "Alive" }),
      ]);
      expect(body.workers[0].beatAgeSeconds).toBeLessThan(3);
      // A worker that stopped beating while holding a stalker (killed: its key simply lapses).
      await upsertUser({ accountId: "73000001", nick: "Held", password: "pw", type: "stalker" });
      // No job (hosted: false): the in-process worker must not take it over during the test.
      await startSession("stalker", "73000001", { hosted: false });
      await claimSession("stalker", "73000001", "w-killed");
      await reportSession("stalker", "73000001", "w-killed", { actual: "active" });
      const record = {
        id: "w-killed",
        pid: 999,
        host: "other-host",
        mode: "standalone",
        queues: [],
        startedAt: new Date().toISOString(),
        at: Date.now(),
        sessions: { stalker: 1 },
        capacity: { stalker: 2000 },
      };
      await redis
        .multi()
        .set(heartbeatKeys.worker("w-killed"), JSON.stringify(record), "PX", 300)
        .sadd(heartbeatKeys.workers(), "w-killed")
        .hset(heartbeatKeys.records(), "w-killed", JSON.stringify(record))
        .exec();
      await waitFor("the watcher notices", async () => (await watchHoldersOnce()).includes("w-killed") || undefined);
      resetJobEngineStatus();
      const after = (await health()).body;
      expect(after.worker.state).toBe("running");
      expect(after.workers.map((w: { id: string; state: string }) => [w.id, w.state])).toEqual([
        [pool.id, "alive"],
        ["w-killed", "lost"],
      ]);
      expect(after.workers[1]).toMatchObject({
        host: "other-host",
        pid: 999,
        sessions: { stalker: 1 },
        capacity: { stalker: 2000 },
        status: "Worker lost · 1 session waiting for a worker",
      });
      expect(Date.parse(after.workers[1].lostAt)).toBeGreaterThan(0);
      expect(after.sessions).toEqual({ waiting: 1, status: "Worker lost · waiting for a worker" });
    } finally {
      await stopSession("stalker", "73000001").catch(() => {});
      await pool.close(5_000);
    }
  });

  it("405 JSON for other methods", async () => {
    const res = (await action(await apiArgs(new Request("http://localhost/api/health", { method: "POST" })))) as Response;
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual(errorBody("Method not allowed (use GET)"));
  });

  it("503 when the database is down (a token verified a moment ago still passes: TOKEN_CACHE_MS)", async () => {
    expect((await health()).status).toBe(200);
    const original = process.env.DATABASE_URL!;
    await closeDb();
    const broken = new URL(original);
    broken.pathname = "/gt_test_no_such_database";
    process.env.DATABASE_URL = broken.toString();
    resetEnv();
    try {
      const { status, body } = await health();
      expect(status).toBe(503);
      expect(body).toMatchObject({ status: "degraded", database: { ok: false, kind: "postgres" }, redis: { ok: true } });
    } finally {
      await closeDb().catch(() => {});
      process.env.DATABASE_URL = original;
      resetEnv();
    }
  });
});
