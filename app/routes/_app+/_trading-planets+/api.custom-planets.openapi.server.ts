import { createCustomPlanetSchema } from "#api/trading-schemas";
import { documented } from "#api/openapi";
import { z } from "zod";
import { customPlanetSchema } from "#api/responses";

/** The OpenAPI registration of api.custom-planets.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/custom-planets", "Trading planets", {
  GET: { summary: "Every custom planet", description: 'Spec 2 §7 "Trading planets".', responses: { 200: z.object({ planets: z.array(customPlanetSchema) }) } },
  POST: {
    summary: "Add a custom planet",
    description: 'Spec 2 §7 "Trading planets": 409 when the name exists for that type (any case).',
    body: createCustomPlanetSchema,
    example: { name: "Fuzzland", type: "english" },
    responses: { 201: z.object({ planet: customPlanetSchema }) },
    errors: { 409: "That planet exists for that type" },
  },
});
