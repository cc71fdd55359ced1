import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { appSettings } from "~/db/schema";
import { enqueue, getQueue, jobEngineOffline, producerReady } from "#jobs/queues.server";
// A cycle with character-details.server.ts (which re-exports this module): only functions
// cross it, called after both modules are evaluated.
import { anySelection, getSelectedCharacter, storeSelection } from "./character-details.server";

/**
 * The job side of the characters details (spec 2 §4 "Stalker", §9 "Status refresh for
 * characters: every 5 minutes"): the status scheduler that runs while a user is selected,
 * the manual Refresh (one idempotent bulk-refresh job), and its progress, stored in
 * app_settings so any process can render it.
 */

/** BullMQ job scheduler id of the 5-minute status refresh. */
export const STATUS_SCHEDULER_ID = "characters-statuses";
export const STATUS_EVERY_MS = 5 * 60_000;
/** Idempotent job id of the characters bulk refresh (two clicks start one job). */
export const CHARACTERS_REFRESH_JOB_ID = "characters-refresh";
const PROGRESS_KEY = "characters.refresh-progress";

export type RefreshProgress = { running: boolean; done: number; total: number; failed: number; finishedAt: string | null };

/**
 * Remembers the selection; selecting upserts the status scheduler and starts a first load of
 * pictures, statuses and gift stats for all users; clearing the last selection removes the
 * scheduler. Throws the 503 job-engine-offline Response when Redis is down (nothing stored).
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
  await setRefreshProgress({ running: true, done: 0, total: 0, failed: 0, finishedAt: null });
  const job = await enqueue(
    "bulk-refresh",
    { kind: "refresh", section: "characters", ...(actingAccountId ? { actingAccountId } : {}), skipCache: force, requestedAt: new Date().toISOString() },
    { jobId: CHARACTERS_REFRESH_JOB_ID },
  );
  return job.id ?? CHARACTERS_REFRESH_JOB_ID;
}

/** Manual Refresh: pictures, statuses and stats for all users, `force` skips caches. */
export async function requestCharactersRefresh({ operatorId, force }: { operatorId: string; force: boolean }): Promise<{ jobId: string }> {
  const selected = await getSelectedCharacter(operatorId);
  return { jobId: await startRefreshJob(selected ?? undefined, force) };
}

export async function setRefreshProgress(p: RefreshProgress): Promise<void> {
  const db = await getDb();
  await db
    .insert(appSettings)
    .values({ key: PROGRESS_KEY, value: p })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: p, updatedAt: new Date() } });
}

export async function getCharactersRefreshProgress(): Promise<RefreshProgress | null> {
  const db = await getDb();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, PROGRESS_KEY)).limit(1);
  return (row?.value as RefreshProgress | undefined) ?? null;
}
