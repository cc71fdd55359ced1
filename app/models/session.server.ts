import { and, eq, inArray, isNull, ne, notInArray as notIn, or, sql, type SQL } from "drizzle-orm";
import {
  HOSTED_PURPOSES,
  PHASE_TEXTS,
  PURPOSE_LABELS,
  SESSION_TEXTS,
  sessionPhase,
  type CommandOutcome,
  type SessionActual,
  type SessionCommand,
  type SessionEnd,
  type SessionLiveness,
  type SessionPatch,
  type SessionPurpose,
  type SessionView,
} from "#api/sessions";
import { awaitLive, publishLive, type LiveMessage } from "~/queue/live.server";
import { jobEngineOffline } from "~/queue/queues.server";
import { requestSession, sendSessionControl, sessionEngineReady } from "~/queue/session-control.server";
import type { HealthResponse, HealthWorker } from "#api/jobs";
import { jobEngineDetails, workersAliveNow, type JobEngineDetails } from "~/queue/status.server";
import { getDb } from "~/db/client.server";
import { sessionCommands, sessions } from "~/db/schema";
import { alertSessionFailed, clearSessionAlert } from "./alert.server";
import { AppError } from "~/utils/app-error";

/**
 * Every background session, one shape for every purpose (issue 18; docs/sessions.md): what the
 * operator asked (`desired`), what is (`actual`, since, error, attempt, next retry, holder),
 * stored in `sessions` so any process renders it, and published on the live-events bus on
 * every change so open pages follow within a second.
 *
 * Writers:
 * - operators (routes, through the purpose models): `startSession`, `stopSession`;
 * - the session host and the runners (jobs/): `claimSession`, `reportSession`, `endSession`,
 *   `releaseSession` — a holder writes only while the session is still wanted and still its own,
 *   so a stop or a takeover always wins.
 */

type Row = typeof sessions.$inferSelect;
type Tx = Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["transaction"]>[0]>[0];

/** A row as every screen and /api shows it (exported for the Sessions page's list, issue 31). */
export function toView(row: Row, liveness: SessionLiveness | null = null): SessionView {
  const view: Omit<SessionView, "phase" | "status"> = {
    purpose: row.purpose,
    key: row.key,
    accountId: row.accountId,
    desired: row.desired,
    actual: row.actual,
    since: row.since.toISOString(),
    error: row.error,
    note: row.note,
    attempt: row.attempt,
    nextRetryAt: row.nextRetryAt ? row.nextRetryAt.toISOString() : null,
    holder: row.holder,
    holderAlive: row.holder && liveness ? liveness.alive.has(row.holder) : null,
    planet: row.planet,
    info: row.info ?? {},
  };
  return { ...view, ...sessionPhase(view, liveness) };
}

/** A stopped, never-started session (what a screen shows before the first start). */
export function idleSession(purpose: SessionPurpose, key: string, accountId: string | null = key): SessionView {
  return {
    purpose,
    key,
    accountId,
    desired: "stop",
    actual: "stopped",
    since: new Date(0).toISOString(),
    error: null,
    note: null,
    attempt: 0,
    nextRetryAt: null,
    holder: null,
    holderAlive: null,
    planet: null,
    info: {},
    phase: "stopped",
    status: PHASE_TEXTS.stopped,
  };
}

/**
 * What the views join (issue 29, decision 0027): the workers whose beat is alive — among them
 * every one of `holders` that is (the engine's list is cached for 1 s, so a holder it does not
 * name is checked fresh before its session is called orphaned) — and, per purpose, whether
 * every live worker is at its capacity. Null when Redis cannot tell.
 */
