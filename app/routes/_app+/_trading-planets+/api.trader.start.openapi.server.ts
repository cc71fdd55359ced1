import { stalkerBodySchema as accountBodySchema } from "#api/accounts";
import { documented } from "#api/openapi";
import { z } from "zod";
import { traderSchema } from "#api/responses";

/** The OpenAPI registration of api.trader.start.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/trader/start", "Trading planets", {
  POST: {
    summary: "Start a trader",
    description: "Issue 11: runs the active sequences with this trading-type account. Starting a running trader changes nothing.",
    body: accountBodySchema,
    example: { account_id: "22222222" },
    responses: { 202: z.object({ success: z.literal(true), message: z.string(), trader: traderSchema }) },
    errors: { 404: "User not found", 409: "Another purpose holds the account (`holder`); send `takeover: true`" },
  },
});
