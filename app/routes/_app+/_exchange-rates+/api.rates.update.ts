import type { ActionFunctionArgs } from "@remix-run/node";
import { RATE_MESSAGES } from "#api/rates";
import { rateUpdateSchema } from "#api/rates-schemas";
import { upsertRate } from "~/models/rate.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { rateSavedSchema } from "#api/responses";

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

export const openapi = documented("/api/rates/update", "Exchange rates", {
  POST: {
    summary: "Save one pair's rate",
    description: 'Spec 1 §7 "Rates": creates or replaces the pair\'s rate, flat (`"1/2"` or `1.5`) or tiered (`[{quantity, rate}]`). 400 with the §5 text.',
    body: rateUpdateSchema,
    example: { inputItem: "Gold Ring", outputItem: "Clay", rates: "1/2" },
    responses: { 200: rateSavedSchema },
  },
});
