import type { ActionFunctionArgs } from "@remix-run/node";
import { LOG_ERRORS } from "#api/logs";
import { clearLog, toLogDto } from "~/models/log.server";
import { apiRoute, isUuid, jsonError, methodNotAllowed } from "~/utils/api.server";

/**
 * POST /api/logs/clear/{id} (spec 2 §7 "Logs"): marks the entry cleared.
 * → { success: true, log } or 404 { error: "Log entry not found" } (also for ids that
 * are not UUIDs: such an entry cannot exist).
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  if (!isUuid(params.id)) return jsonError(404, LOG_ERRORS.notFound);
  try {
    const entry = await clearLog(params.id);
    if (!entry) return jsonError(404, LOG_ERRORS.notFound);
    return Response.json({ success: true, log: toLogDto(entry) });
  } catch (err) {
    console.warn("[api/logs] clear failed:", (err as Error).message);
    return jsonError(500, LOG_ERRORS.clearFailed);
  }
});

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
