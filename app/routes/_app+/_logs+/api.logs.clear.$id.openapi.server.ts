import { documented } from "#api/openapi";
import { z } from "zod";
import { logSchema } from "#api/responses";

/** The OpenAPI registration of api.logs.clear.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/logs/clear/{id}", "Logs", {
  POST: {
    summary: "Clear a log entry",
    description: 'Spec 2 §7 "Logs": marks the entry cleared.',
    params: z.object({ id: z.string().describe("The entry's `_id` (a UUID)") }),
    responses: { 200: z.object({ success: z.literal(true), log: logSchema }) },
    errors: { 404: "Log entry not found" },
  },
});
