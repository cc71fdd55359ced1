/**
 * The reconnect loop shared by the session runners that hold one platform connection per
 * account (stalker, trader): load the credentials, connect, and act on how the connection
 * ended (galaxy-runtime.md §1.3 as built, docs/stalker.md "Recovery"):
 *
 * | ending | what happens |
 * |---|---|
 * | 451 | ends with "Login failed: Invalid credentials" |
 * | 950 | ends with "You login from another device" (only while this worker holds the session) |
 * | 452 | `busyRetries` retries `busyRetryMs` apart, then ends with "Login failed: User is online or banned" |
 * | a drop | `dropRetries` reconnects `dropRetryMs` apart, then doubling to `backoffMaxMs`; the count restarts after a connection that was up |
 *
 * Each runner keeps its own state names and texts through the hooks.
 */
import { GALAXY_MESSAGES as M } from "~/galaxy/messages";
import type { UserCredentials } from "~/models/user.server";
import { pause } from "~/utils/pause";
import type { SessionContext } from "../session-host.server";

export type ConnectionOutcome =
  | { kind: "aborted" }
  | { kind: "dropped"; wasOnline: boolean; why: string }
  | { kind: "refused"; code: "invalid_credentials" | "online_or_banned" | "another_device"; message: string };

export type RetryTimings = { dropRetryMs: number; dropRetries: number; backoffMaxMs: number; busyRetryMs: number; busyRetries: number };

/** Backoff before reconnect number `n` (1-based) after unexpected closes. */
export function reconnectDelay(n: number, t: Pick<RetryTimings, "dropRetryMs" | "dropRetries" | "backoffMaxMs">): number {
  if (n <= t.dropRetries) return t.dropRetryMs;
  return Math.min(t.dropRetryMs * 2 ** (n - t.dropRetries), t.backoffMaxMs);
}

type LogType = "error" | "disconnect";

export type SuperviseHooks = {
  /** "Stalker", "Trader": the start of every log line. */
  label: string;
  /** Before each attempt: the credentials, having reported the attempt; null ends the session (user deleted, stopped meanwhile). */
  begin(): Promise<UserCredentials | null>;
  connect(creds: UserCredentials): Promise<ConnectionOutcome>;
  /** The session ends after a refused login, with the spec's text. */
  end(code: "invalid_credentials" | "another_device" | "online_or_banned", error: string): Promise<void>;
  /** Shown while waiting before the next attempt. */
  waiting(error: string): Promise<void>;
  log(type: LogType, message: string, details: Record<string, unknown>): Promise<void>;
  /** Also log every drop (the trader does; the stalker only shows it). */
  logDrops?: boolean;
};

export async function superviseConnection(ctx: SessionContext, t: RetryTimings, hooks: SuperviseHooks): Promise<void> {
  const { signal } = ctx;
  let drops = 0;
  let busy = 0;
  while (!signal.aborted) {
    const creds = await hooks.begin();
    if (!creds) return;
    const outcome = await hooks.connect(creds);
    if (signal.aborted || outcome.kind === "aborted") return;
    if (outcome.kind === "refused") {
      if (outcome.code === "invalid_credentials") {
        await hooks.end("invalid_credentials", M.invalidCredentials);
        await hooks.log("error", `${hooks.label} ${creds.nick} stopped: ${M.invalidCredentials}`, { code: 451 });
        return;
      }
      if (outcome.code === "another_device") {
        // Only the holder of the session may act on it: a worker that lost its lock was
        // taken over by the new holder's own login, which is not "another device".
        if (!(await ctx.holdsLock())) return;
        await hooks.end("another_device", M.anotherDevice);
        await hooks.log("disconnect", `${hooks.label} ${creds.nick} stopped: ${M.anotherDevice}`, { code: 950 });
        return;
      }
      busy++;
      if (busy > t.busyRetries) {
        await hooks.end("online_or_banned", M.onlineOrBanned);
        await hooks.log("error", `${hooks.label} ${creds.nick} stopped: ${M.onlineOrBanned} (after ${t.busyRetries} retries)`, { code: 452 });
        return;
      }
      await hooks.waiting(`${M.onlineOrBanned}; retry ${busy} of ${t.busyRetries}`);
      await pause(t.busyRetryMs, signal);
      continue;
    }
    busy = 0;
    if (outcome.wasOnline) drops = 0;
    drops++;
    const delay = reconnectDelay(drops, t);
    const text = `${outcome.why}; reconnecting in ${Math.round(delay / 1000)} s`;
    await hooks.waiting(text);
    if (hooks.logDrops) await hooks.log("disconnect", `${hooks.label} ${creds.nick}: ${text}`, {});
    await pause(delay, signal);
  }
}
