import { RELAY_ERRORS } from "#api/galacord";
import { listChannels } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** GET /api/bot/channels → { channels: [{id, name, guildId, guildName}] }: what the bot saw at its last login, by server. */
export const loader = apiRoute(async function loader() {
  return Response.json({ channels: await listChannels() });
}, RELAY_ERRORS.fetchStatus);
export const action = apiRoute(() => methodNotAllowed(["GET"]));
