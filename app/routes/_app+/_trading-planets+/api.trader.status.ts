import { TRADER_MESSAGES } from "#api/trading";
import { listTraderStatuses } from "~/models/trader.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/** GET /api/trader/status (issue 11): `{ traders }`, every character of type trading with its run's state. */
export const loader = apiRoute(async function loader() {
  try {
    return Response.json({ traders: await listTraderStatuses() });
  } catch (err) {
    console.warn("[api/trader] status failed:", (err as Error).message);
    return jsonError(500, TRADER_MESSAGES.fetchStatus);
  }
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
