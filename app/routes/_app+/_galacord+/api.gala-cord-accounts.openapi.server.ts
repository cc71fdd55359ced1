import { documented } from "#api/openapi";
import { z } from "zod";
import { savedAccountSchema } from "#api/responses";

/** The OpenAPI registration of api.gala-cord-accounts.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/gala-cord-accounts", "GalaCord", {
  GET: {
    summary: "Saved relay accounts",
    description: 'Spec 2 §3 "Saved account", §7: never the recovery code.',
    responses: { 200: z.array(savedAccountSchema) },
  },
});
