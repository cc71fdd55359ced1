import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ALERT_TEXTS, AlertsResponseSchema, PutAlertsBodySchema, type AlertsResponse } from "#api/alerts";
import { alertsView, saveAlertDestinations } from "~/models/alert.server";
import { logEvent } from "~/models/log.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/http/api.server";
import { auditNote } from "~/utils/audit-context.server";
import { requireApiAuth } from "~/http/auth.server";
import { ADMIN_ONLY } from "~/utils/roles";

/** The /api contract of this route (zod), beside it for the OpenAPI document. */
export { AlertsResponseSchema, PutAlertsBodySchema };

/**
 * GET /api/alerts → `{destinations}`; PUT /api/alerts `{destinations: [...]}` replaces them
 * (issue 31 item 2). Admins only: a destination's URL can post to the operators' channels. A
 * webhook's secret is never answered (`secret: "set"`); a PUT without `secret` for a URL
 * already stored keeps its secret.
 */
export const loader = apiRoute(async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireApiAuth(request);
  if (operator.role !== "admin") return jsonError(403, ADMIN_ONLY);
  return Response.json((await alertsView()) satisfies AlertsResponse);
});

export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  const operator = await requireApiAuth(request);
  if (operator.role !== "admin") return jsonError(403, ADMIN_ONLY);
  const body = await readJson(request, PutAlertsBodySchema);
  const saved = await saveAlertDestinations(body.destinations);
  auditNote({ action: "alerts.update", target: "Alert destinations", details: { destinations: saved.destinations.length } });
  await logEvent({ type: "info", source: "system", message: `${ALERT_TEXTS.saved(saved.destinations.length)} (set by ${operator.name})` });
  return Response.json(saved satisfies AlertsResponse);
});
