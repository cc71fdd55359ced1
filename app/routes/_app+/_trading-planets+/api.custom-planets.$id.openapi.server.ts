import { updateCustomPlanetSchema } from "#api/trading-schemas";
import { documented } from "#api/openapi";
import { z } from "zod";
import { customPlanetSchema, successMessageSchema } from "#api/responses";

/** The OpenAPI registration of api.custom-planets.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
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
