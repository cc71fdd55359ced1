import { documented } from "#api/openapi";
import { bowlingUsersSchema } from "#api/responses";

/** The OpenAPI registration of api.bowling-users.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bowling-users", "Bowling", {
  GET: {
    summary: "Bowling accounts and candidates",
    description: 'Spec 1 §7 "Bowling users": the bowling-type accounts (never passwords or codes), with the accounts that may be recipients and suppliers.',
    responses: { 200: bowlingUsersSchema },
  },
});
