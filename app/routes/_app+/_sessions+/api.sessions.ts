import type { LoaderFunctionArgs } from "@remix-run/node";
import { OPS_TEXTS, parseSessionsFilter } from "#api/operations";
import { listSessions } from "~/models/sessions-list.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/http/api.server";

/**
 * GET /api/sessions?purpose=&state=&worker=&q=&page= (issue 31 item 1): every session of every
 * purpose, one page of 50, problems first → { sessions: [{ purpose, key, account_id, nick,
 * desired, actual, phase, status, since, holder, holder_alive, attempt, next_try_at,
 * last_error, note, logs_url, page_url, relay }], total, page, page_size, page_count }
 * (schema: `sessionsListAnswerSchema`, api/operations-schemas.ts). `state` is the phase every
 * screen shows (waiting, connecting, active, retrying, stopped, failed); a bad filter is a 400
 * naming it. Every role may read it.
 */
export const loader = apiRoute(async function loader({ request }: LoaderFunctionArgs) {
  const parsed = parseSessionsFilter(new URL(request.url).searchParams, true);
  if ("error" in parsed) return jsonError(400, parsed.error);
  return Response.json(await listSessions(parsed.filter));
}, OPS_TEXTS.failedList);

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
