/**
 * The Bowling Bots refresh (spec 1 §4 "Refresh control": "fetch users, send the user-agent map,
 * then per bowling user fetch pic, status, gifts and collection in parallel with cache skipped,
 * then update last-fetched"; docs/bowling.md "Refresh"). Runs as the `bulk-refresh` job of
 * section "bowling" (jobs/processors/characters.ts switches on the section).
 *
 *  1. users: the accounts of type bowling (credentials decrypted here, never in the job data);
 *  2. the user-agent map (spec 1 §5): users without iHeaders are left out; unparsable iHeaders
 *     are logged to System Logs and skipped; the rest are stored in one transaction
 *     (registerUserAgents, what POST /api/user-agent does);
 *  3. per bowling user, acting as itself: pic, status, gift stats, collection stats (151) in
 *     parallel with X-Skip-Cache; each answer is written to the account's character_details row
 *     as soon as the four calls settle, so the page shows results as they arrive. A failed call
 *     keeps the stored value and records the platform's reason (the row shows it stale);
 *     concurrency is bounded by the services client (semaphore, per-account token bucket);
 *  4. the outcome, once per job (runStepOnce, keyed by the job: a re-run after a killed worker
 *     does not do it again): last-fetched is set unless every account failed (issue 18 item 5:
 *     "All failed … last-fetched unchanged"), with the System Logs entry; then the daily totals
 *     pull for the Summary (skipped when every account failed).
 *
 * The progress row says how it ended: "success", "partial" (which accounts failed, and why)
 * or "failure" (every account failed, or the job failed for good). A per-user failure never
 * fails the job; a failure of 1, 2 or 4 does (BullMQ retries it; the last attempt's failure
 * becomes "Failed to refresh data" with its reason).
 */
import { alertRefreshOutcome } from "~/models/alert.server";
import type { Job } from "bullmq";
import { getGalaxyServices } from "~/platform/galaxy-services.server";
import type { UserAgentInput } from "~/galaxy/user-agent";
import { registerUserAgents } from "~/models/user-agent.server";
import { listBowlingAccounts, setLastFetched, type BowlingAccount } from "~/models/bowling-user.server";
import { saveCharacterDetails, type DetailPart, type DetailsPatch } from "~/models/character-details.server";
import { pullDailyStats } from "~/platform/daily-stats.server";
import { logEvent } from "~/models/log.server";
import { startingProgress } from "~/models/refresh-progress.server";
import { errorText } from "~/utils/errors";
import { commonReason, MAX_FAILED_STORED, outcomeOf, type FailedAccount } from "~/utils/refresh-outcome";
import { runStepOnce, stepKey } from "../../app/models/once.server";
import type { BulkRefreshJob } from "../../app/queue/queues.server";
import { refreshProgressWriter } from "./refresh-progress";
import { isWorkerClosing } from "../closing.server";

/** Spec 1 §7 / §9: collection stats use collection 151 ('Capybara'). */
export const CAPYBARA_COLLECTION_ID = 151;

export type BowlingRefreshResult = {
  total: number;
  done: number;
  failed: number;
  skippedUserAgents: number;
  /** The accounts with a failed call (at most MAX_FAILED_STORED), by nick. */
  failedAccounts: FailedAccount[];
  /** The most common failure text, in the platform's words. */
  reason: string | null;
};

/** Step 2: the user-agent map; returns how many users were skipped (no or unparsable iHeaders). */
async function sendUserAgentMap(accounts: BowlingAccount[]): Promise<number> {
  const map: Record<string, UserAgentInput> = {};
  let skipped = 0;
  for (const a of accounts) {
    if (!a.iHeaders || a.iHeaders.trim() === "") {
      skipped++; // spec 1 §5: users without iHeaders are skipped
      continue;
    }
    map[a.accountId] = { headers: a.iHeaders, sek: a.sek, id: a.accountId, nick: a.nick };
  }
  const result = await registerUserAgents(map);
  for (const s of result.skipped) {
    skipped++;
    // Spec 1 §5: "iHeaders failing JSON parsing are logged and skipped for that user".
    await logEvent({
      type: "error",
      source: "system",
      message: `Bowling refresh: user agent of ${s.id} skipped: ${s.reason}`,
      details: { accountId: s.id, reason: s.reason },
    });
  }
  return skipped;
}

/**
 * Steps 1–3 (no last-fetched). `onProgress` gets the running figures after each account.
 */
