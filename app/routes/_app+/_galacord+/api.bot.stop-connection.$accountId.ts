import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { accountIdSchema } from "#api/galacord-schemas";
import { stopConnection } from "~/models/galacord.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { accountAnswerSchema } from "#api/responses";

/** POST /api/bot/stop-connection/{accountId} → { success, message, account } (disconnected, still saved). */
export const action = apiRoute(async function action({ request, params }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const id = accountIdSchema.safeParse(params.accountId);
  if (!id.success) return jsonError(404, RELAY_ERRORS.accountNotFound);
  return Response.json({ success: true, message: RELAY_MESSAGES.disconnected, account: await stopConnection(id.data) });
}, RELAY_ERRORS.disconnectAccount);
export const loader = apiRoute(() => methodNotAllowed(["POST"]));

export const openapi = documented("/api/bot/stop-connection/{accountId}", "GalaCord", {
  POST: {
    summary: "Disconnect a saved account",
    description: 'Spec 2 §7 "GalaCord": disconnected, still saved.',
    params: z.object({ accountId: z.string().describe("The Galaxy account id") }),
    responses: { 200: accountAnswerSchema },
    errors: { 404: "No saved account with that id" },
  },
});
