import type { ActionFunctionArgs } from "@remix-run/node";
import { BOWLING_ERRORS, lastFetchedBodySchema } from "#api/bowling";
import { getLastFetched, setLastFetched } from "~/models/bowling-user.server";
import { readAccountBody } from "~/routes/_app+/_characters+/accounts-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * GET /api/bowling-users/last-fetched → { lastFetched: ISO | null };
 * POST {timestamp} (ISO 8601 with Z or an offset) → { lastFetched } stored as UTC ISO
 * (spec 1 §3 "Last-fetched", §7). A bad timestamp is a 400, nothing stored.
 */
export const loader = apiRoute(async function loader() {
  return Response.json({ lastFetched: await getLastFetched() });
}, BOWLING_ERRORS.getLastFetched);

export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const body = await readAccountBody(request, lastFetchedBodySchema);
  return Response.json({ lastFetched: await setLastFetched(body.timestamp) });
}, BOWLING_ERRORS.updateLastFetched);
