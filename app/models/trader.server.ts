import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { ACCOUNT_ERRORS } from "#api/accounts";
import { TRADER_MESSAGES, type TraderCounts, type TraderPosition, type TraderState, type TraderStatus } from "#api/trading";
import { jobEngineOffline } from "#jobs/queues.server";
import { registerDesiredLookup, registerDesiredReader, requestSession, sessionEngineReady, signalStop } from "#jobs/session-host.server";
import { getDb } from "~/db/client.server";
import { traderSessions, users } from "~/db/schema";
import { UserError } from "./user.server";

/**
 * Trader sessions as the UI and /api see them (issue 11 "The trading run"). The run itself is
 * held by the session host (jobs/processors/trader.ts, queue `trader`, job `trader-<id>`);
 * this module is the state it writes and every process reads: `desired` (what the operator
 * asked), `state` (idle, flying, on_planet, posting, error), and `position` (where the run
 * is, so a worker taking the session over resumes there).
 */

const ZERO: TraderCounts = { visits: 0, posts: 0, replies: 0, skipped: 0, failures: 0, rounds: 0 };
type Row = typeof traderSessions.$inferSelect;

function toStatus(accountId: string, nick: string, row: Row | null): TraderStatus {
  return {
    accountId,
    nick,
    desired: row?.desired ?? "stopped",
    state: row?.state ?? "idle",
    planet: row?.planet ?? null,
    error: row?.error ?? null,
    since: row ? row.since.toISOString() : null,
    worker: row?.worker ?? null,
    counts: { ...ZERO, ...(row?.counts ?? {}) },
  };
}

/** Every character of type trading with its trader state (stopped and idle when never started). */
export async function listTraderStatuses(): Promise<TraderStatus[]> {
  const db = await getDb();
  const rows = await db
    .select({ accountId: users.accountId, nick: users.nick, session: traderSessions })
    .from(users)
    .leftJoin(traderSessions, eq(traderSessions.accountId, users.accountId))
    // Trading characters, and any other whose run is still started (its type changed meanwhile).
    .where(or(eq(users.type, "trading"), eq(traderSessions.desired, "started")))
    .orderBy(asc(users.nick), asc(users.accountId));
  return rows.map((r) => toStatus(r.accountId, r.nick, r.session));
}

export async function getTraderStatus(accountId: string): Promise<TraderStatus | null> {
  const db = await getDb();
  const [row] = await db
    .select({ accountId: users.accountId, nick: users.nick, session: traderSessions })
    .from(users)
    .leftJoin(traderSessions, eq(traderSessions.accountId, users.accountId))
    .where(eq(users.accountId, accountId))
    .limit(1);
  return row ? toStatus(row.accountId, row.nick, row.session) : null;
}

/** Throws UserError 404 (no such user) or 400 (not of type trading). */
export async function requireTradingUser(accountId: string): Promise<void> {
  const db = await getDb();
  const [user] = await db.select({ type: users.type }).from(users).where(eq(users.accountId, accountId)).limit(1);
  if (!user) throw new UserError(404, ACCOUNT_ERRORS.userNotFound);
  if (user.type !== "trading") throw new UserError(400, TRADER_MESSAGES.notTrading);
}

/**
 * POST /api/trader/start: marks the trader started (a fresh run: position and counts reset
 * unless it is running already) and asks the session host for its session. Starting a
 * running trader changes nothing. Throws UserError 404/400, or the 503 Response while Redis
 * is down (nothing changed).
 */
export async function startTrader(accountId: string): Promise<TraderStatus> {
  await requireTradingUser(accountId);
  if (!(await sessionEngineReady())) throw jobEngineOffline();
  const db = await getDb();
  const [before] = await db.select().from(traderSessions).where(eq(traderSessions.accountId, accountId));
  const running = before?.desired === "started";
  if (!running) {
    const fresh = {
      desired: "started" as const,
      state: "idle" as const,
      planet: null,
      error: null,
      worker: null,
      position: null,
      counts: ZERO,
      since: new Date(),
      updatedAt: new Date(),
    };
    await db
      .insert(traderSessions)
      .values({ accountId, ...fresh })
      .onConflictDoUpdate({ target: traderSessions.accountId, set: fresh });
  }
  try {
    await requestSession("trader", accountId, "start");
  } catch (err) {
    if (!running) {
      if (before) await db.update(traderSessions).set(before).where(eq(traderSessions.accountId, accountId));
      else await db.delete(traderSessions).where(eq(traderSessions.accountId, accountId));
    }
    throw err;
  }
  return (await getTraderStatus(accountId))!;
}

