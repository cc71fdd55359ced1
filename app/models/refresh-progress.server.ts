import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { appSettings } from "~/db/schema";
import type { RefreshProgress } from "~/utils/refresh-outcome";
import { publishLive } from "~/queue/live.server";
import { getQueue, producerReady } from "~/queue/queues.server";

/**
 * The progress of the bulk refreshes (Bowling Bots, All Characters; docs/bowling.md "Refresh",
 * docs/accounts.md "Character details refresh"): one app_settings row per section, so any
 * process renders it and a reload mid-refresh shows it. Every write is published on the
 * live-events bus (`refresh:<scope>`) after it is stored, so open pages revalidate at once
 * instead of polling; writers throttle themselves (jobs/processors/refresh-progress.ts).
 */

export type RefreshScope = "bowling" | "characters";

const KEYS: Record<RefreshScope, string> = { bowling: "bowling.refresh-progress", characters: "characters.refresh-progress" };
/** Idempotent job ids: two clicks (two tabs) while one refresh is queued or running start one job. */
export const REFRESH_JOB_IDS: Record<RefreshScope, string> = { bowling: "bowling-refresh", characters: "characters-refresh" };

export async function storeRefreshProgress(scope: RefreshScope, p: RefreshProgress): Promise<void> {
  const db = await getDb();
  await db
    .insert(appSettings)
    .values({ key: KEYS[scope], value: p })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: p, updatedAt: new Date() } });
  publishLive("refresh", { scope });
}

export async function readRefreshProgress(scope: RefreshScope): Promise<RefreshProgress | null> {
  const db = await getDb();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, KEYS[scope])).limit(1);
  return (row?.value as RefreshProgress | undefined) ?? null;
}

/** A running refresh whose job is gone this long after it started is over (see below). */
const LOST_JOB_GRACE_MS = 15_000;
export const LOST_JOB_REASON = "The refresh job ended without finishing (its worker stopped or the job was removed)";

/**
 * The progress as the page shows it. A job can end without its processor writing the end
 * (it failed for good by stalling, or was removed from the queue board): then the progress
 * would say "running" forever and the button would stay disabled. So while it says running,
 * the job's state is checked (when Redis answers); a job that is no longer waiting, delayed
 * or active — and started more than 15 s ago, past the moment between storing the progress
 * and adding the job — turns the progress into a failure.
 */
export async function currentRefreshProgress(scope: RefreshScope): Promise<RefreshProgress | null> {
  const p = await readRefreshProgress(scope);
  if (!p?.running || Date.now() - Date.parse(p.startedAt) < LOST_JOB_GRACE_MS) return p;
  if (!(await producerReady())) return p;
  const job = await getQueue("bulk-refresh").getJob(REFRESH_JOB_IDS[scope]);
  const state = job ? await job.getState() : "missing";
  if (["waiting", "active", "delayed", "prioritized", "waiting-children"].includes(state)) return p;
  // Re-read: the job may have written its end in the meantime.
  const latest = await readRefreshProgress(scope);
  if (!latest?.running || latest.startedAt !== p.startedAt) return latest;
  const ended: RefreshProgress = { ...latest, running: false, finishedAt: new Date().toISOString(), outcome: "failure", reason: LOST_JOB_REASON };
  await storeRefreshProgress(scope, ended);
  return ended;
}

/** The progress a new refresh starts with (stored before its job is added). */
export function startingProgress(startedAt: string): RefreshProgress {
  return { running: true, done: 0, total: 0, failed: 0, startedAt, finishedAt: null, outcome: null, failedAccounts: [], reason: null };
}
