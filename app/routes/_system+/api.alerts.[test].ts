import type { ActionFunctionArgs } from "@remix-run/node";
import { TestAlertsResponseSchema, type TestAlertsResponse } from "#api/alerts";
import { sendTestAlerts } from "~/models/alert.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/http/api.server";
import { auditNote } from "~/utils/audit-context.server";
import { requireApiAuth } from "~/http/auth.server";
import { ADMIN_ONLY } from "~/utils/roles";

/** The /api contract of this route (zod), beside it for the OpenAPI document. */
export { TestAlertsResponseSchema };

/**
 * POST /api/alerts/test (issue 31 item 2): a test alert to each destination, now (not queued),
 * answering what each returned: `{results: [{id, kind, target, ok, status, message}]}`.
 * 200 even when a destination refused (that is the answer asked for); 400 with none set.
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const operator = await requireApiAuth(request);
  if (operator.role !== "admin") return jsonError(403, ADMIN_ONLY);
  const results = await sendTestAlerts(operator.name);
  auditNote({ action: "alerts.test", target: "Alert destinations", details: { sent: results.length, failed: results.filter((r) => !r.ok).length } });
  return Response.json({ results } satisfies TestAlertsResponse);
});

export const loader = apiRoute(() => methodNotAllowed(["POST"]));
