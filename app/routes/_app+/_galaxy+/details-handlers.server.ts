import {
  DETAIL_ERRORS,
  DETAIL_KINDS,
  GALAXY_ERRORS,
  collectionStatsBodySchema,
  credentialsSchema,
  isAccountId,
  skipCacheHeader,
  userAgentEntrySchema,
  userAgentMapSchema,
  userPicsBodySchema,
  type CollectionStatsResponse,
  type DetailKind,
  type GiftStatsResponse,
  type StatusResponse,
  type UserAgentResponse,
  type UserPicResponse,
  type UserPicsResponse,
} from "#api/galaxy";
import { logEvent } from "~/models/log.server";
import { getUserCredentials } from "~/models/user.server";
import { apiErrorResponse, jsonError, methodNotAllowed, readJson } from "~/http/api.server";
import { AppError } from "~/utils/app-error";
import { errorText } from "~/utils/errors";
import { GalaxyServiceError } from "~/galaxy/services-parse";
import type { GalaxyCredentials } from "~/galaxy/services.server";
import { getGalaxyServices } from "~/platform/galaxy-services.server";
import type { UserAgentInput } from "~/galaxy/user-agent";
import { registerUserAgents } from "~/models/user-agent.server";

/**
 * The handlers behind POST /api/user-details/* and POST /api/bowling-users/{gift-stats,
 * user-pic, status, collection-stats}/{id} and …/user-pics (spec 1 §7), and POST
 * /api/user-agent. Both prefixes share them, so the two families cannot drift apart.
 */

export function isDetailKind(kind: string | undefined): kind is DetailKind {
  return (DETAIL_KINDS as readonly string[]).includes(kind ?? "");
}

/** Answers a failed platform call: 502 with the spec's default text, logged without secrets. */
async function platformFailure(kind: DetailKind | "user-pics", err: unknown, context: Record<string, unknown>) {
  const known = err instanceof GalaxyServiceError;
  await logEvent({
    type: "error",
    source: "system",
    message: `${DETAIL_ERRORS[kind]}: ${known ? err.message : "unexpected error"}`,
    details: { ...context, call: kind, ...(known ? { kind: err.kind, action: err.action, status: err.status } : { error: String(err) }) },
  });
  return jsonError(known ? 502 : 500, DETAIL_ERRORS[kind]);
}

/** GET on these POST-only routes: 404 for an unknown kind (like any unknown path), else 405. */
export function detailLoader(kind: string | undefined) {
  if (!isDetailKind(kind)) return jsonError(404, GALAXY_ERRORS.unknownKind(kind ?? ""));
  return methodNotAllowed(["POST"]);
}

/** readJson and friends throw AppErrors; route modules and tests get their `{ error, message }` answers returned. */
async function respond(request: Request, fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError || err instanceof Response) return apiErrorResponse(err, request);
    throw err;
  }
}

/**
 * The credentials a detail call acts with: the body's `{userID, password}`, or for `{userID}`
 * alone the stored password of that account (getUserCredentials). An account we do not store,
 * sent without a password, is a 400 "password is required" (docs/accounts.md).
 */
async function resolveCredentials(body: { userID: string; password?: string | undefined }): Promise<GalaxyCredentials> {
  if (body.password) return { userID: body.userID, password: body.password };
  const stored = await getUserCredentials(body.userID);
  if (!stored) throw new AppError(400, GALAXY_ERRORS.badPassword);
  return { userID: body.userID, password: stored.password };
}

export function handleDetail(request: Request, kind: string | undefined, accountId: string | undefined): Promise<Response> {
  return respond(request, () => detail(request, kind, accountId));
}

