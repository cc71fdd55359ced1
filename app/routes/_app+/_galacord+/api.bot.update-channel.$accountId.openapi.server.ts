import { updateChannelSchema } from "#api/galacord-schemas";
import { documented } from "#api/openapi";
import { z } from "zod";
import { accountAnswerSchema } from "#api/responses";

/** The OpenAPI registration of api.bot.update-channel.$accountId.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/update-channel/{accountId}", "GalaCord", {
  POST: {
    summary: "Move a saved account to another channel",
    description: 'Spec 2 §7 "GalaCord": a connected account reconnects to the new channel.',
    params: z.object({ accountId: z.string().describe("The Galaxy account id") }),
    body: updateChannelSchema,
    example: { channelId: "100000000000000002" },
    responses: { 200: accountAnswerSchema },
    errors: { 404: "No saved account with that id, or unknown channel" },
  },
});
