import { documented } from "#api/openapi";
import { z } from "zod";
import { categorySchema } from "#api/responses";

/** The OpenAPI registration of api.categories.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/categories/{id}", "Characters", {
  DELETE: {
    summary: "Delete a category",
    description: 'Spec 2 §7 "Characters".',
    params: z.object({ id: z.string().describe("The category's `_id`") }),
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), category: categorySchema }) },
    errors: { 404: "Category not found" },
  },
});
