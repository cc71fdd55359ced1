import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { SequenceStep, TraderCounts, TraderPosition } from "#api/trading";
import { users } from "./accounts";

/**
 * Trading planets (spec 2 §3 "Trading planets"). Steps live in a jsonb array on the sequence:
 * they are always read and written whole with it and their array order is the visit order.
 * The list order of sequences is `position` (0, 1, 2 …), rewritten in one transaction on reorder.
 */
export const planetSequences = pgTable(
  "planet_sequences",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    steps: jsonb().$type<SequenceStep[]>().notNull(),
    seconds: integer().notNull().default(6),
    closedPlanetsLevel: integer().notNull().default(51),
    openPlanetsLevel: integer().notNull().default(15),
    isActive: boolean().notNull().default(true),
    position: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.position),
    // The list's whole order (listSequencesPage), so a page is read from the index, not sorted (issue 32 item 1).
    index("planet_sequences_order_index").on(t.position, t.createdAt, t.id),
  ],
);

/** Custom planets: names unique per type, case-insensitively. */
export const customPlanets = pgTable(
  "custom_planets",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    type: text().$type<"blacklisted" | "english">().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("custom_planets_type_name_unique").on(t.type, sql`lower(${t.name})`)],
);

/** Ads and messages: text kept exactly as typed. */
export const ads = pgTable(
  "ads",
  {
    id: uuid().primaryKey().defaultRandom(),
    adsMessage: text().notNull(),
    category: text().$type<"ads" | "msg">().notNull().default("ads"),
    isActive: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.createdAt),
    // One category's page in list order (listAdsPage), read from the index (issue 32 item 1).
    index("ads_category_order_index").on(t.category, t.createdAt, t.id),
  ],
);

/**
 * Trader sessions (issue 11 "The trading run", galaxy-runtime.md §2.3 [D], docs/trading-planets.md):
 * one row per trading-type account ever started: what the run itself keeps (its state as every
 * session's lives in `sessions`, purpose `trader`; docs/sessions.md). `position` is where the run is, so a
 * worker that takes the session over after a crash resumes at the same sequence, step and
 * planet (with the same shuffled order, ad rotation and the visit's reply memory).
 */
export const traderSessions = pgTable("trader_sessions", {
  accountId: text()
    .primaryKey()
    .references(() => users.accountId, { onDelete: "cascade" }),
  position: jsonb().$type<TraderPosition | null>(),
  /** Counts of the run since it was started (posts, replies, visits, skips, failures). */
  counts: jsonb().$type<TraderCounts>().notNull().default({ visits: 0, posts: 0, replies: 0, skipped: 0, failures: 0, rounds: 0 }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
