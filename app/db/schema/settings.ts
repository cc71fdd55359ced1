import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Small app-wide key/value settings (e.g. bowling last-fetched time). */
export const appSettings = pgTable("app_settings", {
  key: text().primaryKey(),
  value: jsonb().$type<unknown>().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
