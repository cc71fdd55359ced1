/**
 * What a bulk refresh (Bowling Bots, All Characters) reports when it ends (issue 18 item 5;
 * CONVENTIONS rule 17 "Tell the operator the truth"): success only when every account
 * succeeded, a warning naming how many and which accounts failed when some did, the failure
 * with the platform's reason when all did (or the job itself failed).
 *
 * The progress row in app_settings carries the outcome, so the page tells it after a reload,
 * in any process, and without JavaScript (the flash toast of `?refreshing=1`). The texts are
 * built here from the stored figures, by the loader (client-safe all the same: no server imports).
 */
import { nounFor } from "./plural";

export type RefreshOutcome = "success" | "partial" | "failure";
export type FailedAccount = { accountId: string; nick: string };

/** The stored progress of a bulk refresh (app/models/refresh-progress.server.ts). */
export type RefreshProgress = {
  running: boolean;
  /** Accounts finished (every call answered or failed) of `total`. */
  done: number;
  total: number;
  /** Accounts with at least one failed call. */
  failed: number;
  startedAt: string;
  finishedAt: string | null;
  /** null while running. */
  outcome: RefreshOutcome | null;
  /** Which accounts failed (the first MAX_FAILED_STORED; `failed` is the count). Absent in rows written before issue 18. */
  failedAccounts?: FailedAccount[];
  /** Why, in the platform's words (the most common failure), or the job's own error. */
  reason?: string | null;
};

/** How many failed accounts a progress row names (200 accounts in one outage stay a small row). */
export const MAX_FAILED_STORED = 50;
/** How many nicks a message names before "and N more". */
const NAMED = 5;

/**
 * The outcome of a finished run: failure when every account failed (none refreshed), partial
 * when some did or a shared part failed (`sharedFailure`), else success.
 */
export function outcomeOf({ total, failed, sharedFailure = false }: { total: number; failed: number; sharedFailure?: boolean }): RefreshOutcome {
  if (total > 0 && failed >= total) return "failure";
  if (failed > 0 || sharedFailure) return "partial";
  return "success";
}

/** The most common of the failure texts (the platform's words), or null. */
export function commonReason(reasons: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  let best: string | null = null;
  for (const [r, n] of counts) if (best === null || n > counts.get(best)!) best = r;
  return best;
}

/** "Ann, bob and 3 more" for `failed` accounts of which `named` are known. */
export function namesOf(named: readonly FailedAccount[], failed: number): string {
  const shown = named.slice(0, NAMED).map((a) => a.nick || a.accountId);
  const more = failed - shown.length;
  if (more > 0) return `${shown.join(", ")}${shown.length ? " and " : ""}${more} more`;
  return shown.join(", ");
}

export type RefreshNotice = { type: "success" | "warning" | "error"; message: string; description?: string };

export type RefreshTexts = {
  success: string;
  failure: string;
  /** The warning when some accounts failed: how many and which. */
  partial: (p: { ok: number; total: number; failed: number; names: string }) => string;
  /** The warning when no account failed but a shared part did (e.g. the batched pictures call). */
  partialShared?: string;
  /** What an account is called in texts ("accounts", "users"). */
  noun: string;
};

/** The notice of a finished refresh (toast and the line under the header), null while running or before any. */
export function refreshNotice(p: RefreshProgress | null, texts: RefreshTexts): RefreshNotice | null {
  if (!p || p.running || !p.outcome) return null;
  const reason = p.reason ?? undefined;
  if (p.outcome === "success") return { type: "success", message: texts.success };
  if (p.outcome === "failure") {
    const all = p.total > 0 && p.failed >= p.total ? `All ${p.total} ${nounFor(p.total, texts.noun)} failed` : null;
    const description = [all, reason].filter(Boolean).join(": ") || undefined;
    return { type: "error", message: texts.failure, ...(description ? { description } : {}) };
  }
  const message =
    p.failed > 0
      ? texts.partial({ ok: p.total - p.failed, total: p.total, failed: p.failed, names: namesOf(p.failedAccounts ?? [], p.failed) })
      : (texts.partialShared ?? texts.success);
  return { type: "warning", message, ...(reason ? { description: reason } : {}) };
}