export async function refreshBowlingUsers(options: {
  skipCache: boolean;
  onProgress?: (p: { done: number; total: number; failed: number; failedAccounts: FailedAccount[] }) => void;
  /** A worker closing (jobs/closing.server.ts): calls still waiting are given up, nothing more is written, the refresh ends with the signal's reason. */
  closing?: AbortSignal | undefined;
}): Promise<BowlingRefreshResult> {
  const closing = options.closing;
  const accounts = await listBowlingAccounts();
  const total = accounts.length;
  const result: BowlingRefreshResult = { total, done: 0, failed: 0, skippedUserAgents: 0, failedAccounts: [], reason: null };
  options.onProgress?.({ done: 0, total, failed: 0, failedAccounts: [] });
  result.skippedUserAgents = await sendUserAgentMap(accounts);
  const services = getGalaxyServices();
  const opts = { skipCache: options.skipCache, ...(closing ? { signal: closing } : {}) };
  const failures: Array<{ accountId: string; errors: string[] }> = [];
  const reasons: string[] = [];
  await Promise.all(
    accounts.map(async (a) => {
      const creds = { userID: a.accountId, password: a.password };
      const patch: DetailsPatch = {};
      const failed: Partial<Record<DetailPart, string>> = {};
      // The stored value stays; the row shows it stale with this reason (CONVENTIONS rule 17).
      const fail = (part: DetailPart) => (err: unknown) => void (failed[part] = errorText(err));
      await Promise.all([
        services.userPic(creds, a.accountId, opts).then((pic) => void (patch.picUrl = pic), fail("pic")),
        services.status(creds, a.accountId, opts).then((s) => void (patch.status = { isOnline: s.isOnline, room: s.room, source: "service" }), fail("status")),
        services.giftStats(creds, a.accountId, opts).then((g) => void (patch.gifts = g), fail("gifts")),
        services.collectionStats(creds, a.accountId, CAPYBARA_COLLECTION_ID, opts).then((c) => void (patch.collection = c), fail("collection")),
      ]);
      if (closing?.aborted) return;
      const errors = Object.entries(failed);
      if (errors.length) patch.failed = failed;
      await saveCharacterDetails(a.accountId, patch);
      result.done++;
      if (errors.length) {
        result.failed++;
        if (result.failedAccounts.length < MAX_FAILED_STORED) result.failedAccounts.push({ accountId: a.accountId, nick: a.nick });
        failures.push({ accountId: a.accountId, errors: errors.map(([part, text]) => `${part}: ${text}`) });
        reasons.push(...errors.map(([, text]) => text));
      }
      options.onProgress?.({ done: result.done, total, failed: result.failed, failedAccounts: [...result.failedAccounts] });
    }),
  );
  closing?.throwIfAborted();
  result.reason = commonReason(reasons);
  if (failures.length) {
    // One entry per refresh, not one per account (200 accounts × a platform outage).
    await logEvent({
      type: "error",
      source: "system",
      message: `Bowling refresh: calls failed for ${failures.length} of ${total} accounts`,
      details: { failures: failures.slice(0, 50) },
    });
  }
  return result;
}

/** The bulk-refresh job of section "bowling": steps 1–4 with progress written for the screen. */
export async function processBowlingRefreshJob(
  job: Job<BulkRefreshJob>,
  closing?: AbortSignal,
): Promise<BowlingRefreshResult & { lastFetched: string | null }> {
  const progress = refreshProgressWriter("bowling", startingProgress(job.data.requestedAt));
  try {
    const result = await refreshBowlingUsers({ skipCache: job.data.skipCache, onProgress: (p) => progress.update(p), closing });
    const outcome = outcomeOf(result);
    // Step 4, once per job: the new last-fetched time is this run's finish time, unless nothing was fetched.
    const lastFetched = await runStepOnce(stepKey(job, "last-fetched"), async (tx) => {
      const at = outcome === "failure" ? null : new Date().toISOString();
      if (at) await setLastFetched(at, tx);
      await logEvent(
        {
          type: outcome === "failure" ? "error" : "info",
          source: "system",
          message:
            outcome === "failure"
              ? `Bowling refresh failed: all ${result.total} accounts failed${result.reason ? `: ${result.reason}` : ""}`
              : `Bowling data refreshed: ${result.done} of ${result.total} accounts, ${result.failed} with failures`,
          details: { jobId: job.id, lastFetched: at, ...result },
        },
        tx,
      );
      return at;
    });
    await alertRefreshOutcome("bowling", result);
    // The Summary's daily totals (spec 1 §2 "Summary panel"); its failures are per account and
    // logged. Not when every account just failed: the platform is refusing us.
    const pulled =
      outcome === "failure"
        ? null
        : await pullDailyStats({ skipCache: job.data.skipCache, ...(closing ? { signal: closing } : {}) }).catch(async (err: unknown) => {
            // A closing worker: the refresh runs again (its step 4 is done and stays done).
            if (isWorkerClosing(err)) throw err;
            await logEvent({ type: "error", source: "system", message: `Bowling refresh: daily totals pull failed: ${errorText(err)}` });
            return null;
          });
    if (pulled?.failed.length) {
      await logEvent({
        type: "error",
        source: "system",
        message: `Bowling refresh: daily totals of ${pulled.failed.length} accounts failed`,
        details: { failed: pulled.failed },
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
    return { ...result, lastFetched };
  } catch (err) {
    // A closing worker's refresh runs again (jobs/closing.server.ts): not a failure, still running.
    if (isWorkerClosing(err)) {
      await progress.end({});
      throw err;
    }
    const attempts = job.opts?.attempts ?? 1;
    const final = job.attemptsMade + 1 >= attempts;
    await logEvent({ type: "error", source: "system", message: `Bowling refresh failed${final ? "" : " (will retry)"}: ${errorText(err)}` }).catch(() => {});
    // Until the last attempt the refresh still counts as running (BullMQ retries it).
    if (final) await progress.end({ running: false, finishedAt: new Date().toISOString(), outcome: "failure", reason: errorText(err) });
    else await progress.end({});
    throw err;
  }
}
