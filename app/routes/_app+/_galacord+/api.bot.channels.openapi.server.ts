import { documented } from "#api/openapi";
import { z } from "zod";
import { channelSchema } from "#api/responses";

/** The OpenAPI registration of api.bot.channels.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/channels", "GalaCord", {
  GET: {
    summary: "The Discord channels the bot can relay to",
    description: 'Spec 2 §3 "Channel": what the bot saw at its last login, by server.',
    responses: { 200: z.object({ channels: z.array(channelSchema) }) },
  },
});
