import { updateSequenceSchema } from "#api/trading-schemas";
import { documented } from "#api/openapi";
import { z } from "zod";
import { successMessageSchema, sequenceSchema } from "#api/responses";

/** The OpenAPI registration of api.planet-sequences.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
const id = z.object({ id: z.string().describe("The sequence's `_id`") });

export const openapi = documented("/api/planet-sequences/{id}", "Trading planets", {
  PUT: {
    summary: "Change a planet sequence",
    description: 'Spec 2 §7 "Trading planets": any of the sequence\'s fields.',
    params: id,
    body: updateSequenceSchema,
    example: { name: "Evening run", sequence: [{ planetType: "Venus" }] },
    responses: { 200: z.object({ sequence: sequenceSchema }) },
    errors: { 404: "Sequence not found", 409: "A sequence with that name exists" },
  },
  DELETE: { summary: "Delete a planet sequence", params: id, responses: { 200: successMessageSchema }, errors: { 404: "Sequence not found" } },
});
