import { giftRatesBodySchema } from "#api/summary-schemas";
import { documented } from "#api/openapi";
import { giftRatesSchema } from "#api/responses";

/** The OpenAPI registration of api.gift-rates.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/gift-rates", "Summary", {
  GET: { summary: "Gift rates", description: 'Spec 2 §7 "Characters": `rates` maps a gift\'s name to its value.', responses: { 200: giftRatesSchema } },
  POST: {
    summary: "Replace the gift rates",
    description: "Replaces the whole set; rates of 0 or less are dropped.",
    body: giftRatesBodySchema,
    example: { rates: { Clay: 2 } },
    responses: { 200: giftRatesSchema },
  },
});