async function detail(request: Request, kind: string | undefined, accountId: string | undefined): Promise<Response> {
  if (!isDetailKind(kind)) return jsonError(404, GALAXY_ERRORS.unknownKind(kind ?? ""));
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  if (!isAccountId(accountId)) return jsonError(400, GALAXY_ERRORS.badAccountId);

  const opts = { skipCache: skipCacheHeader(request.headers), signal: request.signal };
  const { collectionId, ...body } =
    kind === "collection-stats"
      ? await readJson(request, collectionStatsBodySchema)
      : { collectionId: undefined, ...(await readJson(request, credentialsSchema)) };
  const creds = await resolveCredentials(body);
  try {
    // Inside the try: a broken GALAXY_SERVICES_CONFIG file surfaces here as a logged failure.
    const services = getGalaxyServices();
    switch (kind) {
      case "gift-stats": {
        const stats = await services.giftStats(creds, accountId, opts);
        return Response.json({ stats } satisfies GiftStatsResponse);
      }
      case "user-pic": {
        const picUrl = await services.userPic(creds, accountId, opts);
        return Response.json({ picUrl } satisfies UserPicResponse);
      }
      case "status": {
        const status = await services.status(creds, accountId, opts);
        return Response.json(status satisfies StatusResponse);
      }
      case "collection-stats": {
        if (collectionId !== undefined && !(String(collectionId) in services.config.undocumented.collectionStats.collections)) {
          return jsonError(400, GALAXY_ERRORS.badCollection);
        }
        const stats = await services.collectionStats(creds, accountId, collectionId, opts);
        return Response.json({ stats } satisfies CollectionStatsResponse);
      }
    }
  } catch (err) {
    return platformFailure(kind, err, { accountId, userID: body.userID, ...(collectionId ? { collectionId } : {}) });
  }
}

export function handleUserPics(request: Request): Promise<Response> {
  return respond(request, () => userPics(request));
}

async function userPics(request: Request): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJson(request, userPicsBodySchema);
  const creds = await resolveCredentials(body);
  try {
    const services = getGalaxyServices();
    const pics = await services.userPics(creds, body.userIds, {
      skipCache: skipCacheHeader(request.headers),
      signal: request.signal,
    });
    return Response.json({ pics } satisfies UserPicsResponse);
  } catch (err) {
    return platformFailure("user-pics", err, { userID: body.userID, count: body.userIds.length });
  }
}

/**
 * POST /api/user-agent: stores each account's user-agent record. Entries without headers,
 * with unparsable headers, or under a key that is no account id are skipped and logged
 * (spec 1 §5); the others are stored in one transaction.
 */
export function handleUserAgents(request: Request): Promise<Response> {
  return respond(request, () => userAgents(request));
}

async function userAgents(request: Request): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const map = await readJson(request, userAgentMapSchema);
  const accepted: Record<string, UserAgentInput> = {};
  const invalid: Array<{ id: string; reason: string }> = [];
  for (const [key, value] of Object.entries(map)) {
    const id: string = key;
    if (!isAccountId(key)) {
      invalid.push({ id: id.slice(0, 40), reason: "not an account id" });
      continue;
    }
    const entry = userAgentEntrySchema.safeParse(value);
    if (!entry.success || value === null || typeof value !== "object") {
      invalid.push({ id, reason: "not a user-agent record" });
      continue;
    }
    accepted[id] = entry.data;
  }
  try {
    const result = await registerUserAgents(accepted);
    const skipped = [...invalid, ...result.skipped];
    for (const s of skipped) {
      await logEvent({
        type: s.reason === "no iHeaders" ? "info" : "error",
        source: "system",
        message: `User agent of ${s.id} skipped: ${s.reason}`,
        details: { accountId: s.id, reason: s.reason },
      });
    }
    return Response.json({ success: true, registered: result.registered, skipped } satisfies UserAgentResponse);
  } catch (err) {
    await logEvent({ type: "error", source: "system", message: `${GALAXY_ERRORS.setUserAgents}: ${errorText(err)}` });
    return jsonError(500, GALAXY_ERRORS.setUserAgents);
  }
}
