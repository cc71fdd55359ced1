import type { ActionFunctionArgs } from "@remix-run/node";
import { RATE_MESSAGES } from "#api/rates";
import { deleteRateById } from "~/models/rate.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/**
 * DELETE /api/rates/{id} (spec 1 §7 "Rates"): deletes the pair whose `_id` is id.
 * → 200 { success: true }; 404 { error } when no pair has that id.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  if (!(await deleteRateById(params.id ?? ""))) return jsonError(404, RATE_MESSAGES.notFound);
  return Response.json({ success: true });
}, RATE_MESSAGES.deleteFailed());

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["DELETE"]);
});
