import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

// The lists live in the client-safe /api contract; the table only types its columns by them.
import type { LogSource, LogType } from "../../../api/logs";

export { LOG_SOURCES, LOG_TYPES, type LogSource, type LogType } from "../../../api/logs";

/** System Logs (spec 2 §3 "Logs"). */
export const logs = pgTable(
  "logs",
  {
    id: uuid().primaryKey().defaultRandom(),
    type: text().$type<LogType>().notNull(),
    source: text().$type<LogSource>().notNull(),
    message: text().notNull(),
    details: jsonb().$type<unknown>(),
    cleared: boolean().notNull().default(false),
    timestamp: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.timestamp),
    index().on(t.type, t.source),
    // A session's "System Logs" link (/logs?account=…, issue 18): entries about one account, newest first.
    index("logs_account_timestamp_index").on(sql`(${t.details} ->> 'accountId')`, t.timestamp),
  ],
);
