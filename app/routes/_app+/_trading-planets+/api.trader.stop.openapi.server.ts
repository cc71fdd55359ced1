import { stalkerBodySchema as accountBodySchema } from "#api/accounts";
import { documented } from "#api/openapi";
import { z } from "zod";
import { traderSchema } from "#api/responses";

/** The OpenAPI registration of api.trader.stop.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/trader/stop", "Trading planets", {
  POST: {
    summary: "Stop a trader",
    description: "Issue 11: stopped and idle at once; `trader` is null when it never ran. Works while Redis is down.",
    body: accountBodySchema,
    example: { account_id: "22222222" },
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), trader: traderSchema.nullable() }) },
    errors: { 404: "User not found" },
  },
});
