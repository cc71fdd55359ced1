import type { ActionFunctionArgs } from "@remix-run/node";
import { COLLECTIONS_TEXTS as T, type MasticRunResponse } from "#api/collections";
import { masticRunSchema } from "#api/collections-schemas";
import { runMasticRequests } from "~/galaxy/clay.server";
import { resolveClayCredentials } from "~/models/collections.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { clayOperatorId, readClayBody } from "~/routes/_app+/_collections+/clay-api.server";
import { documented } from "#api/openapi";
import { masticRunResultSchema } from "#api/responses";

/** POST /api/clay/mastic/run {userID, password?, collectionId, numberOfRequests} (spec 2 §7). */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readClayBody(request, masticRunSchema);
  const creds = await resolveClayCredentials(await clayOperatorId(request), body);
  const outcome = await runMasticRequests(creds, body.collectionId, body.numberOfRequests);
  return Response.json({ success: true, ...outcome } satisfies MasticRunResponse);
}, T.masticFailed);

export const loader = apiRoute(() => methodNotAllowed(["POST"]));

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
