import type { ActionFunctionArgs } from "@remix-run/node";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES, createCredsSchema } from "#api/accounts";
import { createUserFromRecoveryCode } from "~/platform/create-creds.server";
import { readAccountBody } from "~/routes/_app+/_characters+/accounts-api.server";
import { apiRoute, methodNotAllowed } from "~/http/api.server";

/**
 * POST /api/create-creds {rc, type} (spec 2 §7 "Characters") → { user, message }.
 * Signs in with the recovery code and stores the user; 451 → 400 "Login failed: Invalid
 * credentials", other refusals 4xx with the platform's text, unreachable 502, timeout 504.
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readAccountBody(request, createCredsSchema);
  const user = await createUserFromRecoveryCode(body);
  return Response.json({ success: true, message: ACCOUNT_MESSAGES.userCreated, user });
}, ACCOUNT_ERRORS.createUser);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
