/**
 * The ONE reconnect supervisor of every session that holds a platform connection (stalker,
 * trading run, Collections connection, each GalaCord relay connection): connect, and act on
 * how the connection ended (galaxy-runtime.md §1.3 as built, docs/sessions.md "Recovery"),
 * writing the truth as it goes — `connecting`, `reconnecting` with the attempt number, the
 * reason in the platform's words and when the next try is due, `failed` with the text:
 *
 * | ending | what happens |
 * |---|---|
 * | 451 | ends `failed` with "Login failed: Invalid credentials" |
 * | 950 | ends `failed` with "You login from another device" (only while this worker still holds the session) |
 * | 452 after our own logout < 10 s ago | `reconnecting`, the next try when the platform's window has passed (our logout + 10 s + 1 s); not a busy retry, and Collections waits too (decision 0042) |
 * | 452 | `busyRetries` retries `busyRetryMs` apart, then ends `failed` with "Login failed: User is online or banned" (`busyOnFirst: "fail"`: at once when it never was up) |
 * | a drop | `dropRetries` reconnects `dropRetryMs` apart, then doubling to `backoffMaxMs`; the count restarts after a connection that was up |
 * | the first connection fails | `firstConnect: "persist"` retries like a drop; `"give-up"` ends `failed` with the spec's connection-failed text |
 */
import { GALAXY_MESSAGES as M } from "~/galaxy/messages";
import { reloginAllowedAt } from "~/models/galaxy-logout.server";
import { pause, pauseUntil } from "~/utils/pause";
import type { SessionEnd, SessionPatch } from "#api/sessions";

export type ConnectionOutcome =
  | { kind: "aborted" }
  /** The runner ended the session itself (no longer wanted, the account is gone). */
  | { kind: "ended" }
  | { kind: "dropped"; wasOnline: boolean; why: string }
  | { kind: "refused"; code: "invalid_credentials" | "online_or_banned" | "another_device"; message: string };

export type RetryPolicy = {
  dropRetryMs: number;
  dropRetries: number;
  backoffMaxMs: number;
  busyRetryMs: number;
  busyRetries: number;
  /** The first connection: retried like a drop ("persist"), or the session ends failed ("give-up"). */
  firstConnect?: "persist" | "give-up";
  /** 452 before the connection was ever up: retried ("retry") or the session ends failed ("fail"). */
  busyOnFirst?: "retry" | "fail";
};

/** Backoff before reconnect number `n` (1-based) after unexpected closes. */
export function reconnectDelay(n: number, t: Pick<RetryPolicy, "dropRetryMs" | "dropRetries" | "backoffMaxMs">): number {
  if (n <= t.dropRetries) return t.dropRetryMs;
  return Math.min(t.dropRetryMs * 2 ** (n - t.dropRetries), t.backoffMaxMs);
}

/** What the supervisor needs of a session (a host session's context, or a sub-session's). */
export type Supervised = {
  signal: AbortSignal;
  /** "Stalker Nick", "GalaCord Nick": the start of every log line. */
  label: string;
  holdsLock(): Promise<boolean>;
  report(patch: SessionPatch): Promise<boolean>;
  end(end: SessionEnd): Promise<void>;
  log(type: "error" | "disconnect" | "info", message: string, details: Record<string, unknown>): Promise<void>;
  /** Also log every drop (the trader does; the others only show it). */
  logDrops?: boolean;
  /** The Galaxy account the connection logs in (whose own recent logout explains a 452). */
  accountId?: string | null;
  /**
   * When a login should pass again after our own last logout of the account (ms), or null when
   * no logout of ours is that recent. Default: read from Redis for `accountId`
   * (app/models/galaxy-logout.server.ts); tests hand their own.
   */
  reloginAllowedAt?: () => Promise<number | null>;
};

/** Our own logouts' windows a session waits out in a row at most (then a 452 counts as the platform's refusal). */
const MAX_OWN_WINDOW_WAITS = 3;

function ownLogoutWindow(s: Supervised): Promise<number | null> {
  if (s.reloginAllowedAt) return s.reloginAllowedAt().catch(() => null);
  return s.accountId ? reloginAllowedAt(s.accountId) : Promise.resolve(null);
}

