import { RELAY_ERRORS } from "#api/galacord";
import { listConnections } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** GET /api/bot/connections → { connections: [{accountId, nick, planet, channelName, isConnected}] } (spec 2 §3/§7). */
export const loader = apiRoute(async function loader() {
  return Response.json({ connections: await listConnections() });
}, RELAY_ERRORS.fetchStatus);
export const action = apiRoute(() => methodNotAllowed(["GET"]));
