import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS, TRADING_MESSAGES } from "#api/trading";
import { updateAdSchema } from "#api/trading-schemas";
import { deleteAd, updateAd } from "~/models/ad.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson } from "~/routes/_app+/_trading-planets+/trading-api.server";

/**
 * PUT    /api/ads/{id} {adsMessage?, category?, isActive?} → { ad }; 404 unknown.
 * DELETE /api/ads/{id} → { success, message }; 404 unknown.
 */
export const action = apiRoute(
  async ({ request, params }: ActionFunctionArgs) => {
    const id = params.id ?? "";
    if (request.method === "PUT") {
      const { _id: _ignored, ...input } = await readTradingJson(request, updateAdSchema);
      return Response.json({ ad: await updateAd(id, input) });
    }
    if (request.method === "DELETE") {
      if (!(await deleteAd(id))) return jsonError(404, TRADING_ERRORS.adNotFound);
      return Response.json({ success: true, message: TRADING_MESSAGES.adDeleted });
    }
    return methodNotAllowed(["PUT", "DELETE"]);
  },
  // The spec gives no default for a failed ad update; the status toast text fits the common case.
  { PUT: TRADING_MESSAGES.updateAdStatusFailed, DELETE: TRADING_ERRORS.deleteAd },
);

export const loader = apiRoute(() => methodNotAllowed(["PUT", "DELETE"]));
