import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS } from "#api/trading";
import { createAdSchema } from "#api/trading-schemas";
import { createAd, listAds } from "~/models/ad.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson } from "~/routes/_app+/_trading-planets+/trading-api.server";

/**
 * GET  /api/ads → { ads } (spec 2 §7 "Trading planets").
 * POST /api/ads {adsMessage, category?: ads|msg (default ads), isActive? (default true)} → 201 { ad }; text kept exactly.
 */
export const loader = apiRoute(async () => {
  return Response.json({ ads: await listAds() });
}, TRADING_ERRORS.fetchAds);

export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const input = await readTradingJson(request, createAdSchema);
  return Response.json({ ad: await createAd(input) }, { status: 201 });
}, TRADING_ERRORS.createAd);
