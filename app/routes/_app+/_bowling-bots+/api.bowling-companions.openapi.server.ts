import { companionBodySchema } from "#api/bowling";
import { documented } from "#api/openapi";
import { z } from "zod";
import { companionSchema, deleteCompanionsSchema } from "#api/responses";

/** The OpenAPI registration of api.bowling-companions.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bowling-companions", "Bowling", {
  GET: {
    summary: "Every companion",
    description: 'Spec 1 §7 "Companions": the list itself (like GET /api/rates answers the map itself).',
    responses: { 200: z.array(companionSchema) },
  },
  POST: {
    summary: "Add a companion",
    description: 'Spec 1 §7 "Companions": a bowling account with its supplier and consumer (400 for wrong or unknown accounts).',
    body: companionBodySchema,
    example: { bowling_id: "66666666", supplier: "44444444", consumer: "55555555" },
    responses: { 201: z.object({ companion: companionSchema }) },
    errors: { 409: "That bowling account has a companion already" },
  },
  DELETE: {
    summary: "Delete every companion",
    description: 'Spec 1 §7 "Companions": `message` is "Deleted N companions".',
    responses: { 200: deleteCompanionsSchema },
  },
});