/**
 * POST /api/trader/stop: desired = stopped and idle at once (an error that ended the run stays visible), then
 * the holder is told (it also polls `desired`) and sends `QUIT :ds`. Works while Redis is
 * down. Returns null when the account never had a trader. Throws UserError 404, or 400 for a
 * non-trading user without a trader row.
 */
export async function stopTrader(accountId: string): Promise<TraderStatus | null> {
  const db = await getDb();
  const [user] = await db.select({ type: users.type }).from(users).where(eq(users.accountId, accountId)).limit(1);
  if (!user) throw new UserError(404, ACCOUNT_ERRORS.userNotFound);
  const [before] = await db.select().from(traderSessions).where(eq(traderSessions.accountId, accountId));
  if (!before) {
    if (user.type !== "trading") throw new UserError(400, TRADER_MESSAGES.notTrading);
    return null;
  }
  if (before.desired === "started") {
    // A running trader's passing error (reconnecting…) goes with it; an error that ended the
    // run on its own (451, 950) was written with desired = stopped and stays visible.
    await db
      .update(traderSessions)
      .set({ desired: "stopped", state: "idle", planet: null, error: null, since: new Date(), updatedAt: new Date() })
      .where(eq(traderSessions.accountId, accountId));
  }
  await signalStop("trader", accountId);
  return getTraderStatus(accountId);
}

// --- written by the session's holder (jobs/processors/trader.ts) -------------------------

export type TraderHolderUpdate = {
  state: TraderState;
  planet?: string | null;
  error?: string | null;
  worker?: string | null;
  position?: TraderPosition | null;
  /** Added to the run's counts. */
  add?: Partial<TraderCounts>;
};

/**
 * The holder reports, only while the trader is still wanted (a stop that arrived meanwhile
 * wins). `since` moves only when the state changes. Returns false when it is stopped.
 */
export async function reportTraderState(accountId: string, update: TraderHolderUpdate): Promise<boolean> {
  const db = await getDb();
  const set: Partial<typeof traderSessions.$inferInsert> = {
    state: update.state,
    updatedAt: new Date(),
    since: sql`case when ${traderSessions.state} = ${update.state} then ${traderSessions.since} else now() end` as unknown as Date,
  };
  if (update.planet !== undefined) set.planet = update.planet;
  if (update.error !== undefined) set.error = update.error;
  if (update.worker !== undefined) set.worker = update.worker;
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
  const rows = await db
    .update(traderSessions)
    .set(set)
    .where(and(eq(traderSessions.accountId, accountId), eq(traderSessions.desired, "started")))
    .returning({ accountId: traderSessions.accountId });
  return rows.length > 0;
}

/** The run's saved position (null: start at the first active sequence). */
export async function getTraderPosition(accountId: string): Promise<TraderPosition | null> {
  const db = await getDb();
  const [row] = await db.select({ position: traderSessions.position }).from(traderSessions).where(eq(traderSessions.accountId, accountId));
  return row?.position ?? null;
}

/** The holder ends the run on its own (451, 950, user gone): desired = stopped with the state the UI shows. */
export async function endTrader(accountId: string, end: { state: "idle" | "error"; error: string | null }): Promise<void> {
  const db = await getDb();
  await db
    .update(traderSessions)
    .set({ desired: "stopped", state: end.state, error: end.error, planet: null, worker: null, since: new Date(), updatedAt: new Date() })
    .where(eq(traderSessions.accountId, accountId));
}

/** After a stop: the holder clears what it wrote (planet, worker). */
export async function clearTraderHolder(accountId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(traderSessions)
    .set({ planet: null, worker: null, updatedAt: new Date() })
    .where(and(eq(traderSessions.accountId, accountId), eq(traderSessions.desired, "stopped")));
}

export async function startedTraderIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ accountId: traderSessions.accountId }).from(traderSessions).where(eq(traderSessions.desired, "started"));
  return rows.map((r) => r.accountId);
}

export async function traderDesiredOf(accountIds: string[]): Promise<Map<string, "started" | "stopped">> {
  if (!accountIds.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ accountId: traderSessions.accountId, desired: traderSessions.desired })
    .from(traderSessions)
    .where(inArray(traderSessions.accountId, accountIds));
  return new Map(rows.map((r) => [r.accountId, r.desired]));
}

registerDesiredReader("trader", startedTraderIds);
registerDesiredLookup("trader", traderDesiredOf);
