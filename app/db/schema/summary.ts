import { date, doublePrecision, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Gift rates (spec 2 §3 "Gift rates"): gift name → rate, in prize units per one fireball
 * (Fire Cannon Ball is the unit). A save replaces the whole set (docs/summary.md).
 */
export const giftRates = pgTable("gift_rates", {
  name: text().primaryKey(),
  rate: doublePrecision().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Daily awards received and gifts spent per bowling account and day (spec 2 §3 "Daily total"),
 * copied from the platform's daily-stats service so history stays when the platform forgets
 * it. `day` is the platform's date for that row (Europe/Moscow days, docs/summary.md).
 */
export const dailyAwards = pgTable(
  "daily_awards",
  {
    accountId: text().notNull(),
    day: date({ mode: "string" }).notNull(),
    awards: jsonb().$type<Record<string, number>>().notNull(),
    ballStats: jsonb().$type<Record<string, number>>().notNull(),
    fetchedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);
