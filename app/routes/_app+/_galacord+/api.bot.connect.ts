import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { connectSchema } from "#api/galacord-schemas";
import { connectAccount } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { accountAnswerSchema } from "#api/responses";

/**
 * POST /api/bot/connect {accountId, channelId, takeover?} → { success, message, account } (the holder connects it;
 * the row follows live). 409 `{holder}` when another purpose holds the account: send `takeover: true`.
 */
export const action = apiRoute(async function action({ request }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { accountId, channelId, takeover } = await readJson(request, connectSchema);
  return Response.json({ success: true, message: RELAY_MESSAGES.reconnecting, account: await connectAccount(accountId, channelId, { takeover }) });
}, RELAY_ERRORS.createConnection);
export const loader = apiRoute(() => methodNotAllowed(["POST"]));

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
