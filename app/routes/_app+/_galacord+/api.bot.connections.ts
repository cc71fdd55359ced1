import { RELAY_ERRORS } from "#api/galacord";
import { listConnections } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { connectionSchema } from "#api/responses";

/** GET /api/bot/connections → { connections: [{accountId, nick, planet, channelName, isConnected}] } (spec 2 §3/§7). */
export const loader = apiRoute(async function loader() {
  return Response.json({ connections: await listConnections() });
}, RELAY_ERRORS.fetchStatus);
export const action = apiRoute(() => methodNotAllowed(["GET"]));

export const openapi = documented("/api/bot/connections", "GalaCord", {
  GET: { summary: "Relay connections", description: 'Spec 2 §3 "Connection", §7.', responses: { 200: z.object({ connections: z.array(connectionSchema) }) } },
});
