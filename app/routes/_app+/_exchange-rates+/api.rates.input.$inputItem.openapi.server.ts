import { documented } from "#api/openapi";
import { z } from "zod";
import { countSchema } from "#api/responses";

/** The OpenAPI registration of api.rates.input.$inputItem.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/rates/input/{inputItem}", "Exchange rates", {
  DELETE: {
    summary: "Delete every output of one input gift",
    description: "Deletes the whole group of one input gift; `count` is the pairs deleted.",
    params: z.object({ inputItem: z.string().describe("The input gift's name (URL-encoded)") }),
    responses: { 200: countSchema },
    errors: { 404: "The input has no rates" },
  },
});
