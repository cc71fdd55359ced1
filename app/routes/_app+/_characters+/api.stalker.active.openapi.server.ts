import { documented } from "#api/openapi";
import { stalkerActiveSchema } from "#api/responses";

/** The OpenAPI registration of api.stalker.active.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/stalker/active", "Characters", {
  GET: {
    summary: "Stalkers connecting or active",
    description: "Spec 2 §7: `connections` are the account ids of stalkers connecting or active.",
    responses: { 200: stalkerActiveSchema },
  },
});
