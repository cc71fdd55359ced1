import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { connectSchema } from "#api/galacord-schemas";
import { connectAccount } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";

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
