import type { ActionFunctionArgs } from "@remix-run/node";
import { BOWLING_ERRORS } from "#api/bowling";
import { removeBowlingUser } from "~/models/bowling-user.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * DELETE /api/bowling-users/{id} (spec 1 §7), id = `_id` or account id of a bowling account
 * → { success: true, user }; 404 "Bowling user not found" (also for accounts of other types).
 * Its details row, selections and companion go with it.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const user = await removeBowlingUser(params.id ?? "");
  return Response.json({ success: true, user });
}, BOWLING_ERRORS.deleteUser);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["DELETE"]);
});
