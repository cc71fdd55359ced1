import { createCredsSchema } from "#api/accounts";
import { documented } from "#api/openapi";
import { z } from "zod";
import { publicUserSchema } from "#api/responses";

/** The OpenAPI registration of api.create-creds.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/create-creds", "Characters", {
  POST: {
    summary: "Add a character from its recovery code",
    description: 'Spec 2 §7 "Characters": logs in with the recovery code `rc` and saves the account with its `type`. The code is never sent back.',
    body: createCredsSchema,
    example: { rc: "ABCD1234", type: "bowling" },
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), user: publicUserSchema }) },
    errors: { 409: "Another purpose holds the account (`holder`); send `takeover: true`", 502: "The Galaxy platform refused the code or failed" },
  },
});
