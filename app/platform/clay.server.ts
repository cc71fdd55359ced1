import { COLLECTIONS_LIMITS, COLLECTIONS_TEXTS as T, collectionSetName, type CollectionSetId } from "#api/collections";
import type { CollectionItemDto } from "#api/galaxy";
import { GalaxyServiceError } from "~/galaxy/services-parse";
import type { GalaxyCredentials } from "~/galaxy/services.server";
import { getGalaxyServices } from "~/platform/galaxy-services.server";
import { collectionsTimings } from "~/models/clay.server";
import { logEvent } from "~/models/log.server";
import { AppError } from "~/utils/app-error";
import { pause } from "~/utils/pause";

/**
 * The Collections platform operations (spec 2 §7 "Collections"; galaxy-runtime.md §3.3), shared
 * by the /api/clay/* routes, the screen's actions and the automation cycle. Every failure is a
 * AppError (app/utils/app-error.ts) with the status and the text the caller answers with;
 * nothing is moved unless the whole operation is valid.
 */

async function failure(text: string, err: unknown, context: Record<string, unknown>): Promise<AppError> {
  if (err instanceof AppError) return err;
  const known = err instanceof GalaxyServiceError;
  await logEvent({
    type: "error",
    source: "system",
    message: `${text}: ${known ? err.message : "unexpected error"}`,
    details: { ...context, ...(known ? { kind: err.kind, action: err.action, status: err.status } : { error: String(err) }) },
  }).catch(() => {});
  return new AppError(known && err.kind === "auth" ? 400 : 502, known && err.kind === "auth" ? `${text}: wrong user ID or password` : text);
}

export type MasticOutcome = { collectionId: number; requested: number; succeeded: number; message: string };

/**
 * POST /api/clay/mastic/run: `n` mastic requests, `masticPacingMs` apart. Fails (502 "Failed to
 * run mastic requests") when the platform refuses the account, the first call fails, or none
 * of the requests succeeded.
 */
export async function runMasticRequests(
  creds: GalaxyCredentials,
  collectionId: CollectionSetId,
  n: number = COLLECTIONS_LIMITS.masticRequests,
  opts: { signal?: AbortSignal } = {},
): Promise<MasticOutcome> {
  const services = getGalaxyServices();
  const t = collectionsTimings();
  let succeeded = 0;
  let lastError: unknown = null;
  for (let i = 0; i < n; i++) {
    if (opts.signal?.aborted) break;
    if (i > 0) await pause(t.masticPacingMs, opts.signal);
    try {
      const result = await services.runMastic(creds, collectionId);
      if (result.success) succeeded++;
    } catch (err) {
      lastError = err;
      // A refused account or an unreachable platform will not get better within this run.
      if (err instanceof GalaxyServiceError && ["auth", "network", "timeout"].includes(err.kind)) break;
    }
  }
  // Aborted (an Auto cycle's worker closing): the caller records the run as interrupted.
  opts.signal?.throwIfAborted();
  if (succeeded === 0) throw await failure(T.masticFailed, lastError, { call: "mastic", userID: creds.userID, collectionId, requested: n });
  return { collectionId, requested: n, succeeded, message: T.masticOk };
}

type Row = CollectionItemDto;

/** POST /api/clay/collection/{id}/status: the 16 items of the set for the account itself. */
export async function collectionStatus(
  creds: GalaxyCredentials,
  collectionId: CollectionSetId,
  opts: { skipCache?: boolean } = {},
): Promise<{ firstRow: Row[]; secondRow: Row[] }> {
  try {
    const stats = await getGalaxyServices().collectionStats(creds, creds.userID, collectionId, { skipCache: opts.skipCache });
    return { firstRow: stats.firstRow, secondRow: stats.secondRow };
  } catch (err) {
    throw await failure(T.statusFailed, err, { call: "collection-status", userID: creds.userID, collectionId });
  }
}