export async function sessionLiveness(holders: readonly (string | null)[] = []): Promise<SessionLiveness | null> {
  const jobs = await jobEngineDetails().catch(() => null);
  if (!jobs || jobs.redis !== "up") return null;
  const alive = new Set(jobs.workers.map((w) => w.id));
  const unknown = [...new Set(holders.filter((h): h is string => !!h && !alive.has(h)))];
  if (unknown.length) for (const id of await workersAliveNow(unknown).catch(() => new Set<string>())) alive.add(id);
  const full: SessionLiveness["full"] = {};
  for (const purpose of HOSTED_PURPOSES) {
    const hosts = jobs.workers.filter((w) => w.capacity[purpose] !== undefined);
    if (!hosts.length) continue;
    const held = hosts.reduce((n, w) => n + (w.sessions[purpose] ?? 0), 0);
    const capacity = hosts.reduce((n, w) => n + (w.capacity[purpose] ?? 0), 0);
    if (hosts.every((w) => (w.sessions[purpose] ?? 0) >= (w.capacity[purpose] ?? 0))) full[purpose] = PHASE_TEXTS.full(held, capacity);
  }
  return { alive, full };
}

function publish(row: Row, liveness: SessionLiveness | null = null) {
  publishLive("session", { scope: row.purpose, key: row.key, data: toView(row, liveness) });
}

// --- reading --------------------------------------------------------------------------------

export async function getSession(purpose: SessionPurpose, key: string): Promise<SessionView | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.purpose, purpose), eq(sessions.key, key)))
    .limit(1);
  return row ? toView(row, row.desired === "run" ? await sessionLiveness([row.holder]) : null) : null;
}

/** Sessions of a purpose (all, or those of `keys`), keyed by key. */
export async function sessionMap(purpose: SessionPurpose, keys?: readonly string[]): Promise<Map<string, SessionView>> {
  if (keys && !keys.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.purpose, purpose), keys ? inArray(sessions.key, [...keys]) : undefined));
  const live = rows.some((r) => r.desired === "run") ? await sessionLiveness(rows.map((r) => r.holder)) : null;
  return new Map(rows.map((r) => [r.key, toView(r, live)]));
}

/** The session that wants `accountId`, other than `except` (one account, one holder). */
export async function accountHolder(accountId: string, except?: { purpose: SessionPurpose; key: string }): Promise<SessionView | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.accountId, accountId), eq(sessions.desired, "run"), except ? notThis(except) : undefined))
    .limit(1);
  return row ? toView(row) : null;
}

function notThis(s: { purpose: SessionPurpose; key: string }): SQL {
  return or(ne(sessions.purpose, s.purpose), ne(sessions.key, s.key))!;
}

/**
 * For the header: the sessions asked for that no worker holds ("purpose:key"): none running,
 * all full (beyond SESSION_CONCURRENCY), or the holder died (its heartbeat expired).
 */
export async function waitingSessions(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ purpose: sessions.purpose, key: sessions.key, actual: sessions.actual, holder: sessions.holder })
    .from(sessions)
    .where(and(eq(sessions.desired, "run"), inArray(sessions.purpose, [...HOSTED_PURPOSES])));
  if (!rows.length) return [];
  const live = rows.some((r) => r.holder) ? await sessionLiveness(rows.map((r) => r.holder)) : null;
  return rows
    .filter(
      (r) => r.actual === "waiting" || (r.actual === "connecting" && r.holder === null) || (live !== null && r.holder !== null && !live.alive.has(r.holder)),
    )
    .map((r) => `${r.purpose}:${r.key}`);
}

/**
 * The header's words for the sessions no worker holds: why they wait (issue 29: "all workers
 * are full (N of M)", a worker lost, none running), or null when none waits.
 */
export async function waitingSummary(): Promise<{ keys: string[]; text: string | null }> {
  const keys = await waitingSessions();
  if (!keys.length) return { keys, text: null };
  const live = await sessionLiveness();
  const purposes = new Set(keys.map((k) => k.slice(0, k.indexOf(":")) as SessionPurpose));
  const full = [...purposes].map((p) => live?.full[p]).find(Boolean);
  const text = live && live.alive.size === 0 ? PHASE_TEXTS.noWorker : (full ?? null);
  return { keys, text };
}

/**
 * /api/health's workers (issue 29): alive ones, then the recently lost with how many of the
 * sessions they held still wait for a worker; and the sessions no live worker holds, with why.
 */
