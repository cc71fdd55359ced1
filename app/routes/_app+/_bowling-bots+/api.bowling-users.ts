import type { ActionFunctionArgs } from "@remix-run/node";
import { BOWLING_ERRORS } from "#api/bowling";
import { listBowlingUsers } from "~/models/bowling-user.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { bowlingUsersSchema } from "#api/responses";

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

export const openapi = documented("/api/bowling-users", "Bowling", {
  GET: {
    summary: "Bowling accounts and candidates",
    description: 'Spec 1 §7 "Bowling users": the bowling-type accounts (never passwords or codes), with the accounts that may be recipients and suppliers.',
    responses: { 200: bowlingUsersSchema },
  },
});
