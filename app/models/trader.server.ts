import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { ACCOUNT_ERRORS } from "#api/accounts";
import type { SessionView } from "#api/sessions";
import { TRADER_MESSAGES, type SequenceStep, type TraderAt, type TraderCounts, type TraderPosition, type TraderState, type TraderStatus } from "#api/trading";
import { getDb } from "~/db/client.server";
import { planetSequences, sessions, traderSessions, users } from "~/db/schema";
import { accountLabel, getSession, idleSession, sessionMap, startSession, stopSession, type StartResult } from "./session.server";
import { AppError } from "~/utils/app-error";

/**
 * Trading runs as the UI and /api see them (issue 11 "The trading run"): the `trader` purpose of
 * the sessions table (app/models/session.server.ts, docs/sessions.md), run by
 * jobs/processors/trader.ts on the session host, with what the run keeps on top in
 * `trader_sessions`: its position (a worker taking the session over resumes there) and its
 * counts. The run's step (flying, on planet, posting, in prison) is the session's `info.step`.
 */

const ZERO: TraderCounts = { visits: 0, posts: 0, replies: 0, skipped: 0, failures: 0, rounds: 0 };
type RunRow = typeof traderSessions.$inferSelect;

/** The state beside the sequences, from the session (and the run's step while it is up). */
export function traderState(s: Pick<SessionView, "desired" | "actual" | "info"> & Partial<Pick<SessionView, "phase">>): TraderState {
  // Issue 29: up only while a live worker holds it (`phase` joins the holder's beat).
  if (s.actual === "failed") return "error";
  if (s.desired !== "run" || s.actual === "stopped") return "idle";
  if ((s.phase ?? s.actual) !== "active") return "connecting";
  const step = s.info.step;
  return step === "flying" || step === "on_planet" || step === "posting" || step === "error" ? step : "idle";
}

type SequenceInfo = { name: string; steps: SequenceStep[] };

function toStatus(accountId: string, nick: string, session: SessionView | undefined, run: RunRow | null, seqs: Map<string, SequenceInfo>): TraderStatus {
  const s = session ?? idleSession("trader", accountId);
  const position = s.desired === "run" ? (run?.position ?? null) : null;
  return { ...s, accountId, nick, state: traderState(s), counts: { ...ZERO, ...(run?.counts ?? {}) }, at: position ? traderAt(position, seqs) : null };
}

function traderAt(p: TraderPosition, seqs: Map<string, SequenceInfo>): TraderAt {
  const seq = seqs.get(p.sequenceId);
  const step = seq?.steps.find((st) => st.id === p.stepId);
  return {
    sequenceId: p.sequenceId,
    sequence: seq?.name ?? null,
    step: (seq && step ? seq.steps.indexOf(step) : p.stepIndex) + 1,
    steps: seq ? seq.steps.length : null,
    planetType: step?.planetType ?? null,
    planet: p.planetIndex + 1,
    planets: p.planets.length,
  };
}

/** The sequences the given runs are on, by id: one read for a page of cards (issue 30 A7). */
async function sequencesOf(runs: readonly (RunRow | null)[]): Promise<Map<string, SequenceInfo>> {
  const ids = [...new Set(runs.flatMap((r) => (r?.position ? [r.position.sequenceId] : [])))];
  if (!ids.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ id: planetSequences.id, name: planetSequences.name, steps: planetSequences.steps })
    .from(planetSequences)
    .where(inArray(planetSequences.id, ids));
  return new Map(rows.map((r) => [r.id, { name: r.name, steps: r.steps }]));
}

/** Every character of type trading with its run (stopped and idle when never started). */
export async function listTraderStatuses(): Promise<TraderStatus[]> {
  const db = await getDb();
  const rows = await db
    .select({ accountId: users.accountId, nick: users.nick, run: traderSessions })
    .from(users)
    .leftJoin(traderSessions, eq(traderSessions.accountId, users.accountId))
    .leftJoin(sessions, and(eq(sessions.purpose, "trader"), eq(sessions.key, users.accountId)))
    // Trading characters, and any other whose run is still started (its type changed meanwhile).
    .where(or(eq(users.type, "trading"), eq(sessions.desired, "run")))
    .orderBy(asc(users.nick), asc(users.accountId));
  const [found, seqs] = await Promise.all([
    sessionMap(
      "trader",
      rows.map((r) => r.accountId),
    ),
    sequencesOf(rows.map((r) => r.run)),
  ]);
  return rows.map((r) => toStatus(r.accountId, r.nick, found.get(r.accountId), r.run, seqs));
}

export type TraderPage = { traders: TraderStatus[]; page: number; total: number; running: number };

/**
 * One page of the trading run for the page (issue 20 "Bounded pages"): the started runs first
 * (what the operator watches), then by nick; `total` counts every row of the panel, `running`
 * the started ones over every page. A page past the end is the last one.
 */
