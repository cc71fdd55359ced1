/**
 * Processors of the characters details (spec 2 §4 "Stalker"; docs/accounts.md):
 *
 *  - `status-refresh` / "statuses": online status and room of every user, every 5 minutes
 *    while a user is selected (the `characters-statuses` scheduler). A status a stalker saw
 *    in the last 5 minutes is kept instead of an HTTP call unless forced (galaxy-runtime.md
 *    §1.3 item 3).
 *  - `bulk-refresh` / "refresh": section "characters" loads pictures (one batched
 *    user_pics call), statuses and gift stats of every user, with the skip-cache flag of a
 *    manual Refresh, and writes progress any process can render. Section "bowling" is the
 *    Bowling Bots refresh (jobs/processors/bowling.ts).
 *
 * Game-service calls act with the selected user's credentials, else the first user's (spec 2
 * §6). Concurrency is bounded by the services client (semaphore, per-account token bucket).
 * Per-user failures are recorded on the row with the platform's reason (the last known value
 * stays, shown stale), never fail the job. The manual Refresh ends with an outcome (success,
 * partial naming the users that failed, failure when all did) in its progress row; every
 * progress write and the end of a status refresh are published as `refresh:characters`.
 */
import { alertRefreshOutcome } from "~/models/alert.server";
import { UnrecoverableError, type Job } from "bullmq";
import type { GiftStatDto } from "#api/galaxy";
import type { GalaxyCredentials } from "~/galaxy/services.server";
import { getGalaxyServices } from "~/platform/galaxy-services.server";
import { actingCredentials, freshStalkerStatuses, saveCharacterDetails, type DetailPart, type DetailsPatch } from "~/models/character-details.server";
import { logEvent } from "~/models/log.server";
import { startingProgress } from "~/models/refresh-progress.server";
import { listUsers } from "~/models/user.server";
import { errorText } from "~/utils/errors";
import { commonReason, MAX_FAILED_STORED, outcomeOf, type FailedAccount } from "~/utils/refresh-outcome";
import { publishLive } from "../../app/queue/live.server";
import type { BulkRefreshJob, StatusRefreshJob } from "../../app/queue/queues.server";
import { processBowlingRefreshJob } from "./bowling";
import { refreshProgressWriter } from "./refresh-progress";
import { isWorkerClosing } from "../closing.server";

/** A stalker's sighting younger than this replaces the HTTP status call. */
export const STALKER_STATUS_FRESH_MS = 5 * 60_000;

export type RefreshParts = { pictures: boolean; statuses: boolean; gifts: boolean };
export type RefreshResult = {
  total: number;
  done: number;
  /** Users whose status or gift stats call failed. */
  failed: number;
  skippedStatuses: number;
  /** The users that failed (at most MAX_FAILED_STORED), by nick. */
  failedAccounts: FailedAccount[];
  /** The most common failure text, in the platform's words. */
  reason: string | null;
  /** The batched pictures call failed (every user keeps its picture, stale): its reason. */
  picturesFailed: string | null;
};

/**
 * Loads the chosen parts for every user and writes one character_details row per user.
 * `onProgress` gets the running figures (throttled by the caller).
 */
export async function refreshCharacters(options: {
  actingAccountId?: string | null;
  /** Only these users (absent: every user). */
  accountIds?: string[];
  force: boolean;
  parts: RefreshParts;
  onProgress?: (p: { done: number; total: number; failed: number; failedAccounts: FailedAccount[] }) => void;
  /**
   * A worker closing (jobs/closing.server.ts): the calls still waiting are given up, no row is
   * written with their "aborted", and the refresh ends with the signal's reason (its job runs again).
   */
  closing?: AbortSignal | undefined;
}): Promise<RefreshResult> {
  const closing = options.closing;
  const only = options.accountIds ? new Set(options.accountIds) : null;
  const users = (await listUsers()).filter((u) => !only || only.has(u.account_id));
  const total = users.length;
  const result: RefreshResult = { total, done: 0, failed: 0, skippedStatuses: 0, failedAccounts: [], reason: null, picturesFailed: null };
  if (!total) return result;
  const acting = await actingCredentials(options.actingAccountId);
  if (!acting) return result;
  const creds: GalaxyCredentials = { userID: acting.accountId, password: acting.password };
  const services = getGalaxyServices();
  const opts = { skipCache: options.force, ...(closing ? { signal: closing } : {}) };
  const ids = users.map((u) => u.account_id);
  const nickOf = new Map(users.map((u) => [u.account_id, u.nick]));
  const reasons: string[] = [];
  options.onProgress?.({ done: 0, total, failed: 0, failedAccounts: [] });

  const pics: Promise<Record<string, string | null> | null> = options.parts.pictures
    ? services.userPics(creds, ids, opts).catch(async (err: unknown) => {
        if (closing?.aborted) return null;
        result.picturesFailed = errorText(err);
        await logEvent({ type: "error", source: "system", message: `Loading character pictures failed: ${result.picturesFailed}` });
        return null;
      })
    : Promise.resolve(null);
  const fresh = options.parts.statuses && !options.force ? await freshStalkerStatuses(STALKER_STATUS_FRESH_MS) : new Set<string>();

  await Promise.all(
    ids.map(async (id) => {
      const patch: DetailsPatch = {};
      const failed: Partial<Record<DetailPart, string>> = {};
      // The stored value stays; the row shows it stale with this reason (CONVENTIONS rule 17).
      const fail = (part: DetailPart) => (err: unknown) => void (failed[part] = errorText(err));
      const statusTask =
        options.parts.statuses && !fresh.has(id)
          ? services.status(creds, id, opts).then((s) => void (patch.status = { isOnline: s.isOnline, room: s.room, source: "service" }), fail("status"))
          : Promise.resolve();
      if (options.parts.statuses && fresh.has(id)) result.skippedStatuses++;
      const giftsTask = options.parts.gifts
        ? services.giftStats(creds, id, opts).then((g: GiftStatDto[]) => void (patch.gifts = g), fail("gifts"))
        : Promise.resolve();
      await Promise.all([statusTask, giftsTask]);
      if (closing?.aborted) return;
      const userFailed = Object.keys(failed).length > 0;
      const picMap = await pics;
      if (closing?.aborted) return;
      if (picMap && id in picMap) patch.picUrl = picMap[id] ?? null;
      else if (options.parts.pictures && result.picturesFailed) failed.pic = result.picturesFailed;
      if (Object.keys(failed).length) patch.failed = failed;
      if (Object.keys(patch).length) await saveCharacterDetails(id, patch);
      result.done++;
      if (userFailed) {
        result.failed++;
        if (result.failedAccounts.length < MAX_FAILED_STORED) result.failedAccounts.push({ accountId: id, nick: nickOf.get(id) ?? id });
        reasons.push(...Object.values(failed).filter((r): r is string => r !== undefined));
      }
      options.onProgress?.({ done: result.done, total, failed: result.failed, failedAccounts: [...result.failedAccounts] });
    }),
  );
  closing?.throwIfAborted();
  result.reason = commonReason(reasons) ?? result.picturesFailed;
  return result;
}

