import { documented } from "#api/openapi";
import { botStatusSchema } from "#api/responses";

/** The OpenAPI registration of api.bot.status.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/status", "GalaCord", {
  GET: { summary: "The relay bot's state", description: 'Spec 2 §7 "GalaCord" (the screen polls it every 5 s).', responses: { 200: botStatusSchema } },
});
