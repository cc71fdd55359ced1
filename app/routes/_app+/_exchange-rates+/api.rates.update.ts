import type { ActionFunctionArgs } from "@remix-run/node";
import { RATE_MESSAGES } from "#api/rates";
import { rateUpdateSchema } from "#api/rates-schemas";
import { upsertRate } from "~/models/rate.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";

/**
 * POST /api/rates/update {inputItem, outputItem, rates} (spec 1 §7 "Rates"): saves one pair's
 * rates, a flat rate ("1/2", 1.5) or a tier list; creates the pair (enabled) when missing.
 * → 200 { success: true, data: { _id, rate | rates, status } }; 400 { error } with the §5 text.
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJson(request, rateUpdateSchema);
  const data = await upsertRate(body);
  return Response.json({ success: true, data });
}, RATE_MESSAGES.saveFailed());

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
