import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS, TRADING_MESSAGES } from "#api/trading";
import { updateSequenceSchema } from "#api/trading-schemas";
import { deleteSequence, updateSequence } from "~/models/planet-sequence.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson } from "~/routes/_app+/_trading-planets+/trading-api.server";

/**
 * PUT    /api/planet-sequences/{id} (any sequence fields) → { sequence }; 404 when unknown.
 * DELETE /api/planet-sequences/{id} → { success, message }; 404 when unknown.
 */
export const action = apiRoute(
  async ({ request, params }: ActionFunctionArgs) => {
    const id = params.id ?? "";
    if (request.method === "PUT") {
      const { _id: _ignored, ...update } = await readTradingJson(request, updateSequenceSchema);
      return Response.json({ sequence: await updateSequence(id, update) });
    }
    if (request.method === "DELETE") {
      if (!(await deleteSequence(id))) return jsonError(404, TRADING_ERRORS.sequenceNotFound);
      return Response.json({ success: true, message: TRADING_MESSAGES.sequenceDeleted });
    }
    return methodNotAllowed(["PUT", "DELETE"]);
  },
  { PUT: TRADING_ERRORS.updateSequence, DELETE: TRADING_ERRORS.deleteSequence },
);

export const loader = apiRoute(() => methodNotAllowed(["PUT", "DELETE"]));
