import { OPS_TEXTS, type WorkersAnswer } from "#api/operations";
import { listWorkers } from "~/models/sessions-list.server";
import { apiRoute, methodNotAllowed } from "~/http/api.server";

/**
 * GET /api/workers (issue 31 item 1) → { workers: [{ id, host, pid, mode, state, started_at,
 * beat_at, beat_age_seconds, sessions: {<purpose>: n}, capacity, rss_bytes, version,
 * drained_at, lost_at }] }: the live workers (from their beats), then those lost within the
 * last 10 minutes (schema: `workersAnswerSchema`, api/operations-schemas.ts). 503 while Redis
 * is down. Every role may read it.
 */
export const loader = apiRoute(async function loader() {
  return Response.json({ workers: await listWorkers() } satisfies WorkersAnswer);
}, OPS_TEXTS.failedWorkers);

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