/**
 * Runs `connect` (one connection, from open to close; it reports `active` itself once up)
 * until the session is aborted, ended, or fails for good.
 */
export async function superviseConnection(s: Supervised, policy: RetryPolicy, connect: (attempt: number) => Promise<ConnectionOutcome>): Promise<void> {
  const { signal } = s;
  let drops = 0;
  let busy = 0;
  let ownWaits = 0;
  let everUp = false;
  let attempt = 0;
  while (!signal.aborted) {
    if (!(await s.report(attempt === 0 ? { actual: "connecting", attempt: 0, nextRetryAt: null } : { actual: "reconnecting", attempt, nextRetryAt: null })))
      return; // no longer wanted
    const outcome = await connect(attempt);
    if (signal.aborted || outcome.kind === "aborted" || outcome.kind === "ended") return;
    if (outcome.kind === "refused") {
      if (outcome.code === "invalid_credentials") {
        await s.end({ actual: "failed", error: M.invalidCredentials });
        await s.log("error", `${s.label} stopped: ${M.invalidCredentials}`, { code: 451 });
        return;
      }
      if (outcome.code === "another_device") {
        // Only the holder of the session may act on it: a worker that lost its lock was
        // taken over by the new holder's own login, which is not "another device".
        if (!(await s.holdsLock())) return;
        await s.end({ actual: "failed", error: M.anotherDevice });
        await s.log("disconnect", `${s.label} stopped: ${M.anotherDevice}`, { code: 950 });
        return;
      }
      // 452 right after our own logout (a stop then a start, a restart, a drain or a hand-over
      // to another worker): the platform's "come back 10 s after leaving", not a refusal. Wait
      // for the window to pass, whatever the policy says about 452 (decision 0042).
      const allowedAt = ownWaits < MAX_OWN_WINDOW_WAITS ? await ownLogoutWindow(s) : null;
      if (allowedAt !== null && allowedAt > Date.now()) {
        ownWaits++;
        attempt++;
        const nextRetryAt = new Date(allowedAt);
        const error = `${M.onlineOrBanned}; ${M.reloginWindow}`;
        if (!(await s.report({ actual: "reconnecting", error, attempt, nextRetryAt }))) return;
        await s.log("info", `${s.label}: ${error}; next try at ${nextRetryAt.toISOString()}`, { code: 452, attempt });
        await pauseUntil(allowedAt, signal);
        continue;
      }
      busy++;
      if (busy > policy.busyRetries || (!everUp && policy.busyOnFirst === "fail")) {
        await s.end({ actual: "failed", error: M.onlineOrBanned });
        await s.log("error", `${s.label} stopped: ${M.onlineOrBanned}${busy > 1 ? ` (after ${busy - 1} retries)` : ""}`, { code: 452 });
        return;
      }
      attempt++;
      const error = `${M.onlineOrBanned}; retry ${busy} of ${policy.busyRetries}`;
      if (!(await s.report({ actual: "reconnecting", error, attempt, nextRetryAt: new Date(Date.now() + policy.busyRetryMs) }))) return;
      await pause(policy.busyRetryMs, signal);
      continue;
    }
    busy = 0;
    ownWaits = 0;
    if (outcome.wasOnline) {
      // A connection that was up starts the count afresh: the next drop is attempt 1 again.
      drops = 0;
      attempt = 0;
      everUp = true;
    }
    if (!everUp && policy.firstConnect === "give-up") {
      await s.end({ actual: "failed", error: outcome.why || M.connectionFailed });
      await s.log("error", `${s.label} could not connect: ${outcome.why || M.connectionFailed}`, {});
      return;
    }
    drops++;
    attempt++;
    const delay = reconnectDelay(drops, policy);
    const text = `${outcome.why}; reconnecting in ${Math.max(1, Math.round(delay / 1000))} s`;
    if (!(await s.report({ actual: "reconnecting", error: outcome.why, attempt, nextRetryAt: new Date(Date.now() + delay) }))) return;
    if (s.logDrops) await s.log("disconnect", `${s.label}: ${text}`, { attempt });
    await pause(delay, signal);
  }
}
