import type { ActionFunctionArgs } from "@remix-run/node";
import { BOWLING_ERRORS, companionBodySchema } from "#api/bowling";
import { updateCompanion } from "~/models/companion.server";
import { readAccountBody } from "~/routes/_app+/_characters+/accounts-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * PUT /api/bowling-companions/{id} {bowling_id, supplier, consumer} → { companion }
 * (spec 1 §7 "Companions"); id = the companion's `_id`. 404 "Companion not found", 400 wrong
 * or unknown accounts, 409 when the new bowling account already has another companion.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["PUT"]);
  const body = await readAccountBody(request, companionBodySchema);
  return Response.json({ companion: await updateCompanion(params.id ?? "", body) });
}, BOWLING_ERRORS.updateCompanion);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["PUT"]);
});
