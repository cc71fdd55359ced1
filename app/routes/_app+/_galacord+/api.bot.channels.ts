import { RELAY_ERRORS } from "#api/galacord";
import { listChannels } from "~/models/galacord.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { channelSchema } from "#api/responses";

/** GET /api/bot/channels → { channels: [{id, name, guildId, guildName}] }: what the bot saw at its last login, by server. */
export const loader = apiRoute(async function loader() {
  return Response.json({ channels: await listChannels() });
}, RELAY_ERRORS.fetchStatus);
export const action = apiRoute(() => methodNotAllowed(["GET"]));

export const openapi = documented("/api/bot/channels", "GalaCord", {
  GET: {
    summary: "The Discord channels the bot can relay to",
    description: 'Spec 2 §3 "Channel": what the bot saw at its last login, by server.',
    responses: { 200: z.object({ channels: z.array(channelSchema) }) },
  },
});
