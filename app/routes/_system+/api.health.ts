import { DEPENDENCY_DOWN, type Dependency } from "#api/dependencies";
import type { HealthResponse } from "#api/jobs";
import { producerLastError, withTimeout } from "#jobs/redis.server";
import { jobEngineDetails } from "#jobs/status.server";
import { dbHealth } from "~/db/client.server";
import { healthWorkers } from "~/models/session.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { getEnv } from "~/utils/env.server";

/** The workers list after the database check (≤ ~1.2 s): together well inside the 2 s every answer keeps. */
const WORKERS_TIMEOUT_MS = 700;

/**
 * GET /api/health: database, Redis and worker state, for operators and monitors.
 * 200 with status "ok" when everything runs, "degraded" when Redis or the worker is
 * down (pages and the API still work); 503 only when the database is down. `database.state`,
 * `redis.state` (with the reason in `error`) and `down` say which dependency is unreachable
 * (issue 29 item 3). Answers within ~1.2 s whatever is down: the database ping is bounded
 * (dbHealth, app/db/reachability.server.ts), the Redis reads too (jobs/status.server.ts).
 * (Unauthenticated liveness without details is GET /healthz.)
 */
export const loader = apiRoute(async function loader() {
  const [db, jobs] = await Promise.all([dbHealth(), jobEngineDetails()]);
  const dbOk = db.state === "up";
  const redisOk = jobs.redis === "up";
  const down: Dependency[] = [...(dbOk ? [] : ["database" as const]), ...(redisOk ? [] : ["redis" as const])];
  const body: HealthResponse = {
    status: dbOk && redisOk && jobs.worker === "running" ? "ok" : "degraded",
    database: { ok: dbOk, kind: getEnv().DATABASE_URL ? "postgres" : "pglite", state: db.state, ...(db.error ? { error: db.error } : {}) },
    redis: { ok: redisOk, state: jobs.redis, ...(redisOk ? {} : { error: producerLastError() ?? DEPENDENCY_DOWN.redis }) },
    worker: { state: jobs.worker, lastHeartbeat: jobs.lastHeartbeat },
    down,
    ...(dbOk ? {} : { error: DEPENDENCY_DOWN.database, message: DEPENDENCY_DOWN.database }),
    // Issue 29: each worker and what the sessions of a lost one show (bounded: never holds up the answer).
    ...(await withTimeout(healthWorkers(jobs, dbOk), WORKERS_TIMEOUT_MS, "Workers").catch(() => ({ workers: [], sessions: { waiting: 0, status: null } }))),
  };
  return Response.json(body, { status: dbOk ? 200 : 503, headers: { "Cache-Control": "no-store" } });
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
