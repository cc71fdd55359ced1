import { z } from "zod";
import { collectionStatsBodySchema, credentialsSchema } from "#api/galaxy";
import { documented, type Answer } from "#api/openapi";
import { collectionStatsSchema, giftStatsSchema, onlineStatusSchema, userPicSchema } from "#api/responses";

/**
 * The OpenAPI registration of api.user-details.$kind.$id.ts (issue 33; docs/api.md): one path
 * per kind, as spec 1 §7 and spec 2 §7 name them (`POST /api/user-details/user-pic/{accountId}`),
 * each with its own body and answer.
 */
const detail = (kind: string, summary: string, answer: Answer, body: z.ZodType, example: unknown) =>
  documented(`/api/user-details/${kind}/{id}`, "Galaxy", {
    POST: {
      summary,
      description:
        'Spec 1 §7 ("The same four exist under /api/user-details/..."), spec 2 §7: read from the Galaxy platform with the body\'s `userID` and `password` ' +
        "(`userID` alone: that stored account's password). Header `X-Skip-Cache: true` asks for a fresh platform call.",
      params: z.object({ id: z.string().describe("The Galaxy account id to read") }),
      body,
      example,
      responses: { 200: answer },
      errors: { 502: "The Galaxy platform refused or failed the call" },
    },
  });

const creds = { userID: "11111111", password: "secret" };

export const openapi = [
  detail("gift-stats", "Gift statistics of an account", giftStatsSchema, credentialsSchema, creds),
  detail("user-pic", "An account's picture", userPicSchema, credentialsSchema, creds),
  detail("status", "Whether an account is online, and where", onlineStatusSchema, credentialsSchema, creds),
  detail("collection-stats", "An account's collection statistics (`collectionId`: 151, 161 or 178)", collectionStatsSchema, collectionStatsBodySchema, {
    ...creds,
    collectionId: 178,
  }),
];
