import { emptyBodySchema, RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { startBot } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";
import { relayFailure } from "~/utils/galacord-api.server";

/** POST /api/bot/start → 202 { success, message, status } (the holder logs in; status polled). 503 job engine offline. */
export const action = apiRoute(async function action({ request }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  await readJson(request, emptyBodySchema);
  try {
    return Response.json({ success: true, message: RELAY_MESSAGES.started, status: await startBot() }, { status: 202 });
  } catch (err) {
    return relayFailure(err, RELAY_ERRORS.controlBot);
  }
});
export const loader = apiRoute(() => methodNotAllowed(["POST"]));
