import { and, eq, inArray, sql } from "drizzle-orm";
import { ACCOUNT_ERRORS } from "#api/accounts";
import { jobEngineOffline } from "#jobs/queues.server";
import { registerDesiredLookup, registerDesiredReader, requestSession, sessionEngineReady, signalStop } from "#jobs/session-host.server";
import { getDb } from "~/db/client.server";
import { stalkerSessions, users } from "~/db/schema";
import { UserError } from "./user.server";

/**
 * Stalker sessions as the UI and /api see them (spec 2 §4 "Stalker", §7 /api/stalker/*).
 * The connection itself is held by the session host (jobs/session-host.server.ts, the
 * processor in jobs/processors/stalker.ts); this module is the shared state it writes and
 * every process reads: `desired` (what the operator asked) and `state` (what the holder
 * reports: connecting from socket open until 900, active after 900, error, inactive).
 */

export type StalkerState = "inactive" | "connecting" | "active" | "error";
export type StalkerStatus = {
  accountId: string;
  desired: "started" | "stopped";
  state: StalkerState;
  planet: string | null;
  error: string | null;
  since: string;
  /** The worker process holding the connection (host-pid-…), null when none. */
  worker: string | null;
};

type Row = typeof stalkerSessions.$inferSelect;

function toStatus(row: Row): StalkerStatus {
  return {
    accountId: row.accountId,
    desired: row.desired,
    state: row.state,
    planet: row.planet,
    error: row.error,
    since: row.since.toISOString(),
    worker: row.worker ?? null,
  };
}

export async function listStalkerStatuses(): Promise<StalkerStatus[]> {
  const db = await getDb();
  return (await db.select().from(stalkerSessions)).map(toStatus);
}

export async function getStalkerStatus(accountId: string): Promise<StalkerStatus | null> {
  const db = await getDb();
  const [row] = await db.select().from(stalkerSessions).where(eq(stalkerSessions.accountId, accountId)).limit(1);
  return row ? toStatus(row) : null;
}

/** GET /api/stalker/active: the accounts whose stalker is started and connecting or active. */
export async function activeStalkerIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ accountId: stalkerSessions.accountId })
    .from(stalkerSessions)
    .where(and(eq(stalkerSessions.desired, "started"), inArray(stalkerSessions.state, ["connecting", "active"])));
  return rows.map((r) => r.accountId).sort();
}

/** Throws UserError 404 (no such user) or 400 (not of type stalker). */
export async function requireStalkerUser(accountId: string): Promise<void> {
  const db = await getDb();
  const [user] = await db.select({ type: users.type }).from(users).where(eq(users.accountId, accountId)).limit(1);
  if (!user) throw new UserError(404, ACCOUNT_ERRORS.userNotFound);
  if (user.type !== "stalker") throw new UserError(400, ACCOUNT_ERRORS.notStalker);
}

/**
 * POST /api/stalker/start: marks the stalker started and asks the session host for its
 * session (idempotent job id `stalker-<accountId>`). Starting a running stalker changes
 * nothing. Throws UserError 404/400, or the 503 Response "Job engine offline: …" (nothing
 * changed) while Redis is down. Answers the status (state "connecting" until the holder
 * sees 900).
 */
export async function startStalker(accountId: string): Promise<StalkerStatus> {
  await requireStalkerUser(accountId);
  if (!(await sessionEngineReady())) throw jobEngineOffline();
  const db = await getDb();
  const before = await getStalkerStatus(accountId);
  const running = before?.desired === "started" && (before.state === "connecting" || before.state === "active");
  if (!running) {
    await db
      .insert(stalkerSessions)
      .values({ accountId, desired: "started", state: "connecting", planet: null, error: null, worker: null, since: new Date(), updatedAt: new Date() })
      .onConflictDoUpdate({
        target: stalkerSessions.accountId,
        set: { desired: "started", state: "connecting", planet: null, error: null, since: new Date(), updatedAt: new Date() },
      });
  }
  try {
    await requestSession("stalker", accountId, "start");
  } catch (err) {
    // Redis went away between the check and the add: put the row back as it was.
    if (!running) {
      if (before) {
        await db
          .update(stalkerSessions)
          .set({
            desired: before.desired,
            state: before.state,
            planet: before.planet,
            error: before.error,
            since: new Date(before.since),
            updatedAt: new Date(),
          })
          .where(eq(stalkerSessions.accountId, accountId));
      } else await db.delete(stalkerSessions).where(eq(stalkerSessions.accountId, accountId));
    }
    throw err;
  }
  return (await getStalkerStatus(accountId))!;
}

