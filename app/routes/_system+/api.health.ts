import type { HealthResponse } from "#api/jobs";
import { withTimeout } from "#jobs/redis.server";
import { jobEngineDetails } from "#jobs/status.server";
import { pingDb } from "~/db/client.server";
import { healthWorkers } from "~/models/session.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { getEnv } from "~/utils/env.server";

const DB_TIMEOUT_MS = 2_000;

/**
 * GET /api/health: database, Redis and worker state, for operators and monitors.
 * 200 with status "ok" when everything runs, "degraded" when Redis or the worker is
 * down (pages and the API still work); 503 only when the database is down.
 * (Unauthenticated liveness without details is GET /healthz.)
 */
export const loader = apiRoute(async function loader() {
  const [dbOk, jobs] = await Promise.all([withTimeout(pingDb(), DB_TIMEOUT_MS, "Database ping").catch(() => false), jobEngineDetails()]);
  const body: HealthResponse = {
    status: dbOk && jobs.redis === "up" && jobs.worker === "running" ? "ok" : "degraded",
    database: { ok: dbOk, kind: getEnv().DATABASE_URL ? "postgres" : "pglite" },
    redis: { ok: jobs.redis === "up" },
    worker: { state: jobs.worker, lastHeartbeat: jobs.lastHeartbeat },
    // Issue 29: each worker and what the sessions of a lost one show (never holds up the answer).
    ...(await withTimeout(healthWorkers(jobs, dbOk), DB_TIMEOUT_MS, "Workers").catch(() => ({ workers: [], sessions: { waiting: 0, status: null } }))),
  };
  return Response.json(body, { status: dbOk ? 200 : 503, headers: { "Cache-Control": "no-store" } });
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
