import type { ActionFunctionArgs } from "@remix-run/node";
import { COLLECTIONS_TEXTS as T, isCollectionSetId, type CollectionStatusResponse } from "#api/collections";
import { clayCredentialsSchema } from "#api/collections-schemas";
import { skipCacheHeader } from "#api/galaxy";
import { collectionStatus } from "~/platform/clay.server";
import { resolveClayCredentials } from "~/models/collections.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/http/api.server";
import { clayOperatorId, readClayBody } from "~/routes/_app+/_collections+/clay-api.server";

/**
 * POST /api/clay/collection/{id}/status {userID, password?} with X-Skip-Cache: true →
 * {status: {firstRow, secondRow}} (spec 2 §7). An id other than 161 or 178 is a 404.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const id = params.id ?? "";
  if (!/^\d{1,6}$/.test(id) || !isCollectionSetId(Number(id))) return jsonError(404, T.badSet);
  const body = await readClayBody(request, clayCredentialsSchema);
  const creds = await resolveClayCredentials(await clayOperatorId(request), body);
  const status = await collectionStatus(creds, Number(id) as 161 | 178, { skipCache: skipCacheHeader(request.headers) });
  return Response.json({ status } satisfies CollectionStatusResponse);
}, T.statusFailed);

export const loader = apiRoute(() => methodNotAllowed(["POST"]));
