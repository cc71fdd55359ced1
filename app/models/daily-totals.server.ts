/**
 * Daily totals (spec 2 §3 "Daily total", §7 GET /api/bowling-awards/daily-totals): all reads
 * and writes of daily_awards. The platform's daily-stats service (services-config
 * `undocumented.dailyStats`) is pulled for every bowling account into one row per account and
 * day, so history stays when the platform forgets it (docs/summary.md).
 */
import { and, gte, inArray, lte, sql } from "drizzle-orm";
import { SUMMARY_DAYS, type DailyTotal } from "#api/summary";
import { getDb } from "~/db/client.server";
import { dailyAwards, users } from "~/db/schema";
import { getEnv } from "~/utils/env.server";

/** docs/summary.md [D] "time zone": Europe/Moscow unless SUMMARY_TIME_ZONE says otherwise (galaxy-runtime.md §4.3). */
export const DEFAULT_SUMMARY_TIME_ZONE = "Europe/Moscow";
export function summaryTimeZone(): string {
  return getEnv().SUMMARY_TIME_ZONE;
}
/** The account type whose daily stats are pulled (spec 1 §3 "Bowling user"). */
export const BOWLING_TYPE = "bowling";

/** Today's date in `timeZone` as YYYY-MM-DD. */
export function dayIn(timeZone: string, at: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** YYYY-MM-DD shifted by `delta` days (calendar arithmetic, no time zone). */
export function addDays(day: string, delta: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + delta)).toISOString().slice(0, 10);
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

export type DailyRow = { accountId: string; day: string; awards: Record<string, number>; ballStats: Record<string, number> };

/** Upserts rows (one per account and day) in one transaction; a later pull replaces a day's figures. */
export async function upsertDailyRows(rows: DailyRow[]): Promise<number> {
  const valid = rows.filter((r) => DAY_RE.test(r.day));
  if (valid.length === 0) return 0;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .insert(dailyAwards)
      .values(valid.map((r) => ({ ...r, fetchedAt: new Date() })))
      .onConflictDoUpdate({
        target: [dailyAwards.accountId, dailyAwards.day],
        set: { awards: sql`excluded.awards`, ballStats: sql`excluded.ball_stats`, fetchedAt: sql`excluded.fetched_at` },
      });
  });
  return valid.length;
}

/** Every bowling account's id (users of type "bowling"): whose daily stats the pull reads. */
export async function bowlingAccountIds(): Promise<string[]> {
  const db = await getDb();
  const accounts = await db
    .select({ accountId: users.accountId })
    .from(users)
    .where(inArray(users.type, [BOWLING_TYPE]));
  return accounts.map((a) => a.accountId);
}

function addCounts(into: Record<string, number>, from: Record<string, number>) {
  for (const [k, n] of Object.entries(from)) if (Number.isFinite(n)) into[k] = (into[k] ?? 0) + n;
}

/**
 * The last `days` days (today included, in summaryTimeZone()) summed across accounts, newest
 * first; days with no stored row are left out. → [{ date: 'YYYY-MM-DD', awards, ballStats }].
 */
export async function dailyTotals(days = SUMMARY_DAYS, now: Date = new Date()): Promise<DailyTotal[]> {
  const today = dayIn(summaryTimeZone(), now);
  const from = addDays(today, -(days - 1));
  const db = await getDb();
  const rows = await db
    .select()
    .from(dailyAwards)
    .where(and(gte(dailyAwards.day, from), lte(dailyAwards.day, today)));
  const byDay = new Map<string, DailyTotal>();
  for (const r of rows) {
    const t = byDay.get(r.day) ?? { date: r.day, awards: {}, ballStats: {} };
    addCounts(t.awards, r.awards);
    addCounts(t.ballStats, r.ballStats);
    byDay.set(r.day, t);
  }
  return [...byDay.values()].sort((a, b) => b.date.localeCompare(a.date));
}
