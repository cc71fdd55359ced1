import { documented } from "#api/openapi";
import { z } from "zod";
import { successSchema } from "#api/responses";

/** The OpenAPI registration of api.rates.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/rates/{id}", "Exchange rates", {
  DELETE: {
    summary: "Delete a pair by id",
    description: 'Spec 1 §7 "Rates": deletes the pair whose `_id` is `id`.',
    params: z.object({ id: z.string().describe("The pair's `_id`") }),
    responses: { 200: successSchema },
    errors: { 404: "No pair has that id" },
  },
});
