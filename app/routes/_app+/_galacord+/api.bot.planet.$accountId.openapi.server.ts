import { planetSchema } from "#api/galacord-schemas";
import { documented } from "#api/openapi";
import { z } from "zod";

/** The OpenAPI registration of api.bot.planet.$accountId.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/planet/{accountId}", "GalaCord", {
  POST: {
    summary: "Move a connected account to another planet",
    description: 'Spec 2 §7 "GalaCord": answers once the platform confirms the move.',
    params: z.object({ accountId: z.string().describe("The Galaxy account id") }),
    body: planetSchema,
    example: { planet: "Mars" },
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), planet: z.string() }) },
    errors: { 404: "No saved account with that id", 409: "Not connected", 502: "The Galaxy platform refused the move or failed" },
  },
});
