import { enqueue, getQueue, jobEngineOffline, producerReady } from "~/queue/queues.server";
import { awaitLive } from "~/queue/live.server";
import { refreshNotice, type RefreshNotice, type RefreshProgress, type RefreshTexts } from "~/utils/refresh-outcome";
// A cycle with character-details.server.ts (which re-exports this module): only functions
// cross it, called after both modules are evaluated.
import { anySelection, getCharacterDetails, getSelectedCharacter, storeSelection } from "./character-details.server";
import { currentRefreshProgress, readRefreshProgress, REFRESH_JOB_IDS, startingProgress, storeRefreshProgress } from "./refresh-progress.server";

/**
 * The job side of the characters details (spec 2 §4 "Stalker", §9 "Status refresh for
 * characters: every 5 minutes"): the status scheduler that runs while a user is selected,
 * the manual Refresh (one idempotent bulk-refresh job), and its progress, stored in
 * app_settings so any process can render it (shared with Bowling Bots: ./refresh-progress.server.ts).
 */

/** BullMQ job scheduler id of the 5-minute status refresh. */
export const STATUS_SCHEDULER_ID = "characters-statuses";
export const STATUS_EVERY_MS = 5 * 60_000;
/** Idempotent job id of the characters bulk refresh (two clicks start one job). */
export const CHARACTERS_REFRESH_JOB_ID = REFRESH_JOB_IDS.characters;

/**
 * The outcome texts: spec 2 §8's "Failed to fetch user details" when every user failed; the
 * success and the warning naming failed users are ours (spec 2 names no Refresh success toast).
 */
export const CHARACTERS_REFRESH_TEXTS: RefreshTexts = {
  success: "User details refreshed",
  failure: "Failed to fetch user details",
  noun: "users",
  partial: ({ ok, total, failed, names }) => `User details refreshed for ${ok} of ${total} users; ${failed} failed: ${names}`,
  partialShared: "User details refreshed; pictures could not be loaded",
};

export type { RefreshProgress };

/**
 * Remembers the selection; selecting upserts the status scheduler and starts a first load of
 * pictures, statuses and gift stats for all users; clearing the last selection removes the
 * scheduler. Throws the 503 job-engine-offline AppError when Redis is down (nothing stored).
 */
export async function selectCharacter(operatorId: string, accountId: string | null): Promise<void> {
  if (!(await producerReady())) throw jobEngineOffline();
  const anySelected = await storeSelection(operatorId, accountId);
  const queue = getQueue("status-refresh");
  if (!anySelected) {
    await queue.removeJobScheduler(STATUS_SCHEDULER_ID);
    return;
  }
  if (accountId) {
    await queue.upsertJobScheduler(
      STATUS_SCHEDULER_ID,
      { every: STATUS_EVERY_MS },
      { name: "statuses", data: { kind: "statuses", actingAccountId: accountId, force: false } },
    );
    await startRefreshJob(accountId, false);
  }
}

/**
 * After selections disappeared without selectCharacter (a selected user was deleted): removes
 * the status scheduler when no operator has a selection left. Best effort: with Redis down the
 * scheduler stays, and its runs act with the first user (spec 2 §6).
 */
export async function syncStatusScheduler(): Promise<void> {
  if (await anySelection()) return;
  if (!(await producerReady())) return;
  await getQueue("status-refresh")
    .removeJobScheduler(STATUS_SCHEDULER_ID)
    .catch(() => {});
}

async function startRefreshJob(actingAccountId: string | undefined, force: boolean): Promise<string> {
  // Fail fast with the 503 before touching the queue (its commands would wait for Redis).
  if (!(await producerReady())) throw jobEngineOffline();
  const queue = getQueue("bulk-refresh");
  const existing = await queue.getJob(CHARACTERS_REFRESH_JOB_ID);
  if (existing) {
    const state = await existing.getState();
    if (state === "completed" || state === "failed") await existing.remove().catch(() => {});
    else return CHARACTERS_REFRESH_JOB_ID;
  }
  const requestedAt = new Date().toISOString();
  await setRefreshProgress(startingProgress(requestedAt));
  const job = await enqueue(
    "bulk-refresh",
    { kind: "refresh", section: "characters", ...(actingAccountId ? { actingAccountId } : {}), skipCache: force, requestedAt },
    { jobId: CHARACTERS_REFRESH_JOB_ID },
  );
  return job.id ?? CHARACTERS_REFRESH_JOB_ID;
}

/**
 * Issue 19 item 8: a user just added gets its picture, status and gift stats at once (one
 * status-refresh job for that user alone), so its row does not wait for the next Refresh. Acts
 * with the operator's selected user, else the new user itself (it has just signed in). Best
 * effort: false when the job engine is offline (the row then says its gifts are not loaded yet).
 */
export async function loadNewUserDetails(accountId: string, operatorId: string, { waitMs = 0 }: { waitMs?: number } = {}): Promise<boolean> {
  if (!(await producerReady())) return false;
  const acting = (await getSelectedCharacter(operatorId)) ?? accountId;
  await enqueue("status-refresh", { kind: "statuses", actingAccountId: acting, accountIds: [accountId], force: true, everything: true });
  // The answer waits a moment for them (usually well under a second), so the page the action
  // revalidates already shows the gifts; a slower platform is followed live (refresh:characters).
  // The status refresh says when it is done (refresh:characters:statuses): read then, not on a timer.
  if (waitMs > 0) {
    await awaitLive(
      (m) => m.topic === "refresh" && m.scope === "characters",
      async () => {
        const d = (await getCharacterDetails()).get(accountId);
        return d && (d.gifts || d.giftsFailed) ? true : undefined;
      },
      waitMs,
    );
  }
  return true;
}

/** Manual Refresh: pictures, statuses and stats for all users, `force` skips caches. */
export async function requestCharactersRefresh({ operatorId, force }: { operatorId: string; force: boolean }): Promise<{ jobId: string }> {
  const selected = await getSelectedCharacter(operatorId);
  return { jobId: await startRefreshJob(selected ?? undefined, force) };
}

export function setRefreshProgress(p: RefreshProgress): Promise<void> {
  return storeRefreshProgress("characters", p);
}

export function getCharactersRefreshProgress(): Promise<RefreshProgress | null> {
  return readRefreshProgress("characters");
}

/** The progress as the page shows it: a lost job ends as a failure (refresh-progress.server.ts). */
export function currentCharactersRefreshProgress(): Promise<RefreshProgress | null> {
  return currentRefreshProgress("characters");
}

/** The notice of the last finished refresh (toast, progress line, no-JS flash). */
export function charactersRefreshNotice(p: RefreshProgress | null): RefreshNotice | null {
  return refreshNotice(p, CHARACTERS_REFRESH_TEXTS);
}
