import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { startBot } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { readCommandBody } from "~/routes/_app+/_galacord+/galacord-api.server";

/** POST /api/bot/start (no body needed) → 200 { success, message, status, ...status } (the holder logs in; status polled). 503 job engine offline. */
export const action = apiRoute(async function action({ request }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  await readCommandBody(request);
  const status = await startBot();
  return Response.json({ success: true, message: RELAY_MESSAGES.started, ...status, status });
}, RELAY_ERRORS.controlBot);
export const loader = apiRoute(() => methodNotAllowed(["POST"]));
