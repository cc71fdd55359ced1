import { sendGiftsSchema } from "#api/collections-schemas";
import { documented } from "#api/openapi";
import { sendGiftsResultSchema } from "#api/responses";

/** The OpenAPI registration of api.clay.gifts.send.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/clay/gifts/send", "Collections", {
  POST: {
    summary: "Send gifts",
    description: 'Spec 2 §7 "Collections": sends the listed gifts to `receiverUserId`. `password` may be left out for the signed-in operator\'s saved account.',
    body: sendGiftsSchema,
    example: { userID: "11111111", password: "secret", receiverUserId: "33333333", giftIdsToSend: ["1"] },
    responses: { 200: sendGiftsResultSchema },
    errors: { 429: "Too many calls for this account; try again shortly", 502: "The Galaxy platform refused or failed the call" },
  },
});
