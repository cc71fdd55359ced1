import { logsQuerySchema } from "#api/logs-query";
import { documented } from "#api/openapi";
import { z } from "zod";
import { logSchema } from "#api/responses";

/** The OpenAPI registration of api.logs.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/logs", "Logs", {
  GET: {
    summary: "System Logs",
    description: 'Spec 2 §7 "Logs": newest first, optionally of one type, source or account, cleared or not.',
    query: logsQuerySchema,
    responses: { 200: z.object({ logs: z.array(logSchema) }) },
  },
});
