import type { ActionFunctionArgs } from "@remix-run/node";
import { stalkerBodySchema as accountBodySchema } from "#api/accounts";
import { TRADER_MESSAGES } from "#api/trading";
import { stopTrader } from "~/models/trader.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";

/**
 * POST /api/trader/stop {account_id} (issue 11): stopped and idle at once; the worker holding
 * the run sends `QUIT :ds` and ends the job. 200 with the status (null when it never ran).
 * Works while Redis is down (the holder polls). 404 unknown user, 400 a non-trading user
 * without a trader, else "Failed to stop trader".
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { account_id } = await readJson(request, accountBodySchema);
  const trader = await stopTrader(account_id);
  return Response.json({ success: true, message: TRADER_MESSAGES.stopped, trader }, { status: 200 });
}, TRADER_MESSAGES.stopFailed);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
