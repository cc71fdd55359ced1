/**
 * "If no Redis can be had, pages and the API still work, and everything that needs the
 * job engine says clearly that it is offline (a status badge; 503 with {error} from job
 * endpoints)." (issue "Foundation", item 2). REDIS_URL points at a closed port here.
 */
import http from "node:http";
import express from "express";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { resetEnv } from "~/utils/env.server";
import { AppError } from "~/utils/app-error";
import { action as probeAction } from "~/routes/_system+/api.jobs.probe";
import { loader as healthLoader } from "~/routes/_system+/api.health";
import { OFFLINE_MESSAGE, enqueue } from "../app/queue/queues.server";
import { mountQueueBoard, startJobRuntime } from "./runtime.server";
import { jobEngineStatus, resetJobEngineStatus } from "../app/queue/status.server";
import { freePort } from "./test-helpers";
import { apiArgs, errorBody } from "#tests/kit/api";

let closedUrl: string;
beforeAll(async () => {
  closedUrl = `redis://127.0.0.1:${await freePort()}`;
  process.env.REDIS_URL = closedUrl;
  resetEnv();
  resetJobEngineStatus();
});

/**
 * "Fast" here means "does not wait for Redis to come back" (a producer that waited would hang
 * until the test's timeout), not a speed figure: a loaded CI machine takes over a second.
 */
const FAIL_FAST_MS = 4_000;
const timed = async <T>(fn: () => Promise<T>) => {
  const t = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - t };
};

describe("Redis down: producers fail fast with 503 { error }", () => {
  it("enqueue() throws a 503 AppError within a second", async () => {
    const { value: thrown, ms } = await timed(() =>
      enqueue("system", { kind: "probe", ms: 0 }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(thrown).toBeInstanceOf(AppError);
    const err = thrown as AppError;
    expect(err.status).toBe(503);
    expect(err.message).toBe("Job engine offline: Redis is not reachable");
    expect(err.headers).toEqual({ "Retry-After": "5" });
    expect(ms).toBeLessThan(FAIL_FAST_MS);
  });

  it("POST /api/jobs/probe answers 503 { error } quickly", async () => {
    const request = new Request("http://localhost/api/jobs/probe", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const { value: res, ms } = await timed(async () => (await probeAction(await apiArgs(request))) as Response);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(errorBody(OFFLINE_MESSAGE));
    expect(ms).toBeLessThan(FAIL_FAST_MS);
  });

  it("bad input still gets its 400 (validation comes before Redis)", async () => {
    const request = new Request("http://localhost/api/jobs/probe", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"ms":-5}' });
    const res = (await probeAction(await apiArgs(request))) as Response;
    expect(res.status).toBe(400);
  });
});

describe("Redis down: the status badge and /api/health say so", () => {
  it("jobEngineStatus() reports redis down, worker unknown, within ~0.5 s", async () => {
    resetJobEngineStatus();
    const { value, ms } = await timed(() => jobEngineStatus());
    expect(value).toEqual({ redis: "down", worker: "unknown", workers: 0, lost: 0 });
    expect(ms).toBeLessThan(FAIL_FAST_MS);
  });

  it("GET /api/health is 200 'degraded' with the database still ok", async () => {
    resetJobEngineStatus();
    const res = (await healthLoader(await apiArgs(new Request("http://localhost/api/health")))) as Response;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "degraded",
      database: { ok: true, kind: "postgres", state: "up" },
      // Which dependency is down, with the connection's own reason (issue 29 item 3).
      redis: { ok: false, state: "down", error: expect.stringMatching(/ECONNREFUSED|Redis/) as unknown },
      worker: { state: "unknown", lastHeartbeat: null },
      down: ["redis"],
      // No worker can be listed while Redis is down (issue 29 item 1).
      workers: [],
      sessions: { waiting: 0, status: null },
    });
  });
});

describe("Redis down: start-up keeps the web app running", () => {
  it("startJobRuntime() with START_REDIS off resolves, warns, logs an error entry, and stops cleanly", async () => {
    const { value: runtime, ms } = await timed(() => startJobRuntime({ runWorker: true, startRedis: false }));
    expect(ms).toBeLessThan(5_000);
    expect(runtime.privateRedis).toBeUndefined();
    const db = await getDb();
    const rows = await db
      .select()
      .from(logs)
      .where(eq(logs.message, `Job engine offline: Redis is not reachable at ${closedUrl}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: "error", source: "system", details: { reason: "START_REDIS is off" } });
    const stop = await timed(() => runtime.stop());
    expect(stop.ms).toBeLessThan(3_000);
  });

  it("startJobRuntime() with START_REDIS on but no redis-server on the PATH says why", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const runtime = await startJobRuntime({ runWorker: false, startRedis: true });
      expect(runtime.privateRedis).toBeUndefined();
      await runtime.stop();
    } finally {
      process.env.PATH = path;
    }
    const db = await getDb();
    const rows = await db
      .select()
      .from(logs)
      .where(eq(logs.message, `Job engine offline: Redis is not reachable at ${closedUrl}`));
    expect(rows.at(-1)!.details).toEqual({ reason: "redis-server is not on the PATH" });
  });
});

describe("Redis down: the queue board answers a clear 503 instead of hanging", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    await mountQueueBoard(app, "/admin/queues");
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it("the board page is a 503 HTML page that names the problem", async () => {
    resetJobEngineStatus();
    const { value: res, ms } = await timed(() => fetch(`${base}/admin/queues`));
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("<h1>Job engine offline</h1>");
    expect(html).toContain(OFFLINE_MESSAGE);
    expect(ms).toBeLessThan(FAIL_FAST_MS);
  });

  it("the board's API answers 503 JSON { error }", async () => {
    const res = await fetch(`${base}/admin/queues/api/queues`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(errorBody(OFFLINE_MESSAGE));
  });
});

describe("Redis down: the characters selection and Refresh (issue 9) answer 503 and store nothing", () => {
  it("selectCharacter and requestCharactersRefresh throw the 503 AppError; no selection, no progress", async () => {
    const { getSelectedCharacter } = await import("~/models/character-details.server");
    const { selectCharacter, requestCharactersRefresh, getCharactersRefreshProgress } = await import("~/models/character-refresh.server");
    const { createTestOperator } = await import("#tests/kit/auth");
    const op = await createTestOperator({ name: "offline-characters" });
    const select = await selectCharacter(op.id, "1234").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(select).toBeInstanceOf(AppError);
    expect((select as AppError).status).toBe(503);
    expect((select as AppError).message).toBe(OFFLINE_MESSAGE);
    expect(await getSelectedCharacter(op.id)).toBeNull();
    const refresh = await requestCharactersRefresh({ operatorId: op.id, force: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((refresh as AppError).status).toBe(503);
    expect(await getCharactersRefreshProgress()).toBeNull();
  });
});
