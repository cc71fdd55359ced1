import { documented } from "#api/openapi";
import { z } from "zod";
import { publicUserSchema } from "#api/responses";

/** The OpenAPI registration of api.users.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/users/{id}", "Characters", {
  DELETE: {
    summary: "Delete a character",
    description: 'Spec 2 §7 "Characters": `message` is "User deleted successfully".',
    params: z.object({ id: z.string().describe("The account's `_id` or Galaxy account id") }),
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), user: publicUserSchema }) },
    errors: { 404: "User not found" },
  },
});
