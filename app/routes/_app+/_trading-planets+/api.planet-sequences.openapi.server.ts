import { bulkSequenceSchema, createSequenceSchema } from "#api/trading-schemas";
import { documented } from "#api/openapi";
import { z } from "zod";
import { sequenceSchema } from "#api/responses";

/** The OpenAPI registration of api.planet-sequences.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/planet-sequences", "Trading planets", {
  GET: {
    summary: "Every planet sequence",
    description: 'Spec 2 §7 "Trading planets": in list order.',
    responses: { 200: z.object({ sequences: z.array(sequenceSchema) }) },
  },
  POST: {
    summary: "Add a planet sequence",
    description: 'Spec 2 §7 "Trading planets": names are unique (409).',
    body: createSequenceSchema,
    example: {
      name: "Morning run",
      sequence: [{ planetType: "Mars", shuffle: false }],
      seconds: 10,
      closedPlanetsLevel: 1,
      openPlanetsLevel: 1,
      isActive: true,
    },
    responses: { 201: z.object({ sequence: sequenceSchema }) },
    errors: { 409: "A sequence with that name exists" },
  },
  PUT: {
    summary: "Turn several sequences on or off",
    description: "All or nothing: 404 when any id is unknown.",
    body: bulkSequenceSchema,
    example: { ids: ["00000000-0000-0000-0000-000000000000"], updates: { isActive: false } },
    responses: { 200: z.object({ sequences: z.array(sequenceSchema) }) },
    errors: { 404: "A sequence id is unknown" },
  },
});
