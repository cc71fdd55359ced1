import { documented } from "#api/openapi";
import { z } from "zod";
import { publicUserSchema } from "#api/responses";

/** The OpenAPI registration of api.users.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/users", "Characters", {
  GET: {
    summary: "Every character",
    description: 'Spec 2 §7 "Characters": every account, never passwords, recovery codes, `sek` or headers.',
    responses: { 200: z.object({ users: z.array(publicUserSchema) }) },
  },
});