/**
 * The inventory items that are pieces of the set (galaxy-runtime.md §3.3): matched by goodsID
 * against the set's 16 item definitions (read from its status), by name as a fallback.
 */
async function setPieces(creds: GalaxyCredentials, collectionId: CollectionSetId): Promise<string[]> {
  const services = getGalaxyServices();
  const [items, stats] = await Promise.all([
    services.inventory(creds, { skipCache: true }),
    services.collectionStats(creds, creds.userID, collectionId).catch(() => null),
  ]);
  const goods = new Set([...(stats?.firstRow ?? []), ...(stats?.secondRow ?? [])].flatMap((r) => (r.goodsID === null ? [] : [String(r.goodsID)])));
  const name = collectionSetName(collectionId).toLowerCase();
  return items.filter((i) => (i.goodsId ? goods.has(i.goodsId) : i.name.toLowerCase().startsWith(name))).map((i) => i.goodId);
}

/** POST /api/clay/gifts/inventory: the ids of the set's pieces the account holds (always a fresh read). */
export async function giftInventory(creds: GalaxyCredentials, collectionId: CollectionSetId): Promise<string[]> {
  try {
    return await setPieces(creds, collectionId);
  } catch (err) {
    throw await failure(T.inventoryFailed, err, { call: "gift-inventory", userID: creds.userID, collectionId });
  }
}

/** The ids of `ids` the account holds now (a fresh inventory read; any item, not only set pieces). */
export async function heldOf(creds: GalaxyCredentials, ids: string[]): Promise<string[]> {
  const items = await getGalaxyServices().inventory(creds, { skipCache: true });
  const held = new Set(items.map((i) => i.goodId));
  return ids.filter((id) => held.has(id));
}

/**
 * POST /api/clay/gifts/send: checks that every id is held (a fresh inventory read; else 400,
 * nothing sent), then sends in chunks of 50, 2 s apart. `onChunk` runs before each chunk's
 * call (the automation records its intent there).
 */
export async function sendGifts(
  creds: GalaxyCredentials,
  receiverUserId: string,
  giftIds: string[],
  opts: { signal?: AbortSignal; verified?: boolean } = {},
): Promise<{ sent: number; message: string }> {
  if (receiverUserId === creds.userID) throw new AppError(400, T.selfRecipient);
  if (!giftIds.length) throw new AppError(400, T.noGifts);
  const services = getGalaxyServices();
  const t = collectionsTimings();
  let sent = 0;
  let reread = false;
  try {
    if (!opts.verified) {
      const held = await heldOf(creds, giftIds);
      if (held.length !== giftIds.length) throw new AppError(400, T.notHeld);
    }
    for (let i = 0; i < giftIds.length; i += COLLECTIONS_LIMITS.sendChunk) {
      if (i > 0) await pause(t.sendChunkGapMs, opts.signal);
      const chunk = giftIds.slice(i, i + COLLECTIONS_LIMITS.sendChunk);
      // Held: checked just above (or by the caller). The answer alone confirms nothing (issue 34).
      const out = await services.sendGifts(creds, receiverUserId, chunk, { held: true });
      sent += out.sent;
      if (out.confirmedBy === "inventory") reread = true;
    }
  } catch (err) {
    if (sent > 0 && !(err instanceof AppError)) {
      // Part of the gifts went: say so instead of pretending nothing moved.
      await failure(T.sendFailed, err, { call: "send-gifts", userID: creds.userID, receiverUserId, sent });
      throw new AppError(502, `${T.sendFailed} (${T.sent(sent, receiverUserId)} before the failure)`);
    }
    throw await failure(T.sendFailed, err, { call: "send-gifts", userID: creds.userID, receiverUserId, count: giftIds.length });
  }
  return { sent, message: reread ? `${T.sent(sent, receiverUserId)} (${T.confirmedByReread})` : T.sent(sent, receiverUserId) };
}
