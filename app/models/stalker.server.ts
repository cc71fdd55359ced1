import { eq, inArray } from "drizzle-orm";
import { ACCOUNT_ERRORS } from "#api/accounts";
import { getDb } from "~/db/client.server";
import { stalkerSessions, users } from "~/db/schema";
import { UserError } from "./user.server";

/**
 * Stalker sessions as the UI and /api see them (spec 2 §4 "Stalker", §7 /api/stalker/*).
 * The connection itself is held by the session host (jobs/, issue 9); this module is the
 * shared state it writes and every process reads: `desired` (what the operator asked) and
 * `state` (what the holder reports).
 *
 * FOUNDATION: the session host's helper extends start/stop with the job plumbing.
 */

export type StalkerState = "inactive" | "connecting" | "active" | "error";
export type StalkerStatus = {
  accountId: string;
  desired: "started" | "stopped";
  state: StalkerState;
  planet: string | null;
  error: string | null;
  since: string;
};

type Row = typeof stalkerSessions.$inferSelect;

function toStatus(row: Row): StalkerStatus {
  return { accountId: row.accountId, desired: row.desired, state: row.state, planet: row.planet, error: row.error, since: row.since.toISOString() };
}

export async function listStalkerStatuses(): Promise<StalkerStatus[]> {
  const db = await getDb();
  return (await db.select().from(stalkerSessions)).map(toStatus);
}

/** GET /api/stalker/active: the accounts whose stalker is started and connecting or active. */
export async function activeStalkerIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ accountId: stalkerSessions.accountId })
    .from(stalkerSessions)
    .where(inArray(stalkerSessions.state, ["connecting", "active"]));
  return rows.map((r) => r.accountId).sort();
}

/** Throws UserError 404 (no such user) or 400 (not of type stalker). */
export async function requireStalkerUser(accountId: string): Promise<void> {
  const db = await getDb();
  const [user] = await db.select({ type: users.type }).from(users).where(eq(users.accountId, accountId)).limit(1);
  if (!user) throw new UserError(404, ACCOUNT_ERRORS.userNotFound);
  if (user.type !== "stalker") throw new UserError(400, ACCOUNT_ERRORS.notStalker);
}
