import { documented } from "#api/openapi";
import { z } from "zod";
import { publicUserSchema } from "#api/responses";

/** The OpenAPI registration of api.bowling-users.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bowling-users/{id}", "Bowling", {
  DELETE: {
    summary: "Delete a bowling account",
    description: "Spec 1 §7: deletes the bowling account whose `_id` or account id is `id`.",
    params: z.object({ id: z.string().describe("The account's `_id` or Galaxy account id") }),
    responses: { 200: z.object({ success: z.literal(true), user: publicUserSchema }) },
    errors: { 404: "Bowling user not found (also for accounts of other types)" },
  },
});
