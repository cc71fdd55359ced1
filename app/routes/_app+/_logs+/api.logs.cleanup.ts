import type { ActionFunctionArgs } from "@remix-run/node";
import { cleanupMessage, LOG_ERRORS } from "#api/logs";
import { cleanupLogs } from "~/models/log.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/**
 * DELETE /api/logs/cleanup (spec 2 §7 "Logs"; which entries go is our decision, see
 * docs/decisions/0004-log-cleanup.md): removes cleared entries and entries older than
 * LOG_RETENTION_DAYS (default 14). → { message: "Deleted N log entries", deletedCount: N }
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  try {
    const deletedCount = await cleanupLogs();
    return Response.json({ message: cleanupMessage(deletedCount), deletedCount });
  } catch (err) {
    console.warn("[api/logs] cleanup failed:", (err as Error).message);
    return jsonError(500, LOG_ERRORS.cleanupFailed);
  }
});

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["DELETE"]);
});
