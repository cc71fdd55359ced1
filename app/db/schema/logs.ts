import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const LOG_TYPES = ["error", "disconnect", "debug", "info"] as const;
export const LOG_SOURCES = ["discord", "galaxyAuth", "bot", "system"] as const;
export type LogType = (typeof LOG_TYPES)[number];
export type LogSource = (typeof LOG_SOURCES)[number];

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
  (t) => [index().on(t.timestamp), index().on(t.type, t.source)],
);
