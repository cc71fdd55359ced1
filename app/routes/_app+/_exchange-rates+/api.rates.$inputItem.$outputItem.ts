import type { ActionFunctionArgs } from "@remix-run/node";
import { RATE_MESSAGES } from "#api/rates";
import { deleteRatePair } from "~/models/rate.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/**
 * DELETE /api/rates/{inputItem}/{outputItem} (spec 1 §7 "Rates"): deletes one pair by its
 * gift names, URL-encoded (`/api/rates/Fire%20Cannon%20Ball/Gold%20Ring`; Remix hands the
 * route the decoded names). → 200 { success: true }; 404 { error } when there is no such pair.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  if (!(await deleteRatePair(params.inputItem ?? "", params.outputItem ?? ""))) return jsonError(404, RATE_MESSAGES.notFound);
  return Response.json({ success: true });
}, RATE_MESSAGES.deleteFailed());

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["DELETE"]);
});
