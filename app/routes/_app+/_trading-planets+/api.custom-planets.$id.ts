import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS, TRADING_MESSAGES } from "#api/trading";
import { updateCustomPlanetSchema } from "#api/trading-schemas";
import { deleteCustomPlanet, updateCustomPlanet } from "~/models/custom-planet.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson } from "~/routes/_app+/_trading-planets+/trading-api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { customPlanetSchema, successMessageSchema } from "#api/responses";

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

const id = z.object({ id: z.string().describe("The planet's `_id`") });

export const openapi = documented("/api/custom-planets/{id}", "Trading planets", {
  PUT: {
    summary: "Change a custom planet",
    params: id,
    body: updateCustomPlanetSchema,
    example: { name: "Fuzzland2", type: "blacklisted" },
    responses: { 200: z.object({ planet: customPlanetSchema }) },
    errors: { 404: "Custom planet not found", 409: "That planet exists for that type" },
  },
  DELETE: { summary: "Delete a custom planet", params: id, responses: { 200: successMessageSchema }, errors: { 404: "Custom planet not found" } },
});