export async function healthWorkers(jobs: JobEngineDetails, dbOk: boolean): Promise<Pick<HealthResponse, "workers" | "sessions">> {
  const orphaned = new Map<string, number>();
  if (dbOk && jobs.lost.length) {
    const db = await getDb();
    const rows = await db
      .select({ holder: sessions.holder, n: sql<number>`count(*)::int` })
      .from(sessions)
      .where(
        and(
          eq(sessions.desired, "run"),
          inArray(
            sessions.holder,
            jobs.lost.map((w) => w.id),
          ),
        ),
      )
      .groupBy(sessions.holder);
    for (const r of rows) if (r.holder) orphaned.set(r.holder, r.n);
  }
  const workers: HealthWorker[] = [...jobs.workers, ...jobs.lost].map((w) => {
    const waiting = orphaned.get(w.id) ?? 0;
    return {
      id: w.id,
      host: w.host,
      pid: w.pid,
      mode: w.mode,
      startedAt: w.startedAt,
      state: w.state,
      beatAgeSeconds: Math.round(w.beatAgeMs / 100) / 10,
      sessions: w.sessions,
      capacity: w.capacity,
      ...(w.lostAt ? { lostAt: w.lostAt } : {}),
      status:
        w.state === "alive"
          ? "Alive"
          : waiting
            ? `Worker lost · ${waiting} session${waiting === 1 ? "" : "s"} waiting for a worker`
            : "Worker lost; its sessions moved",
    };
  });
  const summary = dbOk && jobs.redis === "up" ? await waitingSummary() : { keys: [], text: null };
  const status = summary.keys.length ? (orphaned.size ? PHASE_TEXTS.workerLost : (summary.text ?? PHASE_TEXTS.waiting)) : null;
  return { workers, sessions: { waiting: summary.keys.length, status } };
}

/**
 * Sessions wanted and held by one of `workers` (the beat watcher: their holder just died), as
 * the screens must now show them, published on the live bus. Returns how many.
 */
export async function publishHolderLoss(workers: readonly string[]): Promise<number> {
  if (!workers.length) return 0;
  const db = await getDb();
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.desired, "run"), inArray(sessions.holder, [...workers])));
  if (!rows.length) return 0;
  const live = await sessionLiveness();
  // Redis said these are dead a moment ago; a null answer must not make them look alive.
  const liveness: SessionLiveness = live ?? { alive: new Set(), full: {} };
  for (const id of workers) (liveness.alive as Set<string>).delete(id);
  for (const row of rows) publish(row, liveness);
  return rows.length;
}

// --- one account, one holder ----------------------------------------------------------------

/** A start refused because another purpose holds the account (409; the UI offers "Take over"). */
export class AccountHeldError extends AppError {
  constructor(
    readonly holder: SessionView,
    readonly account: string,
  ) {
    // The /api answer names the holder (docs/sessions.md): send `takeover: true` to take it over.
    const { purpose, key, accountId, actual, since } = holder;
    super(409, SESSION_TEXTS.held(account, holder.purpose), { body: { holder: { purpose, key, accountId, actual, since } } });
    this.name = "AccountHeldError";
  }
}

/** "Nick (12345678)" or the bare id. */
export function accountLabel(accountId: string, nick?: string | null): string {
  return nick ? `${nick} (${accountId})` : accountId;
}

/**
 * Makes the other holder of `accountId` give it up for `by`: its session is stopped with the
 * note "Taken over by …" (its screen says so) and told to end; resolves once its holder let go
 * (it sent QUIT), at most `waitMs`. Returns the session taken over, or null when none held it.
 */
export async function takeOverAccount(
  accountId: string,
  by: { purpose: SessionPurpose; key: string } | null,
  waitMs = 8_000,
  byLabel?: string,
): Promise<SessionView | null> {
  const db = await getDb();
  const taken = await db.transaction((tx) => stopHolderOf(tx, accountId, by, byLabel));
  if (!taken) return null;
  publish(taken);
  await sendSessionControl(taken.purpose, taken.key, "stop");
  await waitForRelease(taken.purpose, taken.key, waitMs);
  return toView(taken);
}

