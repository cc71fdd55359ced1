import type { ActionFunctionArgs } from "@remix-run/node";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES } from "#api/accounts";
import { removeUser } from "~/models/account.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * DELETE /api/users/{id} (spec 2 §7 "Characters"), id = `_id` or account id.
 * → { success: true, message: "User deleted successfully", user }; 404 "User not found".
 * Its character_details row goes with it; its stalker_sessions row cascades.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const user = await removeUser(params.id ?? "");
  return Response.json({ success: true, message: ACCOUNT_MESSAGES.userDeleted, user });
}, ACCOUNT_ERRORS.deleteUser);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["DELETE"]);
});
