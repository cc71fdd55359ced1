import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { stopBot } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { readCommandBody } from "~/routes/_app+/_galacord+/galacord-api.server";

/** POST /api/bot/stop (no body needed) → { success, message, status, ...status }: the holder logs out of Discord and sends QUIT :ds on every connection. */
export const action = apiRoute(async function action({ request }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  await readCommandBody(request);
  const status = await stopBot();
  return Response.json({ success: true, message: RELAY_MESSAGES.stopped, ...status, status });
}, RELAY_ERRORS.controlBot);
export const loader = apiRoute(() => methodNotAllowed(["POST"]));
