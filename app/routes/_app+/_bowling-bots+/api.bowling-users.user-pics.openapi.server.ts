import { documented } from "#api/openapi";
import { userPicsBodySchema } from "#api/galaxy";
import { userPicsSchema } from "#api/responses";

/** The OpenAPI registration of api.bowling-users.user-pics.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bowling-users/user-pics", "Bowling", {
  POST: {
    summary: "Pictures of several accounts",
    description: "Spec 1 §7: `pics` maps each asked id to its picture URL (null when it has none).",
    body: userPicsBodySchema,
    example: { userID: "11111111", password: "secret", userIds: ["33333333"] },
    responses: { 200: userPicsSchema },
    errors: { 502: "The Galaxy platform refused or failed the call" },
  },
});
