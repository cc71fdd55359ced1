import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { uuidv7 } from "../../utils/uuidv7";

// The lists live in the client-safe /api contract; the table only types its columns by them.
import type { LogSource, LogType } from "../../../api/logs";

export { LOG_SOURCES, LOG_TYPES, type LogSource, type LogType } from "../../../api/logs";

/**
 * System Logs (spec 2 §3 "Logs").
 *
 * Every list reads newest first, `order by timestamp desc, id desc`, a page at a time
 * (keyset on (timestamp, id), issue 20). Each filter the page and GET /api/logs offer —
 * type, source, both, cleared or not, an account — has an index that ends in
 * (timestamp, id), so a page is a short backward index scan however rare the filter is,
 * at a million entries too. `cleared=false` (the page's default) and `cleared=true` have
 * their own partial indexes. See docs/decisions/0020-logs-at-scale.md.
 */
export const logs = pgTable(
  "logs",
  {
    // Time-ordered: entries written in the same millisecond list in the order they were written
    // (the list sorts by timestamp, then id). The database's own default stays for raw inserts.
    id: uuid().primaryKey().defaultRandom().$defaultFn(uuidv7),
    type: text().$type<LogType>().notNull(),
    source: text().$type<LogSource>().notNull(),
    message: text().notNull(),
    details: jsonb().$type<unknown>(),
    cleared: boolean().notNull().default(false),
    timestamp: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // No filter, and "Clean Old Logs" (timestamp < cutoff).
    index("logs_timestamp_id_index").on(t.timestamp, t.id),
    index("logs_type_timestamp_index").on(t.type, t.timestamp, t.id),
    index("logs_source_timestamp_index").on(t.source, t.timestamp, t.id),
    index("logs_type_source_timestamp_index").on(t.type, t.source, t.timestamp, t.id),
    // The same four for open entries only (the page's default, `cleared=false`).
    index("logs_open_timestamp_index")
      .on(t.timestamp, t.id)
      .where(sql`not ${t.cleared}`),
    index("logs_open_type_timestamp_index")
      .on(t.type, t.timestamp, t.id)
      .where(sql`not ${t.cleared}`),
    index("logs_open_source_timestamp_index")
      .on(t.source, t.timestamp, t.id)
      .where(sql`not ${t.cleared}`),
    index("logs_open_type_source_timestamp_index")
      .on(t.type, t.source, t.timestamp, t.id)
      .where(sql`not ${t.cleared}`),
    // And for cleared entries (`cleared=true`, and "Clean Old Logs"): small, as cleanup deletes them.
    index("logs_cleared_timestamp_index")
      .on(t.timestamp, t.id)
      .where(sql`${t.cleared}`),
    index("logs_cleared_type_timestamp_index")
      .on(t.type, t.timestamp, t.id)
      .where(sql`${t.cleared}`),
    index("logs_cleared_source_timestamp_index")
      .on(t.source, t.timestamp, t.id)
      .where(sql`${t.cleared}`),
    index("logs_cleared_type_source_timestamp_index")
      .on(t.type, t.source, t.timestamp, t.id)
      .where(sql`${t.cleared}`),
    // A session's "System Logs" link (/logs?account=…, issue 18): entries about one account, newest first.
    // Partial: most entries are about no account, and `accountId = $1` implies it is not null.
    index("logs_account_timestamp_index")
      .on(sql`(${t.details} ->> 'accountId')`, t.timestamp, t.id)
      .where(sql`(${t.details} ->> 'accountId') is not null`),
    // One account's errors (or any type): an account can have thousands of entries of which none is of that type.
    index("logs_account_type_timestamp_index")
      .on(sql`(${t.details} ->> 'accountId')`, t.type, t.timestamp, t.id)
      .where(sql`(${t.details} ->> 'accountId') is not null`),
  ],
);
