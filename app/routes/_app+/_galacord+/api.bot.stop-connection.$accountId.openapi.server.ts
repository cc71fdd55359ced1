import { documented } from "#api/openapi";
import { z } from "zod";
import { accountAnswerSchema } from "#api/responses";

/** The OpenAPI registration of api.bot.stop-connection.$accountId.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/stop-connection/{accountId}", "GalaCord", {
  POST: {
    summary: "Disconnect a saved account",
    description: 'Spec 2 §7 "GalaCord": disconnected, still saved.',
    params: z.object({ accountId: z.string().describe("The Galaxy account id") }),
    responses: { 200: accountAnswerSchema },
    errors: { 404: "No saved account with that id" },
  },
});
