import { RELAY_ERRORS } from "#api/galacord";
import { listSavedAccounts } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** GET /api/gala-cord-accounts → SavedAccount[] (spec 2 §7; never the recovery code). Error field on failure. */
export const loader = apiRoute(async function loader() {
  return Response.json(await listSavedAccounts());
}, RELAY_ERRORS.fetchAccounts);
export const action = apiRoute(() => methodNotAllowed(["GET"]));
