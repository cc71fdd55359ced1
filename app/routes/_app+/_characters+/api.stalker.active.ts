import type { StalkerActiveResponse } from "#api/stalker";
import { ACCOUNT_ERRORS } from "#api/accounts";
import { activeStalkerIds } from "~/models/stalker.server";
import { apiRoute, methodNotAllowed } from "~/http/api.server";

/** GET /api/stalker/active (spec 2 §7): `{ connections: [account ids] }` of stalkers connecting or active. */
export const loader = apiRoute(async function loader() {
  const body: StalkerActiveResponse = { connections: await activeStalkerIds() };
  return Response.json(body);
}, ACCOUNT_ERRORS.fetchData);

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
