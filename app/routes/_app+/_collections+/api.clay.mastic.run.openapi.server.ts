import { masticRunSchema } from "#api/collections-schemas";
import { documented } from "#api/openapi";
import { masticRunResultSchema } from "#api/responses";

/** The OpenAPI registration of api.clay.mastic.run.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/clay/mastic/run", "Collections", {
  POST: {
    summary: "Run mastic requests",
    description:
      'Spec 2 §7 "Collections": sends `numberOfRequests` mastic requests for the collection. `password` may be left out for the signed-in operator\'s saved account.',
    body: masticRunSchema,
    example: { userID: "11111111", password: "secret", collectionId: 178, numberOfRequests: 1 },
    responses: { 200: masticRunResultSchema },
    errors: { 429: "Too many calls for this account; try again shortly", 502: "The Galaxy platform refused or failed the call" },
  },
});
