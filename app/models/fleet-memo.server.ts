import { eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { fleetState, users } from "~/db/schema";
import { remember } from "~/utils/remember.server";

/**
 * Aggregates over the whole fleet (the gift totals of All Characters and Bowling Bots) are
 * remembered until the fleet changes (issue 20 "Bounded pages": a page of 50 rows must not
 * cost what summing every character's gifts costs — 30–40 ms a request at 1,000 accounts).
 *
 * "Changed" is the fleet's version, one row of `fleet_state` read on every request (issue 32
 * item 1: the earlier fingerprint hashed every user and details row, a whole-table read on
 * every render). Triggers on `users` and `character_details` (migration 0020) add one to it
 * in the same transaction as every statement that writes either table, so a write by any
 * process (the workers' refreshes, another web process, a restore) is seen by the next
 * request, and a write not yet committed is not. A value computed while a write landed is
 * stored under the version read before it, so the next request recomputes: a stale total is
 * never served twice. The version only grows (the row is never backed up or restored).
 */
export function fleetFingerprintQuery() {
  return sql`select ${fleetState.version}::text as f from ${fleetState} where ${fleetState.id} = 1`;
}

export async function fleetFingerprint(): Promise<string> {
  const db = await getDb();
  const res = (await db.execute(fleetFingerprintQuery())) as unknown as { rows: Array<{ f: string }> };
  // No row only if someone deleted it by hand: then nothing may be remembered (a fresh key each read).
  return res.rows[0]?.f ?? `missing:${Math.random()}`;
}

/** How many users there are, kept by the same triggers (one row read, not a count of the table). */
export async function fleetUserCount(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: fleetState.users }).from(fleetState).where(eq(fleetState.id, 1));
  if (row) return row.n;
  const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return counted?.n ?? 0;
}

type Entry = { fingerprint: string; value: unknown };
const memo = remember("fleet-memo", () => new Map<string, Entry>());

/** `compute()`'s value, recomputed only when the fleet's fingerprint changed since it was remembered under `name`. */
export async function memoByFleet<T>(name: string, compute: () => Promise<T>): Promise<T> {
  const fingerprint = await fleetFingerprint();
  const hit = memo.get(name);
  if (hit && hit.fingerprint === fingerprint) return hit.value as T;
  const value = await compute();
  memo.set(name, { fingerprint, value });
  return value;
}

/** Forget every remembered aggregate (tests). */
export function forgetFleetMemo() {
  memo.clear();
}
