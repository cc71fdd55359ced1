import { documented } from "#api/openapi";
import { z } from "zod";
import { traderSchema } from "#api/responses";

/** The OpenAPI registration of api.trader.status.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/trader/status", "Trading planets", {
  GET: {
    summary: "Every trader's run",
    description: 'Issue 11 "The trading run": every character of type trading with its run\'s state, counts and session.',
    responses: { 200: z.object({ traders: z.array(traderSchema) }) },
  },
});