async function stopHolderOf(tx: Tx, accountId: string, by: { purpose: SessionPurpose; key: string } | null, byLabel?: string): Promise<Row | null> {
  const [row] = await tx
    .update(sessions)
    .set({
      desired: "stop",
      actual: "stopped",
      note: byLabel ? `Taken over by ${byLabel}` : by ? SESSION_TEXTS.takenOverBy(by.purpose) : "Taken over by another sign-in",
      error: null,
      attempt: 0,
      nextRetryAt: null,
      since: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(sessions.accountId, accountId), eq(sessions.desired, "run"), by ? notThis(by) : undefined))
    .returning();
  return row ?? null;
}

/** A live event about this session (its row changed). */
const aboutSession = (purpose: SessionPurpose, key: string) => (m: LiveMessage) => m.topic === "session" && m.scope === purpose && m.key === key;

/** Waits until no worker holds the session any more (its runner ended and sent QUIT): read again on each of its live events. */
async function waitForRelease(purpose: SessionPurpose, key: string, waitMs: number) {
  const db = await getDb();
  await awaitLive(
    aboutSession(purpose, key),
    async () => {
      const [row] = await db
        .select({ holder: sessions.holder })
        .from(sessions)
        .where(and(eq(sessions.purpose, purpose), eq(sessions.key, key)));
      return row?.holder ? undefined : true;
    },
    waitMs,
  );
}

/**
 * The `beforeLogin` of a recovery-code sign-in (signInOnce): the account is known after
 * REGISTER, before USER would kick its other session. Refuses (AccountHeldError) when another
 * purpose holds it, unless `takeover`: then that one is stopped first. `by` is the session the
 * sign-in is for (null: a sign-in of its own, e.g. adding a user).
 */
export function signInGuard(by: { purpose: SessionPurpose; key?: string } | null, opts: { takeover?: boolean; byLabel?: string } = {}) {
  return async (account: { id: string; nick: string }) => {
    const me = by ? { purpose: by.purpose, key: by.key ?? account.id } : undefined;
    const holder = await accountHolder(account.id, me);
    if (!holder) return;
    if (!opts.takeover) throw new AccountHeldError(holder, accountLabel(account.id, account.nick));
    await takeOverAccount(account.id, me ?? null, 8_000, opts.byLabel);
  };
}

// --- operators ------------------------------------------------------------------------------

export type StartOptions = {
  /** The Galaxy account it logs in (null: none). Default: the key. */
  accountId?: string | null;
  /** How the account is named in messages ("Nick (12345678)"). */
  accountName?: string;
  /** Take the account over from another purpose holding it. */
  takeover?: boolean;
  /** A fresh run even when it is running (the trader resets its counts). */
  restart?: boolean;
  /** Only write the row (the session lives inside another one: `relay-link`). */
  hosted?: boolean;
  /** Written when the session (re)starts. */
  info?: Record<string, unknown>;
  /** A sub-session's first state (default: waiting for a job, connecting without one). */
  initial?: "waiting" | "connecting" | "stopped";
  /** Written with it (e.g. why a sub-session cannot connect yet). */
  note?: string | null;
};

export type StartResult = { session: SessionView; tookOver: SessionView | null; started: boolean };

/**
 * The operator wants the session to run. Refuses (AccountHeldError, 409) when another purpose
 * holds the account, unless `takeover`: then that one is stopped first ("Taken over by …") and
 * this start waits (≤ 8 s) until it let go, so the platform never sees a kick. Starting a
 * running session changes nothing. While Redis is down: the 503 AppError, nothing changed.
 */
