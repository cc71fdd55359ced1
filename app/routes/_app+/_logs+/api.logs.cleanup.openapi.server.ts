import { documented } from "#api/openapi";
import { z } from "zod";

/** The OpenAPI registration of api.logs.cleanup.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/logs/cleanup", "Logs", {
  DELETE: {
    summary: "Clean up old log entries",
    description: 'Spec 2 §7 "Logs": `message` is "Deleted N log entries".',
    responses: { 200: z.object({ message: z.string(), deletedCount: z.number().int() }) },
  },
});
