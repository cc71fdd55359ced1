import type { ActionFunctionArgs } from "@remix-run/node";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES, createCategorySchema } from "#api/accounts";
import { createCategory, listCategories } from "~/models/category.server";
import { readAccountBody } from "~/routes/_app+/_characters+/accounts-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * GET /api/categories → { categories: [{ _id, value }] };
 * POST /api/categories {value} → 201 { category, message } (spec 2 §7 "Characters").
 * The value is trimmed; blank → 400 "Category name is required"; an existing name in any
 * case → 409 "Category already exists".
 */
export const loader = apiRoute(async function loader() {
  return Response.json({ categories: await listCategories() });
}, ACCOUNT_ERRORS.fetchData);

export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const body = await readAccountBody(request, createCategorySchema);
  const category = await createCategory(body.value);
  return Response.json({ success: true, message: ACCOUNT_MESSAGES.categoryCreated, category }, { status: 201 });
}, ACCOUNT_ERRORS.createCategory);