export async function startSession(purpose: SessionPurpose, key: string, opts: StartOptions = {}): Promise<StartResult> {
  const accountId = opts.accountId === undefined ? key : opts.accountId;
  const hosted = opts.hosted ?? (HOSTED_PURPOSES as readonly string[]).includes(purpose);
  if (hosted && !(await sessionEngineReady())) throw jobEngineOffline();
  const db = await getDb();
  const me = { purpose, key };
  let tookOver: SessionView | null = null;
  if (accountId) {
    const holder = await accountHolder(accountId, me);
    if (holder && !opts.takeover) throw new AccountHeldError(holder, opts.accountName ?? accountId);
    if (holder) tookOver = await takeOverAccount(accountId, me);
  }
  const [before] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.purpose, purpose), eq(sessions.key, key)));
  const running = !!before && before.desired === "run" && before.actual !== "failed" && before.actual !== "stopped";
  let row: Row;
  const taken: { late: Row | null } = { late: null };
  try {
    row = await db.transaction(async (tx) => {
      if (accountId) {
        // A holder that appeared meanwhile (another start racing this one) is refused or taken over too.
        const late = await tx
          .select()
          .from(sessions)
          .where(and(eq(sessions.accountId, accountId), eq(sessions.desired, "run"), notThis(me)))
          .limit(1);
        if (late[0] && !opts.takeover) throw new AccountHeldError(toView(late[0]), opts.accountName ?? accountId);
        if (late[0]) taken.late = await stopHolderOf(tx, accountId, me);
      }
      const fresh = {
        desired: "run" as const,
        actual: (opts.initial ?? (hosted ? "waiting" : "connecting")) as SessionActual,
        error: null,
        note: opts.note ?? null,
        attempt: 0,
        nextRetryAt: null,
        planet: null,
        since: new Date(),
        updatedAt: new Date(),
        ...(opts.info ? { info: opts.info } : {}),
      };
      const values = running && !opts.restart ? { desired: "run" as const, updatedAt: new Date() } : fresh;
      const [r] = await tx
        .insert(sessions)
        .values({ purpose, key, accountId, ...fresh })
        .onConflictDoUpdate({ target: [sessions.purpose, sessions.key], set: { ...values, accountId } })
        .returning();
      return r!;
    });
  } catch (err) {
    // The unique index caught a race the checks above did not: another session took the account.
    if (accountId && isUniqueViolation(err)) {
      const holder = await accountHolder(accountId, me);
      if (holder) throw new AccountHeldError(holder, opts.accountName ?? accountId);
    }
    throw err;
  }
  if (hosted) {
    try {
      await requestSession(purpose, key);
    } catch (err) {
      // Redis went away between the check and the add: put the row back as it was.
      if (!running) {
        if (before)
          await db
            .update(sessions)
            .set(before)
            .where(and(eq(sessions.purpose, purpose), eq(sessions.key, key)));
        else await db.delete(sessions).where(and(eq(sessions.purpose, purpose), eq(sessions.key, key)));
      }
      throw err;
    }
  }
  if (taken.late) {
    publish(taken.late);
    await sendSessionControl(taken.late.purpose, taken.late.key, "stop");
    tookOver ??= toView(taken.late);
  }
  publish(row);
  return { session: toView(row), tookOver, started: !running };
}

/**
 * A start answers what it knows: waits up to `waitMs` for the session to be up (`active`) or
 * to have failed, and returns it as it is then (still connecting after the wait is a fine answer).
 */
export async function settledSession(purpose: SessionPurpose, key: string, waitMs: number): Promise<SessionView | null> {
  let last: SessionView | null = null;
  const settled = await awaitLive(
    aboutSession(purpose, key),
    async () => {
      last = await getSession(purpose, key);
      return !last || last.actual === "active" || last.actual === "failed" || last.actual === "stopped" ? { view: last } : undefined;
    },
    waitMs,
  );
  return settled ? settled.view : last;
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string; cause?: { code?: string } } | null)?.code ?? (err as { cause?: { code?: string } } | null)?.cause?.code;
  return code === "23505";
}

/**
 * The operator stops it: desired stop and shown stopped at once (a failure's text stays), then
 * the holder is told (control channel; it also polls) and sends QUIT. Works while Redis is
 * down. Returns the session, or null when it never existed.
 */
export async function stopSession(purpose: SessionPurpose, key: string, opts: { note?: string | null } = {}): Promise<SessionView | null> {
  const db = await getDb();
  const [row] = await db
    .update(sessions)
    .set({
      desired: "stop",
      actual: sql`case when ${sessions.actual} = 'failed' then 'failed' else 'stopped' end` as unknown as SessionActual,
      attempt: 0,
      nextRetryAt: null,
      note: opts.note ?? null,
      since:
        sql`case when ${sessions.actual} in ('failed', 'stopped') and ${sessions.desired} = 'stop' then ${sessions.since} else now() end` as unknown as Date,
      updatedAt: new Date(),
    })
    // Already stopped: nothing changes (a takeover's note or a failure's text stays).
    .where(and(eq(sessions.purpose, purpose), eq(sessions.key, key), or(eq(sessions.desired, "run"), notIn(sessions.actual, ["stopped", "failed"]))))
    .returning();
  await sendSessionControl(purpose, key, "stop");
  if (row) {
    publish(row);
    return toView(row);
  }
  return getSession(purpose, key);
}

