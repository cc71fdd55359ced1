import { TRADER_MESSAGES } from "#api/trading";
import { listTraderStatuses } from "~/models/trader.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { traderSchema } from "#api/responses";

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

export const openapi = documented("/api/trader/status", "Trading planets", {
  GET: {
    summary: "Every trader's run",
    description: 'Issue 11 "The trading run": every character of type trading with its run\'s state, counts and session.',
    responses: { 200: z.object({ traders: z.array(traderSchema) }) },
  },
});
