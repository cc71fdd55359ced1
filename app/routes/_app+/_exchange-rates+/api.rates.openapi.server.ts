import { documented } from "#api/openapi";
import { ratesMapSchema } from "#api/responses";

/** The OpenAPI registration of api.rates.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/rates", "Exchange rates", {
  GET: {
    summary: "Every exchange rate",
    description:
      'Spec 1 §7 "Rates": the nested map input → output → rate data, flat pairs as `rate`, tiered as `rates`, each with `status` and the pair\'s `_id`. ' +
      "Sent with an `ETag` (a matching `If-None-Match` gets 304), gzipped for clients that accept it.",
    responses: { 200: ratesMapSchema },
  },
});