/**
 * The sessions of a purpose held inside another one (GalaCord's relay connections) show
 * stopped, with `note`, when their host stops: still wanted, not running.
 */
export async function settleHostedSessions(purpose: SessionPurpose, note: string | null): Promise<void> {
  const db = await getDb();
  const rows = await db
    .update(sessions)
    .set({ actual: "stopped", holder: null, planet: null, note, attempt: 0, nextRetryAt: null, since: new Date(), updatedAt: new Date() })
    .where(and(eq(sessions.purpose, purpose), notIn(sessions.actual, ["stopped", "failed"])))
    .returning();
  for (const row of rows) publish(row);
}

/** Removes the session's row (its account was deleted); a running one is stopped first. */
export async function deleteSession(purpose: SessionPurpose, key: string): Promise<void> {
  const db = await getDb();
  const [row] = await db
    .delete(sessions)
    .where(and(eq(sessions.purpose, purpose), eq(sessions.key, key)))
    .returning();
  if (!row) return;
  publish({ ...row, desired: "stop", actual: "stopped", holder: null });
  if (row.desired === "run") await sendSessionControl(purpose, key, "stop");
}

// --- holders (the session host and the runners) ---------------------------------------------

/**
 * A worker takes the session: holder = it, actual connecting. False when it is no longer
 * wanted (stopped meanwhile): the job ends without connecting.
 */
export async function claimSession(purpose: SessionPurpose, key: string, holder: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .update(sessions)
    .set({
      holder,
      actual: "connecting",
      nextRetryAt: null,
      // Taken from another worker (its holder died or let go of its lock): "Moving to worker …"
      // until it is up (issue 29). The SET reads the row's old holder.
      info: sql`case when ${sessions.holder} is not null and ${sessions.holder} <> ${holder} then ${sessions.info} || jsonb_build_object('movedFrom', ${sessions.holder}) else ${sessions.info} - 'movedFrom' end` as unknown as Record<
        string,
        unknown
      >,
      since: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(sessions.purpose, purpose), eq(sessions.key, key), eq(sessions.desired, "run")))
    .returning();
  if (row) publish(row);
  return !!row;
}

/**
 * The holder reports what is, only while the session is still wanted and still its own (a stop
 * or a takeover always wins). `since` moves only when `actual` changes; `info` is merged.
 * Returns false when the session is no longer wanted (the runner should end).
 */
export async function reportSession(purpose: SessionPurpose, key: string, holder: string | null, patch: SessionPatch): Promise<boolean> {
  const db = await getDb();
  const set: Partial<typeof sessions.$inferInsert> = { updatedAt: new Date() };
  if (patch.actual) {
    set.actual = patch.actual;
    set.since = sql`case when ${sessions.actual} = ${patch.actual} then ${sessions.since} else now() end` as unknown as Date;
    if (patch.actual === "active") {
      set.attempt = 0;
      set.nextRetryAt = null;
      // Up on its new worker: no longer moving (issue 29).
      if (!patch.info) set.info = sql`${sessions.info} - 'movedFrom'` as unknown as Record<string, unknown>;
    }
  }
  if (patch.error !== undefined) set.error = patch.error;
  if (patch.attempt !== undefined) set.attempt = patch.attempt;
  if (patch.nextRetryAt !== undefined) set.nextRetryAt = patch.nextRetryAt;
  if (patch.planet !== undefined) set.planet = patch.planet;
  if (patch.info)
    set.info = sql`(${sessions.info} || ${JSON.stringify(patch.info)}::jsonb)${patch.actual === "active" ? sql` - 'movedFrom'` : sql``}` as unknown as Record<
      string,
      unknown
    >;
  if (holder !== null) set.holder = holder;
  const [row] = await db
    .update(sessions)
    .set(set)
    .where(
      and(
        eq(sessions.purpose, purpose),
        eq(sessions.key, key),
        eq(sessions.desired, "run"),
        holder !== null ? or(eq(sessions.holder, holder), isNull(sessions.holder)) : undefined,
      ),
    )
    .returning();
  if (row) publish(row);
  // Up again: a failure alert of this session gets its one "back to normal" (issue 31).
  if (row && patch.actual === "active") clearSessionAlert(purpose, key);
  return !!row;
}

