import type { ActionFunctionArgs } from "@remix-run/node";
import { BOWLING_ERRORS } from "#api/bowling";
import { listBowlingUsers } from "~/models/bowling-user.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * GET /api/bowling-users (spec 1 §7 "Bowling users") → { users: PublicUser[] (type bowling),
 * recipients: [{_id, account_id, nick}], suppliers: [{_id, account_id, nick}] }; never secrets.
 */
export const loader = apiRoute(async function loader() {
  return Response.json(await listBowlingUsers());
}, BOWLING_ERRORS.fetchUsers);

export const action = apiRoute(function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(["GET"]);
});
