import type { ActionFunctionArgs } from "@remix-run/node";
import { BOWLING_ERRORS, companionBodySchema, deletedCompanionsMessage } from "#api/bowling";
import { createCompanion, deleteAllCompanions, listCompanions } from "~/models/companion.server";
import { readAccountBody } from "~/routes/_app+/_characters+/accounts-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * GET /api/bowling-companions → [{_id, bowling_id, supplier, consumer}] (spec 1 §7: the response is the list, like GET /api/rates answers the map itself);
 * POST {bowling_id, supplier, consumer} → 201 { companion } (400 wrong/unknown accounts,
 * 409 when the bowling account already has one);
 * DELETE (all) → { message: "Deleted N companions", deletedCount } (spec 1 §7 "Companions").
 */
export const loader = apiRoute(async function loader() {
  return Response.json(await listCompanions());
}, BOWLING_ERRORS.fetchCompanions);

export const action = apiRoute(
  async function action({ request }: ActionFunctionArgs) {
    if (request.method === "POST") {
      const body = await readAccountBody(request, companionBodySchema);
      return Response.json({ companion: await createCompanion(body) }, { status: 201 });
    }
    if (request.method === "DELETE") {
      const n = await deleteAllCompanions();
      return Response.json({ message: deletedCompanionsMessage(n), deletedCount: n });
    }
    return methodNotAllowed(["GET", "POST", "DELETE"]);
  },
  { POST: BOWLING_ERRORS.createCompanion, DELETE: BOWLING_ERRORS.deleteCompanions },
);