/**
 * The runner ends the session by itself (451, 950, 452 after its retries, the account gone):
 * desired stop, `failed` with the platform's text (or `stopped` with a note). Only its holder
 * (or anyone when `holder` is null) may; a session stopped meanwhile keeps the operator's stop.
 */
export async function endSession(purpose: SessionPurpose, key: string, holder: string | null, end: SessionEnd): Promise<void> {
  const db = await getDb();
  const [row] = await db
    .update(sessions)
    .set({
      desired: "stop",
      actual: end.actual,
      error: end.error ?? null,
      note: end.note ?? null,
      attempt: 0,
      nextRetryAt: null,
      planet: null,
      holder: null,
      since: new Date(),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(sessions.purpose, purpose),
        eq(sessions.key, key),
        eq(sessions.desired, "run"),
        holder !== null ? or(eq(sessions.holder, holder), isNull(sessions.holder)) : undefined,
      ),
    )
    .returning();
  if (row) publish(row);
  // Failed and will not retry (451, 452 after its retries, 950, the server down): the operators are told (issue 31).
  if (row && row.actual === "failed") alertSessionFailed(row);
}

/**
 * The holder lets go (its runner returned): `stopped` after a stop (the holder and planet are
 * cleared), `handed-back` on shutdown (waiting for the next worker), `lock-lost` changes
 * nothing (the new holder writes).
 */
export async function releaseSession(purpose: SessionPurpose, key: string, holder: string, how: "stopped" | "handed-back" | "lock-lost"): Promise<void> {
  if (how === "lock-lost") return;
  const db = await getDb();
  const mine = and(eq(sessions.purpose, purpose), eq(sessions.key, key), eq(sessions.holder, holder));
  const [row] =
    how === "handed-back"
      ? await db
          .update(sessions)
          .set({
            holder: null,
            actual: sql`case when ${sessions.desired} = 'run' then 'waiting' else ${sessions.actual} end` as unknown as SessionActual,
            since: new Date(),
            updatedAt: new Date(),
          })
          .where(mine)
          .returning()
      : await db
          .update(sessions)
          .set({
            holder: null,
            planet: null,
            // A runner that returned on its own while still wanted (nothing to do) shows stopped.
            actual:
              sql`case when ${sessions.desired} = 'run' or ${sessions.actual} in ('failed', 'stopped') then ${sessions.actual} else 'stopped' end` as unknown as SessionActual,
            updatedAt: new Date(),
          })
          .where(mine)
          .returning();
  if (row) publish(row);
}

/** Keys of a purpose that should run (restore, reconcile). */
export async function wantedKeys(purpose: SessionPurpose): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ key: sessions.key })
    .from(sessions)
    .where(and(eq(sessions.purpose, purpose), eq(sessions.desired, "run")));
  return rows.map((r) => r.key);
}

/** How many sessions the host runs should run (the workers share them). */
export async function wantedCount(purposes: readonly SessionPurpose[]): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(and(inArray(sessions.purpose, [...purposes]), eq(sessions.desired, "run")));
  return row?.n ?? 0;
}

/** What the operator wants for these sessions (the holder's poll; a missing row is "stop"). */
export async function desiredOf(purpose: SessionPurpose, keys: readonly string[]): Promise<Map<string, "run" | "stop">> {
  if (!keys.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ key: sessions.key, desired: sessions.desired })
    .from(sessions)
    .where(and(eq(sessions.purpose, purpose), inArray(sessions.key, [...keys])));
  return new Map(rows.map((r) => [r.key, r.desired]));
}

