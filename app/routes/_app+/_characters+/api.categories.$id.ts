import type { ActionFunctionArgs } from "@remix-run/node";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES } from "#api/accounts";
import { deleteCategory } from "~/models/category.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * DELETE /api/categories/{id} (spec 2 §7 "Characters") → { success, message, category };
 * 404 "Category not found". Users of that type keep it (their group stays).
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const category = await deleteCategory(params.id ?? "");
  return Response.json({ success: true, message: ACCOUNT_MESSAGES.categoryDeleted, category });
}, ACCOUNT_ERRORS.deleteCategory);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["DELETE"]);
});
