import { createAdSchema } from "#api/trading-schemas";
import { documented } from "#api/openapi";
import { z } from "zod";
import { adSchema } from "#api/responses";

/** The OpenAPI registration of api.ads.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/ads", "Trading planets", {
  GET: { summary: "Every ad and message", description: 'Spec 2 §7 "Trading planets".', responses: { 200: z.object({ ads: z.array(adSchema) }) } },
  POST: {
    summary: "Add an ad or a message",
    description: 'Spec 2 §7 "Trading planets": `category` ads or msg (default ads), `isActive` default true; the text is kept exactly.',
    body: createAdSchema,
    example: { adsMessage: "Buying clay", category: "ads", isActive: true },
    responses: { 201: z.object({ ad: adSchema }) },
  },
});
