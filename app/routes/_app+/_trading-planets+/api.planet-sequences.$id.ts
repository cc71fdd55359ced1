import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS, TRADING_MESSAGES } from "#api/trading";
import { updateSequenceSchema } from "#api/trading-schemas";
import { deleteSequence, updateSequence } from "~/models/planet-sequence.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson, tradingFailure } from "./trading-api.server";

/**
 * PUT    /api/planet-sequences/{id} (any sequence fields) → { sequence }; 404 when unknown.
 * DELETE /api/planet-sequences/{id} → { success, message }; 404 when unknown.
 */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? "";
  if (request.method === "PUT") {
    const { _id: _ignored, ...update } = await readTradingJson(request, updateSequenceSchema);
    try {
      return Response.json({ sequence: await updateSequence(id, update) });
    } catch (err) {
      return tradingFailure(err, TRADING_ERRORS.updateSequence);
    }
  }
  if (request.method === "DELETE") {
    try {
      if (!(await deleteSequence(id))) return jsonError(404, TRADING_ERRORS.sequenceNotFound);
      return Response.json({ success: true, message: TRADING_MESSAGES.sequenceDeleted });
    } catch (err) {
      return tradingFailure(err, TRADING_ERRORS.deleteSequence);
    }
  }
  return methodNotAllowed(["PUT", "DELETE"]);
});

export const loader = apiRoute(() => methodNotAllowed(["PUT", "DELETE"]));
