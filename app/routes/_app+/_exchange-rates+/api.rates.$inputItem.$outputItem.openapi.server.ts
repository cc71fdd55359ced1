import { documented } from "#api/openapi";
import { z } from "zod";
import { successSchema } from "#api/responses";

/** The OpenAPI registration of api.rates.$inputItem.$outputItem.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/rates/{inputItem}/{outputItem}", "Exchange rates", {
  DELETE: {
    summary: "Delete a pair by its names",
    description: 'Spec 1 §7 "Rates": deletes one pair by its gift names (URL-encoded).',
    params: z.object({ inputItem: z.string().describe("The input gift's name"), outputItem: z.string().describe("The output gift's name") }),
    responses: { 200: successSchema },
    errors: { 404: "No pair with these names" },
  },
});
