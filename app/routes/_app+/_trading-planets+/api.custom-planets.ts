import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS } from "#api/trading";
import { createCustomPlanetSchema } from "#api/trading-schemas";
import { createCustomPlanet, listCustomPlanets } from "~/models/custom-planet.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson } from "~/routes/_app+/_trading-planets+/trading-api.server";

/**
 * GET  /api/custom-planets → { planets } (spec 2 §7 "Trading planets").
 * POST /api/custom-planets {name, type: blacklisted|english} → 201 { planet }; 409 when the name exists for that type (any case).
 */
export const loader = apiRoute(async () => {
  return Response.json({ planets: await listCustomPlanets() });
}, TRADING_ERRORS.fetchCustomPlanets);

export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const input = await readTradingJson(request, createCustomPlanetSchema);
  return Response.json({ planet: await createCustomPlanet(input) }, { status: 201 });
}, TRADING_ERRORS.createCustomPlanet);
