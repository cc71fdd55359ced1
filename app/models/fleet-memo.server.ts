import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { characterDetails, users } from "~/db/schema";
import { remember } from "~/utils/remember.server";

/**
 * Aggregates over the whole fleet (the gift totals of All Characters and Bowling Bots) are
 * remembered until the fleet changes (issue 20 "Bounded pages": a page of 50 rows must not
 * cost what summing every character's gifts costs — 30–40 ms a request at 1,000 accounts).
 *
 * "Changed" is a fingerprint read on every request, one pass over two narrow tables without
 * their JSON (≈ 1 ms at 1,000 accounts): per user its account id, type and nick; per stored
 * details row its account id and `updated_at`, which every write of a row sets. Hashes are
 * summed, so the fingerprint does not depend on the order writes committed in, and a write
 * by any process (the workers' refreshes, another web process) is seen by the next request.
 * A value computed while a write landed is stored under the fingerprint read before it, so the
 * next request recomputes: a stale total is never served twice.
 */
export async function fleetFingerprint(): Promise<string> {
  const db = await getDb();
  const res = (await db.execute(sql`
    select (select count(*)::text || ':' || coalesce(sum(hashtextextended(account_id || ':' || coalesce(type, '') || ':' || nick, 0)), 0)::text from ${users})
      || '/' ||
      (select count(*)::text || ':' || coalesce(sum(hashtextextended(account_id || ':' || updated_at::text, 0)), 0)::text from ${characterDetails}) as f`)) as unknown as {
    rows: Array<{ f: string }>;
  };
  return res.rows[0]?.f ?? "";
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