export async function listTraderStatusesPage(page: number, per: number): Promise<TraderPage> {
  const db = await getDb();
  const started = sql<boolean>`coalesce(${sessions.desired} = 'run', false)`;
  const base = () =>
    db
      .select({ accountId: users.accountId, nick: users.nick, run: traderSessions, started })
      .from(users)
      .leftJoin(traderSessions, eq(traderSessions.accountId, users.accountId))
      .leftJoin(sessions, and(eq(sessions.purpose, "trader"), eq(sessions.key, users.accountId)))
      .where(or(eq(users.type, "trading"), eq(sessions.desired, "run")));
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int`, running: sql<number>`count(*) filter (where ${sessions.desired} = 'run')::int` })
    .from(users)
    .leftJoin(sessions, and(eq(sessions.purpose, "trader"), eq(sessions.key, users.accountId)))
    .where(or(eq(users.type, "trading"), eq(sessions.desired, "run")));
  const total = counted?.total ?? 0;
  const last = Math.max(1, Math.ceil(total / per));
  const shown = Math.min(Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1), last);
  const rows = await base()
    .orderBy(desc(started), asc(users.nick), asc(users.accountId))
    .limit(per)
    .offset((shown - 1) * per);
  const [found, seqs] = await Promise.all([
    sessionMap(
      "trader",
      rows.map((r) => r.accountId),
    ),
    sequencesOf(rows.map((r) => r.run)),
  ]);
  return {
    traders: rows.map((r) => toStatus(r.accountId, r.nick, found.get(r.accountId), r.run, seqs)),
    page: shown,
    total,
    running: counted?.running ?? 0,
  };
}

export async function getTraderStatus(accountId: string): Promise<TraderStatus | null> {
  const db = await getDb();
  const [row] = await db
    .select({ accountId: users.accountId, nick: users.nick, run: traderSessions })
    .from(users)
    .leftJoin(traderSessions, eq(traderSessions.accountId, users.accountId))
    .where(eq(users.accountId, accountId))
    .limit(1);
  if (!row) return null;
  return toStatus(row.accountId, row.nick, (await getSession("trader", accountId)) ?? undefined, row.run, await sequencesOf([row.run]));
}

/** Throws AppError 404 (no such user) or 400 (not of type trading); returns the nick. */
export async function requireTradingUser(accountId: string): Promise<string> {
  const db = await getDb();
  const [user] = await db.select({ type: users.type, nick: users.nick }).from(users).where(eq(users.accountId, accountId)).limit(1);
  if (!user) throw new AppError(404, ACCOUNT_ERRORS.userNotFound);
  if (user.type !== "trading") throw new AppError(400, TRADER_MESSAGES.notTrading);
  return user.nick;
}

/**
 * POST /api/trader/start: the run should go (a fresh run: position and counts reset unless it
 * is running already); the session host runs it. Starting a running trader changes nothing.
 * Throws AppError 404/400, AccountHeldError 409 (another purpose holds the account; `takeover`
 * takes it), or the 503 AppError while Redis is down (nothing changed).
 */
export async function startTrader(accountId: string, opts: { takeover?: boolean } = {}): Promise<TraderStatus & { tookOver: StartResult["tookOver"] }> {
  const nick = await requireTradingUser(accountId);
  const { started, tookOver } = await startSession("trader", accountId, {
    accountName: accountLabel(accountId, nick),
    takeover: opts.takeover,
    info: { step: "idle" },
  });
  if (started) {
    const db = await getDb();
    const fresh = { position: null, counts: ZERO, updatedAt: new Date() };
    await db
      .insert(traderSessions)
      .values({ accountId, ...fresh })
      .onConflictDoUpdate({ target: traderSessions.accountId, set: fresh });
  }
  return { ...(await getTraderStatus(accountId))!, tookOver };
}

/**
 * POST /api/trader/stop: stopped at once (an error that ended the run stays visible); the holder
 * is told and sends `QUIT :ds`. Works while Redis is down. Returns null when the account never
 * had a trader. Throws AppError 404, or 400 for a non-trading user without a run.
 */
export async function stopTrader(accountId: string): Promise<TraderStatus | null> {
  const db = await getDb();
  const [user] = await db.select({ type: users.type }).from(users).where(eq(users.accountId, accountId)).limit(1);
  if (!user) throw new AppError(404, ACCOUNT_ERRORS.userNotFound);
  const stopped = await stopSession("trader", accountId);
  if (!stopped) {
    if (user.type !== "trading") throw new AppError(400, TRADER_MESSAGES.notTrading);
    return null;
  }
  return getTraderStatus(accountId);
}

// --- written by the run's holder (jobs/processors/trader.ts) --------------------------------

/** The run's saved position (null: start at the first active sequence). */
export async function getTraderPosition(accountId: string): Promise<TraderPosition | null> {
  const db = await getDb();
  const [row] = await db.select({ position: traderSessions.position }).from(traderSessions).where(eq(traderSessions.accountId, accountId));
  return row?.position ?? null;
}

/**
 * Stores where the run is and adds to its counts, only while the run is still wanted (a stop
 * that arrived meanwhile wins). Returns false once it is stopped.
 */
export async function saveTraderRun(accountId: string, update: { position?: TraderPosition | null; add?: Partial<TraderCounts> }): Promise<boolean> {
  const db = await getDb();
  const set: Partial<typeof traderSessions.$inferInsert> = { updatedAt: new Date() };
  if (update.position !== undefined) set.position = update.position;
  if (update.add) {
    const parts = Object.entries(update.add).filter(([, v]) => v);
    if (parts.length) {
      let expr = sql`${traderSessions.counts}`;
      for (const [k, v] of parts) {
        expr = sql`jsonb_set(${expr}, ${`{${k}}`}::text[], to_jsonb(coalesce((${traderSessions.counts} ->> ${k})::int, 0) + ${v}::int))`;
      }
      set.counts = expr as unknown as TraderCounts;
    }
  }
  const wanted = db
    .select({ key: sessions.key })
    .from(sessions)
    .where(and(eq(sessions.purpose, "trader"), eq(sessions.desired, "run"), eq(sessions.key, accountId)));
  const rows = await db
    .update(traderSessions)
    .set(set)
    .where(and(eq(traderSessions.accountId, accountId), inArray(traderSessions.accountId, wanted)))
    .returning({ accountId: traderSessions.accountId });
  return rows.length > 0;
}
