import { stalkerBodySchema } from "#api/accounts";
import { documented } from "#api/openapi";
import { z } from "zod";
import { stalkerSchema } from "#api/responses";

/** The OpenAPI registration of api.stalker.stop.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/stalker/stop", "Characters", {
  POST: {
    summary: "Stop a stalker",
    description: 'Spec 2 §7, §4 "Stalker": marks it stopped and inactive; `stalker` is null when it never ran.',
    body: stalkerBodySchema,
    example: { account_id: "11111111" },
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), stalker: stalkerSchema.nullable() }) },
    errors: { 404: "User not found" },
  },
});
