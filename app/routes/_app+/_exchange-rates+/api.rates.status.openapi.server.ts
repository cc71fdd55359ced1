import { rateStatusSchema } from "#api/rates-schemas";
import { documented } from "#api/openapi";
import { rateSavedSchema } from "#api/responses";

/** The OpenAPI registration of api.rates.status.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/rates/status", "Exchange rates", {
  POST: {
    summary: "Enable or disable a pair",
    description: 'Spec 1 §7 "Rates": sets the pair\'s `status` (true = enabled).',
    body: rateStatusSchema,
    example: { inputItem: "Gold Ring", outputItem: "Clay", status: false },
    responses: { 200: rateSavedSchema },
    errors: { 404: "No pair with these names" },
  },
});
