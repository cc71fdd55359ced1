import { updateAdSchema } from "#api/trading-schemas";
import { documented } from "#api/openapi";
import { z } from "zod";
import { adSchema, successMessageSchema } from "#api/responses";

/** The OpenAPI registration of api.ads.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
const id = z.object({ id: z.string().describe("The ad's `_id`") });

export const openapi = documented("/api/ads/{id}", "Trading planets", {
  PUT: {
    summary: "Change an ad or a message",
    params: id,
    body: updateAdSchema,
    example: { adsMessage: "Selling clay", category: "msg", isActive: false },
    responses: { 200: z.object({ ad: adSchema }) },
    errors: { 404: "Ad not found" },
  },
  DELETE: { summary: "Delete an ad or a message", params: id, responses: { 200: successMessageSchema }, errors: { 404: "Ad not found" } },
});
