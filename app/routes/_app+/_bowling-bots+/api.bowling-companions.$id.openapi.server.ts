import { companionBodySchema } from "#api/bowling";
import { documented } from "#api/openapi";
import { z } from "zod";
import { companionSchema } from "#api/responses";

/** The OpenAPI registration of api.bowling-companions.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bowling-companions/{id}", "Bowling", {
  PUT: {
    summary: "Change a companion",
    description: 'Spec 1 §7 "Companions".',
    params: z.object({ id: z.string().describe("The companion's `_id`") }),
    body: companionBodySchema,
    example: { bowling_id: "66666666", supplier: "44444444", consumer: "55555555" },
    responses: { 200: z.object({ companion: companionSchema }) },
    errors: { 404: "No companion has that id", 409: "That bowling account has a companion already" },
  },
});
