import type { ActionFunctionArgs } from "@remix-run/node";
import { COLLECTIONS_TEXTS as T, type SendGiftsResponse } from "#api/collections";
import { sendGiftsSchema } from "#api/collections-schemas";
import { sendGifts } from "~/platform/clay.server";
import { resolveClayCredentials } from "~/models/collections.server";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { clayOperatorId, readClayBody } from "~/routes/_app+/_collections+/clay-api.server";

/** POST /api/clay/gifts/send {userID, password?, receiverUserId, giftIdsToSend} (spec 2 §7). */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readClayBody(request, sendGiftsSchema);
  const creds = await resolveClayCredentials(await clayOperatorId(request), body);
  const { sent, message } = await sendGifts(creds, body.receiverUserId, body.giftIdsToSend);
  return Response.json({ success: true, sent, receiverUserId: body.receiverUserId, message } satisfies SendGiftsResponse);
}, T.sendFailed);

export const loader = apiRoute(() => methodNotAllowed(["POST"]));
