import { documented } from "#api/openapi";
import { z } from "zod";
import { collectionStatsBodySchema } from "#api/galaxy";
import { collectionStatsSchema } from "#api/responses";

/** The OpenAPI registration of api.bowling-users.collection-stats.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bowling-users/collection-stats/{id}", "Bowling", {
  POST: {
    summary: "An account's collection statistics",
    description:
      "Spec 1 §7: the same call as `POST /api/user-details/collection-stats/{id}`, read from the Galaxy platform with the body's credentials " +
      "(`userID` alone: that stored account's password). Header `X-Skip-Cache: true` asks for a fresh platform call.",
    params: z.object({ id: z.string().describe("The Galaxy account id to read") }),
    body: collectionStatsBodySchema,
    example: { userID: "11111111", password: "secret", collectionId: 178 },
    responses: { 200: collectionStatsSchema },
    errors: { 502: "The Galaxy platform refused or failed the call" },
  },
});
