import type { ActionFunctionArgs } from "@remix-run/node";
import { COLLECTIONS_TEXTS as T, DEFAULT_COLLECTION_SET, type InventoryResponse } from "#api/collections";
import { inventorySchema } from "#api/collections-schemas";
import { giftInventory } from "~/platform/clay.server";
import { resolveClayCredentials } from "~/models/collections.server";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { clayOperatorId, readClayBody } from "~/routes/_app+/_collections+/clay-api.server";

/** POST /api/clay/gifts/inventory {userID, password?, collectionId?} → {giftIds} (spec 2 §7). */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readClayBody(request, inventorySchema);
  const creds = await resolveClayCredentials(await clayOperatorId(request), body);
  const giftIds = await giftInventory(creds, body.collectionId ?? DEFAULT_COLLECTION_SET);
  return Response.json({ giftIds } satisfies InventoryResponse);
}, T.inventoryFailed);

export const loader = apiRoute(() => methodNotAllowed(["POST"]));
