import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { connectNewSchema } from "#api/galacord-schemas";
import { connectNew } from "~/platform/galacord-connect.server";
import { apiRoute, methodNotAllowed, readJson } from "~/http/api.server";

/**
 * POST /api/bot/connect-new {channelId, recoveryCode} → 200 { success, message, account }: logs in
 * with the code to learn the account, saves it (code encrypted), the holder connects it.
 * Login refusals answer the platform's text (400 "Login failed: Invalid credentials", 403 …).
 */
export const action = apiRoute(async function action({ request }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const input = await readJson(request, connectNewSchema);
  return Response.json({ success: true, message: RELAY_MESSAGES.connected, account: await connectNew(input) });
}, RELAY_ERRORS.createConnection);
export const loader = apiRoute(() => methodNotAllowed(["POST"]));
