/**
 * When our own client last left each Galaxy account (sent `QUIT :ds` on a logged-in
 * connection), so every process sees it: the platform refuses a login of an account that left
 * less than 10 s ago with 452 (issue 34 item 2; galaxy-platform.md §4 "452": SAB reads the
 * text as "you can come back 10 s after leaving"). A session whose login gets 452 right after
 * our own stop, restart, drain or hand-over waits for the window to pass instead of counting it
 * as "still online or banned" (jobs/processors/supervise.ts). Decision 0042.
 *
 * One Redis key per account, `<prefix>:galaxy:logout:<accountId>` = the time in ms, living a
 * minute (far longer than the window). Best effort: Redis away means nothing is recorded and a
 * 452 is treated as the platform's plain refusal.
 */
import { queuePrefix, readyProducer } from "~/queue/redis.server";

/** How long after an account left the platform refuses its login (452) [D]: 10 s, decision 0042. */
export const RELOGIN_WINDOW_MS = 10_000;
/** Added to the window before the retry (clock differences between our workers, the platform's rounding). */
export const RELOGIN_MARGIN_MS = 1_000;

/**
 * The window this process assumes: the platform's 10 s, or GALAXY_RELOGIN_WINDOW_MS where a
 * test scales time with the simulator's SIM_RELOGIN_WINDOW_MS (the tests run with a 2–3 s
 * window, as the stalker's tests run at STALKER_TIME_SCALE; the demo and production at 10 s).
 */
export function reloginWindowMs(): number {
  const v = Number(process.env.GALAXY_RELOGIN_WINDOW_MS ?? "");
  return Number.isFinite(v) && v > 0 ? v : RELOGIN_WINDOW_MS;
}

/** The margin after the window: 1 s, or a fifth of a scaled-down window. */
export function reloginMarginMs(): number {
  return Math.min(RELOGIN_MARGIN_MS, Math.round(reloginWindowMs() / 5));
}
const KEEP_MS = 60_000;

export const logoutKey = (accountId: string) => `${queuePrefix()}:galaxy:logout:${accountId}`;

/** Records that our client sent QUIT for `accountId` at `at` (ms). Never throws. */
export async function recordLogout(accountId: string, at: number = Date.now()): Promise<void> {
  try {
    await readyProducer()?.set(logoutKey(accountId), String(at), "PX", KEEP_MS);
  } catch {
    // Redis went away: a 452 then reads as the platform's plain refusal.
  }
}

/** When our client last left `accountId` (ms), if within the last minute; null when unknown. Never throws. */
export async function lastLogoutAt(accountId: string): Promise<number | null> {
  try {
    const conn = readyProducer();
    if (!conn) return null;
    const raw = await conn.get(logoutKey(accountId));
    const at = raw === null ? NaN : Number(raw);
    return Number.isFinite(at) ? at : null;
  } catch {
    return null;
  }
}

/**
 * When a login of `accountId` should pass again after our own last logout (that logout + the
 * window + the margin), or null when no logout of ours is that recent: a 452 then is the
 * platform's own "online or banned".
 */
export async function reloginAllowedAt(accountId: string, now: number = Date.now()): Promise<number | null> {
  const left = await lastLogoutAt(accountId);
  if (left === null) return null;
  const at = left + reloginWindowMs() + reloginMarginMs();
  return at > now ? at : null;
}
