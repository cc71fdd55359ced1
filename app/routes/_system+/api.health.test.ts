/**
 * GET /api/health "reports database, Redis and worker state" (issue "Foundation", item 6).
 * Real Redis (this file's QUEUE_PREFIX) and database; the Redis-down case is in
 * jobs/offline.server.test.ts.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { resetJobEngineStatus } from "#jobs/status.server";
import { deleteKeys } from "#jobs/test-helpers";
import { startWorkers } from "#jobs/worker";
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
      },
    });
  });

  it("ok with a running worker, with its last heartbeat; stopped again after it closes", async () => {
    const before = Date.now();
    const pool = startWorkers({ mode: "in-process" });
    try {
      await new Promise((r) => setTimeout(r, 300));
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
