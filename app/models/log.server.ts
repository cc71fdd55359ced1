import { and, asc, count, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import type { LogCursor, LogDto } from "#api/logs";
import { getDb, type Db } from "~/db/client.server";
import { logs, type LogSource, type LogType } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { errorText, scrubLogText } from "~/utils/errors";
import { publishLive } from "~/queue/live.server";
import { structuredLog } from "~/utils/logger.server";
import { redact } from "~/utils/redact";

export type LogEntry = typeof logs.$inferSelect;

export type LogInput = {
  type: LogType;
  source: LogSource;
  message: string;
  details?: unknown;
};

// The one redaction rule, shared with the audit trail and the structured process log (app/utils/redact.ts).
export { isSecretKey, redact } from "~/utils/redact";

/**
 * The server-side logger behind System Logs. Never throws: a logging failure must not
 * break the action that logged, so it falls back to the console.
 *
 * With `tx` (a transaction, e.g. a job step's in app/models/once.server.ts) the entry commits or
 * rolls back with it, and a failure throws so that transaction does not commit without it.
 */
export async function logEvent(entry: LogInput, tx?: Pick<Db, "insert">): Promise<void> {
  // With LOG_FORMAT=json every System Logs entry is also a line of the process log (account, purpose, redacted details).
  structuredLog(entry.type === "error" ? "error" : entry.type === "debug" ? "debug" : "info", scrubLogText(entry.message), {
    systemLog: { type: entry.type, source: entry.source },
    ...(entry.details === undefined ? {} : { details: redact(entry.details) }),
  });
  try {
    const db = tx ?? (await getDb());
    await db.insert(logs).values({
      type: entry.type,
      source: entry.source,
      // Callers should pass errors through errorText(); this catches the ones that did not.
      message: scrubLogText(entry.message).slice(0, 4000),
      details: entry.details === undefined ? null : redact(entry.details),
    });
    // Open System Logs pages follow (issue 30 A5: live updates instead of Auto-refresh).
    publishLive("logs");
  } catch (err) {
    if (tx) throw err;
    console.warn("[log] could not store log entry:", scrubLogText(entry.message), errorText(err));
  }
}

/**
 * Writes an entry that sums up many events (failed logins): inserted under `id` the first
 * time, then updated in place — message, details, time, and shown again if it was cleared.
 * `details.count` only grows: a slower writer carrying an older count changes nothing.
 * Never throws, like `logEvent`.
 */
export async function logSummaryEvent(id: string, entry: LogInput & { details: { count: number } & Record<string, unknown> }): Promise<void> {
  try {
    const db = await getDb();
    const values = {
      type: entry.type,
      source: entry.source,
      message: scrubLogText(entry.message).slice(0, 4000),
      details: redact(entry.details),
      timestamp: new Date(),
      cleared: false,
    };
    await db
      .insert(logs)
      .values({ id, ...values })
      .onConflictDoUpdate({
        target: logs.id,
        set: values,
        where: sql`coalesce((${logs.details} ->> 'count')::bigint, 0) < ${entry.details.count}`,
      });
    publishLive("logs");
  } catch (err) {
    console.warn("[log] could not store log entry:", scrubLogText(entry.message), errorText(err));
  }
}

export type LogFilter = {
  type?: LogType;
  source?: LogSource;
  cleared?: boolean;
  limit?: number;
  /** entries about one Galaxy account (`details.accountId`) */ account?: string;
  /**
   * Issue 30 A5: words in the message, or the start of an account id (`details.accountId`),
   * case-insensitive. Matched by a scan along the (timestamp, id) order that stops at the page
   * (and the count at its cap), so a page costs what it shows unless the words are rare.
   */
  text?: string;
  /** Entries at or after this instant. */
  from?: Date;
  /** Entries before this instant. */
  to?: Date;
};

/** `%`, `_` and `\` typed in a search are themselves, not LIKE patterns. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The filter as SQL. `cleared` is written as a literal (`not cleared` / `cleared`) rather
 * than a parameter, so the planner can match the partial indexes on open and cleared
 * entries (app/db/schema/logs.ts) whatever plan the driver asks for.
 */
function whereOf(filter: Omit<LogFilter, "limit">): SQL[] {
  const where: SQL[] = [];
  if (filter.type) where.push(eq(logs.type, filter.type));
  if (filter.source) where.push(eq(logs.source, filter.source));
  if (filter.cleared !== undefined) where.push(filter.cleared ? sql`${logs.cleared}` : sql`not ${logs.cleared}`);
  if (filter.account) where.push(sql`(${logs.details} ->> 'accountId') = ${filter.account}`);
  const text = filter.text?.trim();
  if (text) {
    const words = likeEscape(text);
    where.push(sql`(${logs.message} ilike ${`%${words}%`} or (${logs.details} ->> 'accountId') like ${`${words}%`})`);
  }
  if (filter.from) where.push(sql`${logs.timestamp} >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) where.push(sql`${logs.timestamp} < ${filter.to.toISOString()}::timestamptz`);
  return where;
}

/** Newest first; `limit` defaults to 500 and is capped at 1000. */
export async function listLogs(filter: LogFilter = {}): Promise<LogEntry[]> {
  const db = await getDb();
  const where = whereOf(filter);
  return db
    .select()
    .from(logs)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(logs.timestamp), desc(logs.id))
    .limit(Math.max(1, Math.min(filter.limit ?? 500, 1000)));
}

export type LogPage = {
  entries: LogEntry[];
  /** The last entry shown, when older entries exist: the "Older" link starts after it. */
  older?: LogCursor;
  /** The first entry shown, when newer entries exist: the "Newer" link ends before it. */
  newer?: LogCursor;
};

/**
 * One page of entries, newest first (keyset paging on (timestamp, id), issue 20): the
 * newest `size`, or the `size` just older than `before`, or just newer than `after`.
 * One index scan of size + 1 rows whatever the table holds; the extra row tells whether
 * there is a next page. Going back (`after`) reads ascending and one more row the other way
 * tells whether anything newer remains.
 */
export async function listLogsPage(filter: Omit<LogFilter, "limit">, options: { size: number; before?: LogCursor; after?: LogCursor }): Promise<LogPage> {
  const db = await getDb();
  const size = Math.max(1, Math.min(options.size, 1000));
  const where = whereOf(filter);

  if (options.after) {
    const rows = await db
      .select({ entry: logs, at: EXACT_AT })
      .from(logs)
      .where(and(...where, sql`${KEY} > ${cursorKey(options.after)}`))
      .orderBy(asc(logs.timestamp), asc(logs.id))
      .limit(size + 1);
    const more = rows.length > size;
    const page = rows.slice(0, size).reverse();
    if (page.length === 0) return listLogsPage(filter, { size });
    const first = page[0]!;
    const last = page[page.length - 1]!;
    return {
      entries: page.map((r) => r.entry),
      newer: more ? { at: first.at, id: first.entry.id } : undefined,
      // We came from an older page, so something older than this one exists.
      older: { at: last.at, id: last.entry.id },
    };
  }

  const rows = await logsPageQuery(db, filter, size, options.before);
  const page = rows.slice(0, size);
  const first = page[0];
  const last = page[page.length - 1];
  // Anything newer than this page? Only an older page has to ask: one indexed row.
  let newer: LogCursor | undefined;
  if (options.before && first) {
    const cursor = { at: first.at, id: first.entry.id };
    const [row] = await db
      .select({ id: logs.id })
      .from(logs)
      .where(and(...where, sql`${KEY} > ${cursorKey(cursor)}`))
      .limit(1);
    if (row) newer = cursor;
  }
  return {
    entries: page.map((r) => r.entry),
    older: rows.length > size && last ? { at: last.at, id: last.entry.id } : undefined,
    newer,
  };
}

/** The entry's timestamp as exact UTC text (microseconds), for cursors. */
const EXACT_AT = sql<string>`to_char(${logs.timestamp} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/** The list's order key, compared as a row so one index range serves it. */
const KEY = sql`(${logs.timestamp}, ${logs.id})`;
const cursorKey = (c: LogCursor) => sql`(${c.at}::timestamptz, ${c.id}::uuid)`;

/** size + 1 entries, newest first, older than `before` when given (exported for the EXPLAIN test). */
export function logsPageQuery(db: Db, filter: Omit<LogFilter, "limit">, size: number, before?: LogCursor) {
  return db
    .select({ entry: logs, at: EXACT_AT })
    .from(logs)
    .where(and(...whereOf(filter), ...(before ? [sql`${KEY} < ${cursorKey(before)}`] : [])))
    .orderBy(desc(logs.timestamp), desc(logs.id))
    .limit(size + 1);
}

/** Counts stop here: past it the page says "1,000+" (issue 20: no whole-table counts per render). */
export const LOG_COUNT_CAP = 1000;

/**
 * How many entries match, up to `cap` (then `cap + 1`, which reads "more than cap"). An
 * index scan of at most cap + 1 entries, never the whole table. The /logs page tells
 * "none yet" from "no matches" with it and shows how many match.
 */
export async function countLogs(filter: Omit<LogFilter, "limit"> = {}, cap = LOG_COUNT_CAP): Promise<number> {
  const db = await getDb();
  const [row] = await logsCountQuery(db, filter, cap);
  return Number(row?.n ?? 0);
}

/** The capped count as a query (exported for the EXPLAIN test). */
export function logsCountQuery(db: Db, filter: Omit<LogFilter, "limit">, cap: number) {
  const where = whereOf(filter);
  const capped = db
    .select({ one: sql`1` })
    .from(logs)
    .where(where.length ? and(...where) : undefined)
    .limit(cap + 1)
    .as("capped");
  return db.select({ n: count() }).from(capped);
}

/** Marks one entry cleared and returns it; undefined when the id is unknown. */
export async function clearLog(id: string): Promise<LogEntry | undefined> {
  const db = await getDb();
  const [row] = await db.update(logs).set({ cleared: true }).where(eq(logs.id, id)).returning();
  if (row) publishLive("logs");
  return row;
}

/** The /api shape of an entry: string `_id`, ISO `timestamp`. */
export function toLogDto(entry: LogEntry): LogDto {
  return {
    _id: entry.id,
    type: entry.type,
    source: entry.source,
    message: entry.message,
    timestamp: entry.timestamp.toISOString(),
    cleared: entry.cleared,
    details: entry.details ?? null,
  };
}

/**
 * "Clean Old Logs": removes entries already cleared, and every entry older than the
 * retention period (LOG_RETENTION_DAYS, default 14). See docs/decisions/0004.
 */
export async function cleanupLogs(now = new Date()): Promise<number> {
  const db = await getDb();
  const cutoff = retentionCutoff(now);
  const rows = await db
    .delete(logs)
    .where(or(eq(logs.cleared, true), lt(logs.timestamp, cutoff)))
    .returning({ id: logs.id });
  if (rows.length) publishLive("logs");
  return rows.length;
}

/** Entries with a timestamp before this instant count as old for "Clean Old Logs". */
export function retentionCutoff(now = new Date()): Date {
  return new Date(now.getTime() - logRetentionDays() * 86_400_000);
}

export function logRetentionDays(): number {
  return getEnv().LOG_RETENTION_DAYS;
}
