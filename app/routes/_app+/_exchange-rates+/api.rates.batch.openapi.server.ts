import { rateBatchEnvelopeSchema } from "#api/rates-schemas";
import { documented } from "#api/openapi";
import { countSchema } from "#api/responses";

/** The OpenAPI registration of api.rates.batch.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/rates/batch", "Exchange rates", {
  POST: {
    summary: "Save many pairs",
    description:
      'Spec 1 §7 "Rates" (the import and "Add new entries"): writes every pair, all or nothing; `count` is the pairs written (a pair listed twice counts once).',
    body: rateBatchEnvelopeSchema,
    example: { updates: [{ inputItem: "Clay", outputItem: "Silver Ring", rates: [{ quantity: 0, rate: 1 }], status: true }] },
    responses: { 200: countSchema },
  },
});
