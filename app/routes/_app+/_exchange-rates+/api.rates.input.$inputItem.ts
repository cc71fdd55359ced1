import type { ActionFunctionArgs } from "@remix-run/node";
import { RATE_MESSAGES } from "#api/rates";
import { deleteRatesForInput } from "~/models/rate.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/**
 * DELETE /api/rates/input/{inputItem}: deletes every output of one input gift, the group
 * header's delete-all (spec 1 §2 "Delete confirmation"; the spec leaves the path open, see
 * docs/decisions/0005-rates-api.md). The static "input" segment outranks
 * /api/rates/{inputItem}/{outputItem}, and no gift is called "input".
 * → 200 { success: true, count }; 404 { error } when the input has no rates.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const count = await deleteRatesForInput(params.inputItem ?? "");
  if (count === 0) return jsonError(404, `No exchange rates for "${params.inputItem}"`);
  return Response.json({ success: true, count });
}, RATE_MESSAGES.deleteAllFailed());

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["DELETE"]);
});