export async function processStatusRefreshJob(
  job: Job<StatusRefreshJob>,
  _token?: string,
  _signal?: AbortSignal,
  closing?: AbortSignal,
): Promise<RefreshResult> {
  if (job.name !== "statuses") throw new UnrecoverableError(`Unknown status-refresh job "${job.name}"`);
  const result = await refreshCharacters({
    closing,
    actingAccountId: job.data.actingAccountId,
    ...(job.data.accountIds ? { accountIds: job.data.accountIds } : {}),
    force: job.data.force,
    parts: { pictures: !!job.data.everything, statuses: true, gifts: !!job.data.everything },
  });
  // The rows changed: open All Characters and Bowling Bots pages revalidate.
  if (result.done) publishLive("refresh", { scope: "characters", key: "statuses" });
  return result;
}

export async function processBulkRefreshJob(job: Job<BulkRefreshJob>, _token?: string, _signal?: AbortSignal, closing?: AbortSignal): Promise<unknown> {
  if (job.name !== "refresh") throw new UnrecoverableError(`Unknown bulk-refresh job "${job.name}"`);
  switch (job.data.section) {
    case "characters":
      return refreshCharactersWithProgress(job, closing);
    case "bowling":
      return processBowlingRefreshJob(job, closing);
    default:
      throw new UnrecoverableError(`Bulk refresh of section "${String(job.data.section)}" is not built yet`);
  }
}

async function refreshCharactersWithProgress(job: Job<BulkRefreshJob>, closing?: AbortSignal): Promise<RefreshResult> {
  const data = job.data;
  const progress = refreshProgressWriter("characters", startingProgress(data.requestedAt));
  try {
    const result = await refreshCharacters({
      actingAccountId: data.actingAccountId ?? null,
      force: data.skipCache,
      parts: { pictures: true, statuses: true, gifts: true },
      onProgress: (p) => progress.update(p),
      closing,
    });
    const outcome = outcomeOf({ total: result.total, failed: result.failed, sharedFailure: result.picturesFailed !== null });
    await alertRefreshOutcome("characters", result);
    if (outcome !== "success") {
      await logEvent({
        type: "error",
        source: "system",
        message:
          outcome === "failure"
            ? `Characters refresh failed: all ${result.total} users failed${result.reason ? `: ${result.reason}` : ""}`
            : `Characters refresh: calls failed for ${result.failed} of ${result.total} users`,
        details: { failedAccounts: result.failedAccounts, reason: result.reason, picturesFailed: result.picturesFailed },
      });
    }
    await progress.end({
      running: false,
      done: result.done,
      total: result.total,
      failed: result.failed,
      failedAccounts: result.failedAccounts,
      reason: result.reason,
      finishedAt: new Date().toISOString(),
      outcome,
    });
    return result;
  } catch (err) {
    // Until the last attempt the refresh still counts as running (BullMQ retries it); a closing
    // worker's refresh runs again from the start (jobs/closing.server.ts).
    const final = !isWorkerClosing(err) && job.attemptsMade + 1 >= (job.opts?.attempts ?? 1);
    if (final) await progress.end({ running: false, finishedAt: new Date().toISOString(), outcome: "failure", reason: errorText(err) });
    else await progress.end({});
    throw err;
  }
}
