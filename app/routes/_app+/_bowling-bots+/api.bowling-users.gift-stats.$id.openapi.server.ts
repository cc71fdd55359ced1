import { documented } from "#api/openapi";
import { z } from "zod";
import { credentialsSchema } from "#api/galaxy";
import { giftStatsSchema } from "#api/responses";

/** The OpenAPI registration of api.bowling-users.gift-stats.$id.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bowling-users/gift-stats/{id}", "Bowling", {
  POST: {
    summary: "Gift statistics of an account",
    description:
      "Spec 1 §7: the same call as `POST /api/user-details/gift-stats/{id}`, read from the Galaxy platform with the body's credentials " +
      "(`userID` alone: that stored account's password). Header `X-Skip-Cache: true` asks for a fresh platform call.",
    params: z.object({ id: z.string().describe("The Galaxy account id to read") }),
    body: credentialsSchema,
    example: { userID: "11111111", password: "secret" },
    responses: { 200: giftStatsSchema },
    errors: { 502: "The Galaxy platform refused or failed the call" },
  },
});
