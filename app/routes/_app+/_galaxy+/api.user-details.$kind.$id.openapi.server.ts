import { documented } from "#api/openapi";
import { z } from "zod";
import { collectionStatsBodySchema, DETAIL_KINDS } from "#api/galaxy";
import { userDetailsSchema } from "#api/responses";

/** The OpenAPI registration of api.user-details.$kind.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/user-details/{kind}/{id}", "Galaxy", {
  POST: {
    summary: "One detail of an account, from the platform",
    description:
      "Spec 1 §7: `gift-stats` → `{stats}`, `user-pic` → `{picUrl}`, `status` → `{isOnline, room}`, `collection-stats` → `{stats: {firstRow, secondRow}}` " +
      "(it alone takes `collectionId`: 151, 161 or 178). Credentials: the body's `userID` and `password`, or `userID` alone for a stored account. " +
      "Header `X-Skip-Cache: true` asks for a fresh platform call.",
    params: z.object({ kind: z.enum(DETAIL_KINDS).describe("Which detail"), id: z.string().describe("The Galaxy account id to read") }),
    body: collectionStatsBodySchema,
    example: { userID: "11111111", password: "secret" },
    responses: { 200: userDetailsSchema },
    errors: { 404: "Unknown kind", 502: "The Galaxy platform refused or failed the call" },
  },
});
