import { RELAY_ERRORS } from "#api/galacord";
import { getBotStatus } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { botStatusSchema } from "#api/responses";

/** GET /api/bot/status → { isRunning, error, connectedChannels, state } (spec 2 §7; polled every 5 s). */
export const loader = apiRoute(async function loader() {
  return Response.json(await getBotStatus());
}, RELAY_ERRORS.fetchStatus);
export const action = apiRoute(() => methodNotAllowed(["GET"]));

export const openapi = documented("/api/bot/status", "GalaCord", {
  GET: { summary: "The relay bot's state", description: 'Spec 2 §7 "GalaCord" (the screen polls it every 5 s).', responses: { 200: botStatusSchema } },
});
