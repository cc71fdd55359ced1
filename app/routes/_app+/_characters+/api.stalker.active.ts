import type { StalkerActiveResponse } from "#api/stalker";
import { ACCOUNT_ERRORS } from "#api/accounts";
import { activeStalkerIds } from "~/models/stalker.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/** GET /api/stalker/active (spec 2 §7): `{ connections: [account ids] }` of stalkers connecting or active. */
export const loader = apiRoute(async function loader() {
  try {
    const body: StalkerActiveResponse = { connections: await activeStalkerIds() };
    return Response.json(body);
  } catch (err) {
    console.warn("[api/stalker] active failed:", (err as Error).message);
    return jsonError(500, ACCOUNT_ERRORS.fetchData);
  }
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
