import { rateUpdateSchema } from "#api/rates-schemas";
import { documented } from "#api/openapi";
import { rateSavedSchema } from "#api/responses";

/** The OpenAPI registration of api.rates.update.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/rates/update", "Exchange rates", {
  POST: {
    summary: "Save one pair's rate",
    description: 'Spec 1 §7 "Rates": creates or replaces the pair\'s rate, flat (`"1/2"` or `1.5`) or tiered (`[{quantity, rate}]`). 400 with the §5 text.',
    body: rateUpdateSchema,
    example: { inputItem: "Gold Ring", outputItem: "Clay", rates: "1/2" },
    responses: { 200: rateSavedSchema },
  },
});
