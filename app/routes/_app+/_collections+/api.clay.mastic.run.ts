import type { ActionFunctionArgs } from "@remix-run/node";
import { COLLECTIONS_TEXTS as T, type MasticRunResponse } from "#api/collections";
import { masticRunSchema } from "#api/collections-schemas";
import { runMasticRequests } from "~/platform/clay.server";
import { resolveClayCredentials } from "~/models/collections.server";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { clayOperatorId, readClayBody } from "~/routes/_app+/_collections+/clay-api.server";

/** POST /api/clay/mastic/run {userID, password?, collectionId, numberOfRequests} (spec 2 §7). */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readClayBody(request, masticRunSchema);
  const creds = await resolveClayCredentials(await clayOperatorId(request), body);
  const outcome = await runMasticRequests(creds, body.collectionId, body.numberOfRequests);
  return Response.json({ success: true, ...outcome } satisfies MasticRunResponse);
}, T.masticFailed);

export const loader = apiRoute(() => methodNotAllowed(["POST"]));
