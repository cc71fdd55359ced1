import { TRADER_MESSAGES } from "#api/trading";
import { listTraderStatuses } from "~/models/trader.server";
import { apiRoute, methodNotAllowed } from "~/http/api.server";

/** GET /api/trader/status (issue 11): `{ traders }`, every character of type trading with its run's state. */
export const loader = apiRoute(async function loader() {
  return Response.json({ traders: await listTraderStatuses() });
}, TRADER_MESSAGES.fetchStatus);

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
