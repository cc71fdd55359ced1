import type { LoaderFunctionArgs } from "@remix-run/node";
import { LOG_ERRORS, LOG_LIST_LIMIT } from "#api/logs";
import { logsQuerySchema } from "#api/logs-query";
import { listLogs, toLogDto } from "~/models/log.server";
import { apiRoute, jsonError, methodNotAllowed, zodMessage } from "~/utils/api.server";

/**
 * GET /api/logs with optional query type, source, cleared (spec 2 §7 "Logs").
 * → { logs: [{ _id, type, source, message, timestamp, cleared, details }] }, newest first.
 */
export const loader = apiRoute(async function loader({ request }: LoaderFunctionArgs) {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const query = logsQuerySchema.safeParse(params);
  if (!query.success) return jsonError(400, zodMessage(query.error).replace(/^\w+: /, ""));
  try {
    const rows = await listLogs({ ...query.data, limit: LOG_LIST_LIMIT });
    return Response.json({ logs: rows.map(toLogDto) });
  } catch (err) {
    console.warn("[api/logs] list failed:", (err as Error).message);
    return jsonError(500, LOG_ERRORS.loadFailed);
  }
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
