import type { ActionFunctionArgs } from "@remix-run/node";
import { RATE_MESSAGES } from "#api/rates";
import { rateStatusSchema } from "#api/rates-schemas";
import { setRateStatus } from "~/models/rate.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/utils/api.server";

/**
 * POST /api/rates/status {inputItem, outputItem, status} (spec 1 §7 "Rates"): enables
 * (true) or disables (false) a pair.
 * → 200 { success: true, data: { _id, rate | rates, status } }; 404 when the pair is unknown.
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJson(request, rateStatusSchema);
  const data = await setRateStatus(body);
  if (!data) return jsonError(404, RATE_MESSAGES.notFound);
  return Response.json({ success: true, data });
}, "Failed to update exchange rate status");

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
