import type { ActionFunctionArgs } from "@remix-run/node";
import { OPS_TEXTS, type DrainAnswer } from "#api/operations";
import { drainWorker } from "~/models/sessions-list.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/http/api.server";

/**
 * POST /api/workers/{id}/drain (issue 31 item 1) → 202 { worker, message }: the worker hands its
 * sessions over as on SIGTERM (each sends QUIT :ds, then another worker logs it in: no platform
 * kick) and takes no new sessions until it is undrained (DELETE, → 200) or restarted (a
 * restarted worker has a new id). Draining a drained worker changes nothing. 404 when no live
 * worker has the id; 503 while Redis is down. Operators and admins (viewers: 403).
 * Schema: `drainAnswerSchema`, api/operations-schemas.ts.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed(["POST", "DELETE"]);
  const id = params.id ?? "";
  if (!id || id.length > 200) return jsonError(404, OPS_TEXTS.workerNotFound(id.slice(0, 200)));
  const drained = request.method === "POST";
  const answer: DrainAnswer = await drainWorker(id, drained);
  return Response.json(answer, { status: drained ? 202 : 200 });
}, OPS_TEXTS.failedDrain);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST", "DELETE"]);
});
