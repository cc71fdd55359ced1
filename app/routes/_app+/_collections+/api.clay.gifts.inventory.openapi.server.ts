import { inventorySchema } from "#api/collections-schemas";
import { documented } from "#api/openapi";
import { inventoryResultSchema } from "#api/responses";

/** The OpenAPI registration of api.clay.gifts.inventory.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/clay/gifts/inventory", "Collections", {
  POST: {
    summary: "Gifts in stock",
    description:
      "Spec 2 §7 \"Collections\": the ids of the account's gifts (of one collection when `collectionId` is given). `password` may be left out for the signed-in operator's saved account.",
    body: inventorySchema,
    example: { userID: "11111111", password: "secret", collectionId: 178 },
    responses: { 200: inventoryResultSchema },
    errors: { 429: "Too many calls for this account; try again shortly", 502: "The Galaxy platform refused or failed the call" },
  },
});
