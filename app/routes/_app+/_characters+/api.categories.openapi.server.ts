import { createCategorySchema } from "#api/accounts";
import { documented } from "#api/openapi";
import { z } from "zod";
import { categorySchema } from "#api/responses";

/** The OpenAPI registration of api.categories.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/categories", "Characters", {
  GET: {
    summary: "Every category",
    description: 'Spec 2 §7 "Characters".',
    responses: { 200: z.object({ categories: z.array(categorySchema) }) },
  },
  POST: {
    summary: "Add a category",
    description: 'Spec 2 §7 "Characters".',
    body: createCategorySchema,
    example: { value: "traders" },
    responses: { 201: z.object({ success: z.literal(true), message: z.string(), category: categorySchema }) },
    errors: { 409: "A category with that name exists" },
  },
});
