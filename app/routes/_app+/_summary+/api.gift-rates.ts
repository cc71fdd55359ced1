import type { ActionFunctionArgs } from "@remix-run/node";
import { GIFT_RATE_ERRORS } from "#api/summary";
import { giftRatesBodySchema } from "#api/summary-schemas";
import { getGiftRates, replaceGiftRates } from "~/models/gift-rates.server";
import { apiRoute, methodNotAllowed, readJson } from "~/http/api.server";

/**
 * GET /api/gift-rates → { rates: { [giftName]: number } } (spec 2 §7 "Characters").
 * POST /api/gift-rates { rates } → { rates }: replaces the whole set; rates ≤ 0 are dropped;
 * unknown gift names, negative or non-numeric rates → 400 and nothing changes.
 */
export const loader = apiRoute(async function loader() {
  return Response.json({ rates: await getGiftRates() });
}, GIFT_RATE_ERRORS.loadFailed);

export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const body = await readJson(request, giftRatesBodySchema);
  return Response.json({ rates: await replaceGiftRates(body.rates) });
}, GIFT_RATE_ERRORS.saveFailed);
