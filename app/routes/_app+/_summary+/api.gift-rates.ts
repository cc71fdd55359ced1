import type { ActionFunctionArgs } from "@remix-run/node";
import { GIFT_RATE_ERRORS } from "#api/summary";
import { giftRatesBodySchema } from "#api/summary-schemas";
import { getGiftRates, replaceGiftRates } from "~/models/gift-rates.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/utils/api.server";
import { errorText } from "~/utils/errors";

/**
 * GET /api/gift-rates → { rates: { [giftName]: number } } (spec 2 §7 "Characters").
 * POST /api/gift-rates { rates } → { rates }: replaces the whole set; rates ≤ 0 are dropped;
 * unknown gift names, negative or non-numeric rates → 400 and nothing changes.
 */
export const loader = apiRoute(async function loader() {
  try {
    return Response.json({ rates: await getGiftRates() });
  } catch (err) {
    console.warn("[api/gift-rates] load failed:", errorText(err));
    return jsonError(500, GIFT_RATE_ERRORS.loadFailed);
  }
});

export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const body = await readJson(request, giftRatesBodySchema);
  try {
    return Response.json({ rates: await replaceGiftRates(body.rates) });
  } catch (err) {
    console.warn("[api/gift-rates] save failed:", errorText(err));
    return jsonError(500, GIFT_RATE_ERRORS.saveFailed);
  }
});
