import { documented } from "#api/openapi";
import { userAgentMapSchema } from "#api/galaxy";
import { userAgentSchema } from "#api/responses";

/** The OpenAPI registration of api.user-agent.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/user-agent", "Galaxy", {
  POST: {
    summary: "Register accounts' user agents",
    description:
      "Spec 1 §7: a map of account id → `{headers, sek, device, id, nick}`. Entries without or with unparsable headers are skipped and logged (spec 1 §5). " +
      "`sek` is stored, never sent back or logged.",
    body: userAgentMapSchema,
    example: { "33333333": { headers: { "X-Galaxy-Platform": "web" }, device: "web", nick: "Kazensar" } },
    responses: { 200: userAgentSchema },
  },
});
