import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ACCOUNT_ERRORS } from "#api/accounts";
import { listUsers } from "~/models/user.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** GET /api/users (spec 2 §7 "Characters") → { users: PublicUser[] } (never passwords, codes, sek, iHeaders). */
export const loader = apiRoute(async function loader(_args: LoaderFunctionArgs) {
  return Response.json({ users: await listUsers() });
}, ACCOUNT_ERRORS.fetchData);

export const action = apiRoute(function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(["GET"]);
});
