import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS, TRADING_MESSAGES } from "#api/trading";
import { updateAdSchema } from "#api/trading-schemas";
import { deleteAd, updateAd } from "~/models/ad.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson, tradingFailure } from "./trading-api.server";

/**
 * PUT    /api/ads/{id} {adsMessage?, category?, isActive?} → { ad }; 404 unknown.
 * DELETE /api/ads/{id} → { success, message }; 404 unknown.
 */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? "";
  if (request.method === "PUT") {
    const { _id: _ignored, ...input } = await readTradingJson(request, updateAdSchema);
    try {
      return Response.json({ ad: await updateAd(id, input) });
    } catch (err) {
      // The spec gives no default for a failed ad update; the status toast text fits the common case.
      return tradingFailure(err, TRADING_MESSAGES.updateAdStatusFailed);
    }
  }
  if (request.method === "DELETE") {
    try {
      if (!(await deleteAd(id))) return jsonError(404, TRADING_ERRORS.adNotFound);
      return Response.json({ success: true, message: TRADING_MESSAGES.adDeleted });
    } catch (err) {
      return tradingFailure(err, TRADING_ERRORS.deleteAd);
    }
  }
  return methodNotAllowed(["PUT", "DELETE"]);
});

export const loader = apiRoute(() => methodNotAllowed(["PUT", "DELETE"]));
