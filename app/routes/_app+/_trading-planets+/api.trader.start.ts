import type { ActionFunctionArgs } from "@remix-run/node";
import { stalkerBodySchema as accountBodySchema } from "#api/accounts";
import { TRADER_MESSAGES } from "#api/trading";
import { startTrader } from "~/models/trader.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";

/**
 * POST /api/trader/start {account_id, takeover?} (issue 11 "The trading run"; contract in
 * api/trading.ts): 202 with the trader's status. Starting a running trader is a no-op. 400 not a
 * trading-type user (or a bad account_id), 404 unknown user, 409 another purpose holds the account
 * (`holder`; send `takeover: true`), 503 job engine offline, else "Failed to start trader".
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { account_id, takeover } = await readJson(request, accountBodySchema);
  const { tookOver: _took, ...trader } = await startTrader(account_id, { takeover });
  return Response.json({ success: true, message: TRADER_MESSAGES.started, trader }, { status: 202 });
}, TRADER_MESSAGES.startFailed);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
