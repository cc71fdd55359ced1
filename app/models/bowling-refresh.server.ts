import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { appSettings } from "~/db/schema";
import { enqueue, getQueue, jobEngineOffline, producerReady } from "#jobs/queues.server";

/**
 * The job side of the Bowling Bots refresh control (spec 1 §4 "Refresh control", docs/bowling.md
 * "Refresh"): one idempotent `bulk-refresh` job (section "bowling") and its progress, stored in
 * app_settings so any process renders it and a reload mid-refresh shows it. The work itself is
 * jobs/processors/bowling.ts.
 */

/** Idempotent job id: two clicks (two tabs) while one refresh is queued or running start one job. */
export const BOWLING_REFRESH_JOB_ID = "bowling-refresh";
export const BOWLING_PROGRESS_KEY = "bowling.refresh-progress";

/** Spec 1 §8 "Toasts, bowling". */
export const REFRESH_TEXTS = { success: "Data refreshed successfully", failure: "Failed to refresh data" } as const;

export type BowlingRefreshProgress = {
  running: boolean;
  /** Accounts finished (all four calls answered or failed) of `total`. */
  done: number;
  total: number;
  /** Accounts with at least one failed call. */
  failed: number;
  startedAt: string;
  finishedAt: string | null;
  /** null while running; "success" once last-fetched is set, "failure" when the job failed for good. */
  outcome: "success" | "failure" | null;
};

export async function setBowlingRefreshProgress(p: BowlingRefreshProgress): Promise<void> {
  const db = await getDb();
  await db
    .insert(appSettings)
    .values({ key: BOWLING_PROGRESS_KEY, value: p })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: p, updatedAt: new Date() } });
}

export async function getBowlingRefreshProgress(): Promise<BowlingRefreshProgress | null> {
  const db = await getDb();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, BOWLING_PROGRESS_KEY)).limit(1);
  return (row?.value as BowlingRefreshProgress | undefined) ?? null;
}

/** A running refresh whose job is gone this long after it started is over (see below). */
const LOST_JOB_GRACE_MS = 15_000;

/**
 * The progress as the page shows it. A job can end without its processor writing the end
 * (it failed for good by stalling, or was removed from the queue board): then the progress
 * would say "running" forever and the button would stay disabled. So while it says running,
 * the job's state is checked (when Redis answers); a job that is no longer waiting, delayed
 * or active — and started more than 15 s ago, past the moment between storing the progress
 * and adding the job — turns the progress into the failure ('Failed to refresh data').
 */
export async function currentBowlingRefreshProgress(): Promise<BowlingRefreshProgress | null> {
  const p = await getBowlingRefreshProgress();
  if (!p?.running || Date.now() - Date.parse(p.startedAt) < LOST_JOB_GRACE_MS) return p;
  if (!(await producerReady())) return p;
  const job = await getQueue("bulk-refresh").getJob(BOWLING_REFRESH_JOB_ID);
  const state = job ? await job.getState() : "missing";
  if (["waiting", "active", "delayed", "prioritized", "waiting-children"].includes(state)) return p;
  // Re-read: the job may have written its end in the meantime.
  const latest = await getBowlingRefreshProgress();
  if (!latest?.running || latest.startedAt !== p.startedAt) return latest;
  const ended: BowlingRefreshProgress = { ...latest, running: false, finishedAt: new Date().toISOString(), outcome: "failure" };
  await setBowlingRefreshProgress(ended);
  return ended;
}

/**
 * The refresh button (spec 1 §4): starts the bowling refresh job unless one is queued or
 * running (then its id is returned; "a click while refreshing is ignored"). Throws the 503
 * job-engine-offline Response when Redis is down (nothing stored).
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
  await setBowlingRefreshProgress({ running: true, done: 0, total: 0, failed: 0, startedAt: requestedAt, finishedAt: null, outcome: null });
  // The job id is fixed, so a concurrent second add (another tab, same instant) is a no-op in BullMQ.
  const job = await enqueue("bulk-refresh", { kind: "refresh", section: "bowling", skipCache: true, requestedAt }, { jobId: BOWLING_REFRESH_JOB_ID });
  return { jobId: job.id ?? BOWLING_REFRESH_JOB_ID, started: true };
}