/**
 * Started again and waiting for a worker (desired run, actual waiting): what a start writes. The
 * session host runs a session again when this is true as its job ends (decision 0028, item 4).
 */
export async function wantedAgain(purpose: SessionPurpose, key: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ desired: sessions.desired, actual: sessions.actual })
    .from(sessions)
    .where(and(eq(sessions.purpose, purpose), eq(sessions.key, key)));
  return row?.desired === "run" && row.actual === "waiting";
}

// --- commands -------------------------------------------------------------------------------

/**
 * Runs a command on the live session, wherever it is held: a row, a wake over the control
 * channel, then the result as the holder wrote it (at most `waitMs`; then 504 `timeoutText`).
 */
export async function runSessionCommand(
  purpose: SessionPurpose,
  key: string,
  kind: string,
  arg: unknown,
  opts: { waitMs?: number; timeoutText: string },
): Promise<unknown> {
  const db = await getDb();
  const [cmd] = await db.insert(sessionCommands).values({ purpose, key, kind, arg }).returning({ id: sessionCommands.id });
  const id = cmd!.id;
  // The holder's answer arrives as a live event (finishCommand): the row is read then, not on a timer.
  const answered = awaitLive(
    (m) => m.topic === "command" && m.key === String(id),
    async () => {
      const [row] = await db.select().from(sessionCommands).where(eq(sessionCommands.id, id));
      return !row || row.status === "done" || row.status === "failed" ? { row } : undefined;
    },
    opts.waitMs ?? 20_000,
  );
  answered.catch(() => {}); // awaited below; not unhandled while the wake is sent
  await sendSessionControl(purpose, key, "wake");
  const outcome = await answered;
  const row = outcome?.row;
  if (row?.status === "done") return row.result;
  if (row?.status === "failed") {
    const r = (row.result ?? {}) as { status?: number; message?: string };
    throw new AppError(r.status ?? 409, r.message ?? opts.timeoutText);
  }
  await db
    .update(sessionCommands)
    .set({ status: "failed", result: { status: 504, message: opts.timeoutText }, doneAt: new Date() })
    .where(and(eq(sessionCommands.id, id), inArray(sessionCommands.status, ["pending", "running"])));
  throw new AppError(504, opts.timeoutText);
}

/** The holder claims the pending commands of its sessions (each exactly once). */
export async function claimCommands(purpose: SessionPurpose, keys: readonly string[]): Promise<SessionCommand[]> {
  if (!keys.length) return [];
  const db = await getDb();
  // Commands older than a minute were given up by their caller.
  await db
    .update(sessionCommands)
    .set({ status: "failed", result: { status: 504, message: "Timed out" }, doneAt: new Date() })
    .where(and(eq(sessionCommands.status, "pending"), sql`${sessionCommands.createdAt} < now() - interval '1 minute'`));
  const rows = await db
    .update(sessionCommands)
    .set({ status: "running" })
    .where(and(eq(sessionCommands.purpose, purpose), inArray(sessionCommands.key, [...keys]), eq(sessionCommands.status, "pending")))
    .returning();
  return rows.sort((a, b) => a.id - b.id).map((r) => ({ id: r.id, purpose: r.purpose, key: r.key, kind: r.kind, arg: r.arg }));
}

export async function finishCommand(id: number, outcome: CommandOutcome): Promise<void> {
  const db = await getDb();
  await db
    .update(sessionCommands)
    .set(
      outcome.ok
        ? { status: "done", result: (outcome.result ?? null) as unknown, doneAt: new Date() }
        : { status: "failed", result: { status: outcome.status, message: outcome.message }, doneAt: new Date() },
    )
    .where(and(eq(sessionCommands.id, id), eq(sessionCommands.status, "running")));
  // The request waiting for it (runSessionCommand, in whichever web process) reads it now.
  publishLive("command", { key: String(id) });
  // Old finished commands are of no use to anyone.
  await db.delete(sessionCommands).where(and(ne(sessionCommands.status, "pending"), sql`${sessionCommands.createdAt} < now() - interval '1 hour'`));
}

/** "the stalker" etc., for messages. */
export function purposeLabel(purpose: SessionPurpose): string {
  return PURPOSE_LABELS[purpose];
}
