import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { SessionActual, SessionDesired, SessionPurpose } from "#api/sessions";

/**
 * Every background session, one shape for every purpose (issue 18; docs/sessions.md): the
 * stalker, the trading run, the Collections connection, the GalaCord bot and each GalaCord
 * relay connection. `desired` is what the operator asked (the session host runs what is
 * "run"), the rest is what is, written by the holder (or the host when nobody holds it).
 *
 * One Galaxy account, one holder: at most one session wants an account at a time (the
 * partial unique index on `account_id`); a start on a held account is refused, or takes it
 * over when the operator says so (docs/sessions.md "One account, one holder").
 */
export const sessions = pgTable(
  "sessions",
  {
    purpose: text().$type<SessionPurpose>().notNull(),
    /** The account id, or "bot" for the GalaCord bot. */
    key: text().notNull(),
    /** The Galaxy account the session logs in (null: none, the GalaCord bot). */
    accountId: text(),
    desired: text().$type<SessionDesired>().notNull().default("stop"),
    actual: text().$type<SessionActual>().notNull().default("stopped"),
    since: timestamp({ withTimezone: true }).notNull().defaultNow(),
    error: text(),
    note: text(),
    attempt: integer().notNull().default(0),
    nextRetryAt: timestamp({ withTimezone: true }),
    holder: text(),
    planet: text(),
    info: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.purpose, t.key] }),
    uniqueIndex("sessions_one_holder_per_account")
      .on(t.accountId)
      .where(sql`${t.desired} = 'run' and ${t.accountId} is not null`),
    index().on(t.actual),
  ],
);

/**
 * Commands for a running session (change planet…), run by whichever process holds it: the
 * caller inserts a row and wakes the holder over the control channel; the holder claims it,
 * runs it and writes the result back (docs/sessions.md "Control channel").
 */
export const sessionCommands = pgTable(
  "session_commands",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    purpose: text().$type<SessionPurpose>().notNull(),
    key: text().notNull(),
    kind: text().notNull(),
    arg: jsonb().$type<unknown>(),
    status: text().$type<"pending" | "running" | "done" | "failed">().notNull().default("pending"),
    result: jsonb().$type<unknown>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.purpose, t.key, t.status)],
);
