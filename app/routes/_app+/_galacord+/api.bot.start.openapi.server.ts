import { documented } from "#api/openapi";
import { z } from "zod";
import { botCommandSchema } from "#api/responses";

/** The OpenAPI registration of api.bot.start.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/start", "GalaCord", {
  POST: {
    summary: "Start the relay bot",
    description: 'Spec 2 §7 "GalaCord": the worker holding the bot logs in to Discord; poll the status. No body needed (an empty JSON object is accepted).',
    body: z.strictObject({}),
    bodyRequired: false,
    example: {},
    responses: { 200: botCommandSchema },
  },
});
