import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS, TRADING_MESSAGES } from "#api/trading";
import { updateCustomPlanetSchema } from "#api/trading-schemas";
import { deleteCustomPlanet, updateCustomPlanet } from "~/models/custom-planet.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson } from "~/routes/_app+/_trading-planets+/trading-api.server";

/**
 * PUT    /api/custom-planets/{id} {name?, type?} → { planet }; 404 unknown, 409 duplicate.
 * DELETE /api/custom-planets/{id} → { success, message }; 404 unknown.
 */
export const action = apiRoute(
  async ({ request, params }: ActionFunctionArgs) => {
    const id = params.id ?? "";
    if (request.method === "PUT") {
      const { _id: _ignored, ...input } = await readTradingJson(request, updateCustomPlanetSchema);
      return Response.json({ planet: await updateCustomPlanet(id, input) });
    }
    if (request.method === "DELETE") {
      if (!(await deleteCustomPlanet(id))) return jsonError(404, TRADING_ERRORS.customPlanetNotFound);
      return Response.json({ success: true, message: TRADING_MESSAGES.customPlanetDeleted });
    }
    return methodNotAllowed(["PUT", "DELETE"]);
  },
  { PUT: TRADING_ERRORS.updateCustomPlanet, DELETE: TRADING_ERRORS.deleteCustomPlanet },
);

export const loader = apiRoute(() => methodNotAllowed(["PUT", "DELETE"]));