/**
 * POST /api/stalker/stop: marks the stalker stopped and inactive at once and tells its
 * holder (stop channel; the holder also polls `desired`), which sends `QUIT :ds` and ends the
 * job. Works while Redis is down (the holder's poll sees it). Stopping a stopped stalker is a
 * no-op. Returns null when the account never had a stalker. Throws UserError 404 (no such
 * user) or 400 (not a stalker-type user without a session).
 */
export async function stopStalker(accountId: string): Promise<StalkerStatus | null> {
  const db = await getDb();
  const [user] = await db.select({ type: users.type }).from(users).where(eq(users.accountId, accountId)).limit(1);
  if (!user) throw new UserError(404, ACCOUNT_ERRORS.userNotFound);
  const before = await getStalkerStatus(accountId);
  if (!before) {
    if (user.type !== "stalker") throw new UserError(400, ACCOUNT_ERRORS.notStalker);
    return null;
  }
  if (before.desired !== "stopped" || before.state === "connecting" || before.state === "active") {
    await db
      .update(stalkerSessions)
      .set({
        desired: "stopped",
        // An error (451) stays visible; anything else is cleared.
        state: before.state === "error" ? "error" : "inactive",
        planet: null,
        since: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(stalkerSessions.accountId, accountId));
  }
  await signalStop("stalker", accountId);
  return getStalkerStatus(accountId);
}

// --- written by the session's holder (jobs/processors/stalker.ts) -------------------------

export type HolderUpdate = { state: StalkerState; planet?: string | null; error?: string | null; worker?: string | null };

/**
 * The holder reports its state, only while the stalker is still wanted (a stop that
 * arrived meanwhile wins). `since` moves only when the state changes. Returns false when
 * the stalker is no longer started.
 */
export async function reportStalkerState(accountId: string, update: HolderUpdate): Promise<boolean> {
  const db = await getDb();
  const set: Partial<typeof stalkerSessions.$inferInsert> = {
    state: update.state,
    updatedAt: new Date(),
    since: sql`case when ${stalkerSessions.state} = ${update.state} then ${stalkerSessions.since} else now() end` as unknown as Date,
  };
  if (update.planet !== undefined) set.planet = update.planet;
  if (update.error !== undefined) set.error = update.error;
  if (update.worker !== undefined) set.worker = update.worker;
  const rows = await db
    .update(stalkerSessions)
    .set(set)
    .where(and(eq(stalkerSessions.accountId, accountId), eq(stalkerSessions.desired, "started")))
    .returning({ accountId: stalkerSessions.accountId });
  return rows.length > 0;
}

/**
 * The holder ends the stalker on its own (451, 950, 452 after its retries, user gone):
 * desired = stopped with the state and error the UI shows.
 */
export async function endStalker(accountId: string, end: { state: "inactive" | "error"; error: string | null }): Promise<void> {
  const db = await getDb();
  await db
    .update(stalkerSessions)
    .set({ desired: "stopped", state: end.state, error: end.error, planet: null, worker: null, since: new Date(), updatedAt: new Date() })
    .where(eq(stalkerSessions.accountId, accountId));
}

/** After a stop: the holder clears what it wrote (planet, worker), leaving desired/state to the stop. */
export async function clearStalkerHolder(accountId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(stalkerSessions)
    .set({ planet: null, worker: null, updatedAt: new Date() })
    .where(and(eq(stalkerSessions.accountId, accountId), eq(stalkerSessions.desired, "stopped")));
}

/** Accounts whose stalker should run (boot restore, reconcile). */
export async function startedStalkerIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ accountId: stalkerSessions.accountId }).from(stalkerSessions).where(eq(stalkerSessions.desired, "started"));
  return rows.map((r) => r.accountId);
}

export async function desiredOf(accountIds: string[]): Promise<Map<string, "started" | "stopped">> {
  if (!accountIds.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ accountId: stalkerSessions.accountId, desired: stalkerSessions.desired })
    .from(stalkerSessions)
    .where(inArray(stalkerSessions.accountId, accountIds));
  return new Map(rows.map((r) => [r.accountId, r.desired]));
}

registerDesiredReader("stalker", startedStalkerIds);
registerDesiredLookup("stalker", desiredOf);
