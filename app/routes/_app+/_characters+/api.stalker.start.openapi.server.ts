import { stalkerBodySchema } from "#api/accounts";
import { documented } from "#api/openapi";
import { z } from "zod";
import { stalkerSchema } from "#api/responses";

/** The OpenAPI registration of api.stalker.start.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
const stalkerAnswer = z.object({ success: z.literal(true), message: z.string(), stalker: stalkerSchema });

export const openapi = documented("/api/stalker/start", "Characters", {
  POST: {
    summary: "Start a stalker",
    description:
      'Spec 2 §7, §4 "Stalker": 200 when it is active already, 202 while it connects. `takeover: true` takes the account from another purpose (else 409 naming the holder).',
    body: stalkerBodySchema,
    example: { account_id: "11111111" },
    responses: { 200: stalkerAnswer, 202: stalkerAnswer },
    errors: {
      404: "User not found",
      409: "Another purpose holds the account (`holder`); send `takeover: true`",
      502: "The platform refused the login (the body also has `stalker`)",
    },
  },
});
