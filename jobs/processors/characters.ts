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
 * Per-user failures are recorded on the row (gift stats → giftsFailed), never fail the job.
 */
import { UnrecoverableError, type Job } from "bullmq";
import type { GiftStatDto } from "#api/galaxy";
import { getGalaxyServices, type GalaxyCredentials } from "~/galaxy/services.server";
import { actingCredentials, freshStalkerStatuses, saveCharacterDetails, type DetailsPatch } from "~/models/character-details.server";
import { setRefreshProgress, type RefreshProgress } from "~/models/character-refresh.server";
import { logEvent } from "~/models/log.server";
import { listUsers } from "~/models/user.server";
import { errorText } from "~/utils/errors";
import type { BulkRefreshJob, StatusRefreshJob } from "../queues.server";
import { processBowlingRefreshJob } from "./bowling";

/** A stalker's sighting younger than this replaces the HTTP status call. */
export const STALKER_STATUS_FRESH_MS = 5 * 60_000;

export type RefreshParts = { pictures: boolean; statuses: boolean; gifts: boolean };
export type RefreshResult = { total: number; done: number; failed: number; skippedStatuses: number };

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
  onProgress?: (p: { done: number; total: number; failed: number }) => void;
}): Promise<RefreshResult> {
  const only = options.accountIds ? new Set(options.accountIds) : null;
  const users = (await listUsers()).filter((u) => !only || only.has(u.account_id));
  const total = users.length;
  const result: RefreshResult = { total, done: 0, failed: 0, skippedStatuses: 0 };
  if (!total) return result;
  const acting = await actingCredentials(options.actingAccountId);
  if (!acting) return result;
  const creds: GalaxyCredentials = { userID: acting.accountId, password: acting.password };
  const services = getGalaxyServices();
  const opts = { skipCache: options.force };
  const ids = users.map((u) => u.account_id);

  const pics: Promise<Record<string, string | null> | null> = options.parts.pictures
    ? services.userPics(creds, ids, opts).catch(async (err: unknown) => {
        await logEvent({ type: "error", source: "system", message: `Loading character pictures failed: ${errorText(err)}` });
        return null;
      })
    : Promise.resolve(null);
  const fresh = options.parts.statuses && !options.force ? await freshStalkerStatuses(STALKER_STATUS_FRESH_MS) : new Set<string>();

  await Promise.all(
    ids.map(async (id) => {
      const patch: DetailsPatch = {};
      let failed = false;
      const statusTask =
        options.parts.statuses && !fresh.has(id)
          ? services.status(creds, id, opts).then(
              (s) => (patch.status = { isOnline: s.isOnline, room: s.room, source: "service" }),
              () => (failed = true),
            )
          : Promise.resolve();
      if (options.parts.statuses && fresh.has(id)) result.skippedStatuses++;
      const giftsTask = options.parts.gifts
        ? services.giftStats(creds, id, opts).then(
            (g: GiftStatDto[]) => (patch.gifts = g),
            () => {
              patch.gifts = "failed";
              failed = true;
            },
          )
        : Promise.resolve();
      await Promise.all([statusTask, giftsTask]);
      const picMap = await pics;
      if (picMap && id in picMap) patch.picUrl = picMap[id] ?? null;
      if (Object.keys(patch).length) await saveCharacterDetails(id, patch);
      result.done++;
      if (failed) result.failed++;
      options.onProgress?.({ done: result.done, total, failed: result.failed });
    }),
  );
  return result;
}

export async function processStatusRefreshJob(job: Job<StatusRefreshJob>): Promise<RefreshResult> {
  if (job.name !== "statuses") throw new UnrecoverableError(`Unknown status-refresh job "${job.name}"`);
  return refreshCharacters({
    actingAccountId: job.data.actingAccountId,
    ...(job.data.accountIds ? { accountIds: job.data.accountIds } : {}),
    force: job.data.force,
    parts: { pictures: false, statuses: true, gifts: false },
  });
}

export async function processBulkRefreshJob(job: Job<BulkRefreshJob>): Promise<unknown> {
  if (job.name !== "refresh") throw new UnrecoverableError(`Unknown bulk-refresh job "${job.name}"`);
  switch (job.data.section) {
    case "characters":
      return refreshCharactersWithProgress(job.data);
    case "bowling":
      return processBowlingRefreshJob(job);
    default:
      throw new UnrecoverableError(`Bulk refresh of section "${String(job.data.section)}" is not built yet`);
  }
}

async function refreshCharactersWithProgress(data: BulkRefreshJob): Promise<RefreshResult> {
  let latest: RefreshProgress = { running: true, done: 0, total: 0, failed: 0, finishedAt: null };
  let writing: Promise<void> = Promise.resolve();
  let lastWrite = 0;
  const write = (p: RefreshProgress) => {
    latest = p;
    writing = writing.then(() => setRefreshProgress(latest)).catch(() => {});
  };
  write(latest);
  try {
    const result = await refreshCharacters({
      actingAccountId: data.actingAccountId ?? null,
      force: data.skipCache,
      parts: { pictures: true, statuses: true, gifts: true },
      onProgress: (p) => {
        if (Date.now() - lastWrite < 250) {
          latest = { ...p, running: true, finishedAt: null };
          return;
        }
        lastWrite = Date.now();
        write({ ...p, running: true, finishedAt: null });
      },
    });
    write({ running: false, done: result.done, total: result.total, failed: result.failed, finishedAt: new Date().toISOString() });
    await writing;
    return result;
  } catch (err) {
    write({ ...latest, running: false, finishedAt: new Date().toISOString() });
    await writing;
    throw err;
  }
}
