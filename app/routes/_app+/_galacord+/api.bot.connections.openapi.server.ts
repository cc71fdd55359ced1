import { documented } from "#api/openapi";
import { z } from "zod";
import { connectionSchema } from "#api/responses";

/** The OpenAPI registration of api.bot.connections.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bot/connections", "GalaCord", {
  GET: { summary: "Relay connections", description: 'Spec 2 §3 "Connection", §7.', responses: { 200: z.object({ connections: z.array(connectionSchema) }) } },
});
