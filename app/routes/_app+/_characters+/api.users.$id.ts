import type { ActionFunctionArgs } from "@remix-run/node";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES } from "#api/accounts";
import { removeUser } from "~/models/account.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { publicUserSchema } from "#api/responses";

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

export const openapi = documented("/api/users/{id}", "Characters", {
  DELETE: {
    summary: "Delete a character",
    description: 'Spec 2 §7 "Characters": `message` is "User deleted successfully".',
    params: z.object({ id: z.string().describe("The account's `_id` or Galaxy account id") }),
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), user: publicUserSchema }) },
    errors: { 404: "User not found" },
  },
});
