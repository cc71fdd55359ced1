import { enqueue, getQueue, jobEngineOffline, producerReady } from "~/queue/queues.server";
import { refreshNotice, type RefreshNotice, type RefreshProgress, type RefreshTexts } from "~/utils/refresh-outcome";
import { currentRefreshProgress, readRefreshProgress, REFRESH_JOB_IDS, startingProgress, storeRefreshProgress } from "./refresh-progress.server";

/**
 * The job side of the Bowling Bots refresh control (spec 1 §4 "Refresh control", docs/bowling.md
 * "Refresh"): one idempotent `bulk-refresh` job (section "bowling") and its progress, stored in
 * app_settings so any process renders it and a reload mid-refresh shows it (shared with All
 * Characters: ./refresh-progress.server.ts). The work itself is jobs/processors/bowling.ts.
 */

/** Idempotent job id: two clicks (two tabs) while one refresh is queued or running start one job. */
export const BOWLING_REFRESH_JOB_ID = REFRESH_JOB_IDS.bowling;

/** Spec 1 §8 "Toasts, bowling". */
export const REFRESH_TEXTS = { success: "Data refreshed successfully", failure: "Failed to refresh data" } as const;

/** The outcome texts: spec 1 §8's success and failure; the warning naming failed accounts is ours. */
export const BOWLING_REFRESH_TEXTS: RefreshTexts = {
  ...REFRESH_TEXTS,
  noun: "accounts",
  partial: ({ ok, total, failed, names }) => `Data refreshed for ${ok} of ${total} accounts; ${failed} failed: ${names}`,
};

export type BowlingRefreshProgress = RefreshProgress;

export function setBowlingRefreshProgress(p: BowlingRefreshProgress): Promise<void> {
  return storeRefreshProgress("bowling", p);
}

export function getBowlingRefreshProgress(): Promise<BowlingRefreshProgress | null> {
  return readRefreshProgress("bowling");
}

/** The progress as the page shows it: a lost job ends as a failure (refresh-progress.server.ts). */
export function currentBowlingRefreshProgress(): Promise<BowlingRefreshProgress | null> {
  return currentRefreshProgress("bowling");
}

/** The notice of the last finished refresh (toast, progress line, no-JS flash). */
export function bowlingRefreshNotice(p: BowlingRefreshProgress | null): RefreshNotice | null {
  return refreshNotice(p, BOWLING_REFRESH_TEXTS);
}

/**
 * The refresh button (spec 1 §4): starts the bowling refresh job unless one is queued or
 * running (then its id is returned; "a click while refreshing is ignored"). Throws the 503
 * job-engine-offline AppError when Redis is down (nothing stored).
 */
export async function requestBowlingRefresh(): Promise<{ jobId: string; started: boolean }> {
  if (!(await producerReady())) throw jobEngineOffline();
  const queue = getQueue("bulk-refresh");
  const existing = await queue.getJob(BOWLING_REFRESH_JOB_ID);
  if (existing) {
    const state = await existing.getState();
    if (state === "completed" || state === "failed") await existing.remove().catch(() => {});
    else return { jobId: BOWLING_REFRESH_JOB_ID, started: false };
  }
  const requestedAt = new Date().toISOString();
  await setBowlingRefreshProgress(startingProgress(requestedAt));
  // The job id is fixed, so a concurrent second add (another tab, same instant) is a no-op in BullMQ.
  const job = await enqueue("bulk-refresh", { kind: "refresh", section: "bowling", skipCache: true, requestedAt }, { jobId: BOWLING_REFRESH_JOB_ID });
  return { jobId: job.id ?? BOWLING_REFRESH_JOB_ID, started: true };
}
