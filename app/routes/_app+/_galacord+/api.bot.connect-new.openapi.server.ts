import { connectNewSchema } from "#api/galacord-schemas";
import { documented } from "#api/openapi";
import { accountAnswerSchema } from "#api/responses";

/** The OpenAPI registration of api.bot.connect-new.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/connect-new", "GalaCord", {
  POST: {
    summary: "Connect a new account by its recovery code",
    description: 'Spec 2 §7 "GalaCord": logs in with the recovery code, saves the account (the code encrypted, never sent back) and connects it.',
    body: connectNewSchema,
    example: { channelId: "100000000000000001", recoveryCode: "ABCD1234" },
    responses: { 200: accountAnswerSchema },
    errors: { 404: "Unknown channel", 409: "Another purpose holds the account; send `takeover: true`", 502: "The Galaxy platform refused the code or failed" },
  },
});
