import { connectSchema } from "#api/galacord-schemas";
import { documented } from "#api/openapi";
import { accountAnswerSchema } from "#api/responses";

/** The OpenAPI registration of api.bot.connect.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/connect", "GalaCord", {
  POST: {
    summary: "Connect a saved account to a channel",
    description: 'Spec 2 §7 "GalaCord": the worker holding the bot connects it. `takeover: true` takes the account from another purpose.',
    body: connectSchema,
    example: { accountId: "33333333", channelId: "100000000000000001" },
    responses: { 200: accountAnswerSchema },
    errors: { 404: "No saved account with that id, or unknown channel", 409: "Another purpose holds the account; send `takeover: true`" },
  },
});
