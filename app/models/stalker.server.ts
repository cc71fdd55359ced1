import { eq } from "drizzle-orm";
import { ACCOUNT_ERRORS } from "#api/accounts";
import type { SessionView } from "#api/sessions";
import { stalkerSessionState, type StalkerSessionStatus } from "#api/stalker";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { accountLabel, getSession, sessionMap, settledSession, startSession, stopSession, type StartResult } from "./session.server";
import { AppError } from "~/utils/app-error";
import { logEvent } from "./log.server";

/**
 * Stalker sessions as the UI and /api see them (spec 2 §4 "Stalker", §7 /api/stalker/*): the
 * `stalker` purpose of the sessions table (app/models/session.server.ts, docs/sessions.md),
 * run by jobs/processors/stalker.ts on the session host, with the card's state on top.
 */

export type StalkerStatus = StalkerSessionStatus;

/**
 * How long a start waits for the login's outcome before it answers "connecting" (the card then
 * follows live): 4 s, `SESSION_START_WAIT_MS` to change it (tests without a worker use 0).
 */
export function startWaitMs(): number {
  const raw = Number(process.env.SESSION_START_WAIT_MS ?? "4000");
  return Number.isFinite(raw) && raw >= 0 ? Math.min(raw, 30_000) : 4_000;
}

/** The card state (spec 2 §2): one rule for the model and the pages (api/stalker.ts). */
export const stalkerState = stalkerSessionState;

function withState(s: SessionView): StalkerStatus {
  return { ...s, state: stalkerState(s) };
}

export async function listStalkerStatuses(): Promise<StalkerStatus[]> {
  return [...(await sessionMap("stalker")).values()].map(withState);
}

export async function getStalkerStatus(accountId: string): Promise<StalkerStatus | null> {
  const s = await getSession("stalker", accountId);
  return s ? withState(s) : null;
}

/**
 * GET /api/stalker/active: the accounts whose stalker a live worker holds, up or connecting
 * (issue 29: never one whose holder died, nor one waiting for a worker).
 */
export async function activeStalkerIds(): Promise<string[]> {
  return [...(await sessionMap("stalker")).values()]
    .filter((s) => s.phase === "active" || s.phase === "connecting" || s.phase === "retrying")
    .map((s) => s.key)
    .sort();
}

/** Throws AppError 404 (no such user) or 400 (not of type stalker); returns the nick. */
export async function requireStalkerUser(accountId: string): Promise<string> {
  const db = await getDb();
  const [user] = await db.select({ type: users.type, nick: users.nick }).from(users).where(eq(users.accountId, accountId)).limit(1);
  if (!user) throw new AppError(404, ACCOUNT_ERRORS.userNotFound);
  if (user.type !== "stalker") throw new AppError(400, ACCOUNT_ERRORS.notStalker);
  return user.nick;
}

/**
 * POST /api/stalker/start: the stalker should run; the session host runs it. Starting a running
 * stalker changes nothing. Throws AppError 404/400, AccountHeldError 409 (another purpose holds
 * the account; `takeover` takes it), or the 503 AppError while Redis is down (nothing changed).
 * Waits up to `waitMs` for the login's outcome: the status then is active, failed (with the
 * platform's words) or still connecting.
 */
export async function startStalker(
  accountId: string,
  opts: { takeover?: boolean; waitMs?: number } = {},
): Promise<StalkerStatus & { tookOver: StartResult["tookOver"] }> {
  const nick = await requireStalkerUser(accountId);
  const { tookOver, started } = await startSession("stalker", accountId, { accountName: accountLabel(accountId, nick), takeover: opts.takeover });
  // Issue 30 B5: the same System Logs entry whoever asked (the page or /api), once per change.
  if (started) await logStalker(`Stalker ${accountLabel(accountId, nick)} started`, accountId);
  const settled = (await settledSession("stalker", accountId, opts.waitMs ?? 0))!;
  return { ...withState(settled), tookOver };
}

/**
 * POST /api/stalker/stop: stopped at once (a failure's text stays visible); its holder is told
 * and sends `QUIT :ds`. Works while Redis is down. Returns null when the account never had a
 * stalker. Throws AppError 404 (no such user) or 400 (not a stalker-type user without a session).
 */
export async function stopStalker(accountId: string): Promise<StalkerStatus | null> {
  const db = await getDb();
  const [user] = await db.select({ type: users.type, nick: users.nick }).from(users).where(eq(users.accountId, accountId)).limit(1);
  if (!user) throw new AppError(404, ACCOUNT_ERRORS.userNotFound);
  const before = await getSession("stalker", accountId);
  const stopped = await stopSession("stalker", accountId);
  if (before?.desired === "run") await logStalker(`Stalker ${accountLabel(accountId, user.nick)} stopped`, accountId);
  if (!stopped) {
    if (user.type !== "stalker") throw new AppError(400, ACCOUNT_ERRORS.notStalker);
    return null;
  }
  return withState(stopped);
}

/** An operator's start or stop in System Logs (source bot, like the runner's own entries; `/logs?account=` finds it). */
async function logStalker(message: string, accountId: string): Promise<void> {
  await logEvent({ type: "info", source: "bot", message, details: { accountId, purpose: "stalker" } });
}
