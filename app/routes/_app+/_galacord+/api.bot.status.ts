import { RELAY_ERRORS } from "#api/galacord";
import { getBotStatus } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** GET /api/bot/status → { isRunning, error, connectedChannels, state } (spec 2 §7; polled every 5 s). */
export const loader = apiRoute(async function loader() {
  return Response.json(await getBotStatus());
}, RELAY_ERRORS.fetchStatus);
export const action = apiRoute(() => methodNotAllowed(["GET"]));
