import type { ActionFunctionArgs } from "@remix-run/node";
import { BOWLING_ERRORS, companionBodySchema, deletedCompanionsMessage } from "#api/bowling";
import { createCompanion, deleteAllCompanions, listCompanions } from "~/models/companion.server";
import { accountFailure, readAccountBody } from "~/routes/_app+/_characters+/accounts-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * GET /api/bowling-companions → [{_id, bowling_id, supplier, consumer}] (spec 1 §7: the response is the list, like GET /api/rates answers the map itself);
 * POST {bowling_id, supplier, consumer} → 201 { companion } (400 wrong/unknown accounts,
 * 409 when the bowling account already has one);
 * DELETE (all) → { message: "Deleted N companions", deletedCount } (spec 1 §7 "Companions").
 */
export const loader = apiRoute(async function loader() {
  try {
    return Response.json(await listCompanions());
  } catch (err) {
    return accountFailure(err, BOWLING_ERRORS.fetchCompanions);
  }
});

export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method === "POST") {
    try {
      const body = await readAccountBody(request, companionBodySchema);
      return Response.json({ companion: await createCompanion(body) }, { status: 201 });
    } catch (err) {
      return accountFailure(err, BOWLING_ERRORS.createCompanion);
    }
  }
  if (request.method === "DELETE") {
    try {
      const n = await deleteAllCompanions();
      return Response.json({ message: deletedCompanionsMessage(n), deletedCount: n });
    } catch (err) {
      return accountFailure(err, BOWLING_ERRORS.deleteCompanions);
    }
  }
  return methodNotAllowed(["GET", "POST", "DELETE"]);
});
