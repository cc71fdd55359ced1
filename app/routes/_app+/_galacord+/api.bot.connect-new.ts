import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { connectNewSchema } from "#api/galacord-schemas";
import { connectNew } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { accountAnswerSchema } from "#api/responses";

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
