import { documented } from "#api/openapi";
import { z } from "zod";
import { successMessageSchema } from "#api/responses";

/** The OpenAPI registration of api.bot.connection.$accountId.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/connection/{accountId}", "GalaCord", {
  DELETE: {
    summary: "Delete a saved account",
    description: 'Spec 2 §7 "GalaCord": the saved account and its code go; the bot disconnects it.',
    params: z.object({ accountId: z.string().describe("The Galaxy account id") }),
    responses: { 200: successMessageSchema },
    errors: { 404: "No saved account with that id" },
  },
});
