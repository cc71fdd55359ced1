import { emptyBodySchema, RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { stopBot } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";
import { relayFailure } from "~/utils/galacord-api.server";

/** POST /api/bot/stop → { success, message, status }: the holder logs out of Discord and sends QUIT :ds on every connection. */
export const action = apiRoute(async function action({ request }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  await readJson(request, emptyBodySchema);
  try {
    return Response.json({ success: true, message: RELAY_MESSAGES.stopped, status: await stopBot() });
  } catch (err) {
    return relayFailure(err, RELAY_ERRORS.controlBot);
  }
});
export const loader = apiRoute(() => methodNotAllowed(["POST"]));
