import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { accountIdSchema } from "#api/galacord-schemas";
import { stopConnection } from "~/models/galacord.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/** POST /api/bot/stop-connection/{accountId} → { success, message, account } (disconnected, still saved). */
export const action = apiRoute(async function action({ request, params }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const id = accountIdSchema.safeParse(params.accountId);
  if (!id.success) return jsonError(404, RELAY_ERRORS.accountNotFound);
  return Response.json({ success: true, message: RELAY_MESSAGES.disconnected, account: await stopConnection(id.data) });
}, RELAY_ERRORS.disconnectAccount);
export const loader = apiRoute(() => methodNotAllowed(["POST"]));
