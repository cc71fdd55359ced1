import { RELAY_ERRORS } from "#api/galacord";
import { listSavedAccounts } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { savedAccountSchema } from "#api/responses";

/** GET /api/gala-cord-accounts → SavedAccount[] (spec 2 §7; never the recovery code). Error field on failure. */
export const loader = apiRoute(async function loader() {
  return Response.json(await listSavedAccounts());
}, RELAY_ERRORS.fetchAccounts);
export const action = apiRoute(() => methodNotAllowed(["GET"]));

export const openapi = documented("/api/gala-cord-accounts", "GalaCord", {
  GET: {
    summary: "Saved relay accounts",
    description: 'Spec 2 §3 "Saved account", §7: never the recovery code.',
    responses: { 200: z.array(savedAccountSchema) },
  },
});
