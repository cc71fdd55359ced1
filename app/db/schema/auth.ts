import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

// The list lives in a client-safe module (forms and the shell read it too).
import type { Role } from "../../utils/roles";

/** People who may use the dashboard. The spec shows no login; we add one (docs/decisions/0003). */
export const operators = pgTable("operators", {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  passwordHash: text().notNull(),
  /** admin, operator or viewer (docs/decisions/0016). The first operator is admin. */
  role: text().$type<Role>().notNull().default("operator"),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Server-side sessions: the cookie carries only a random session token, so logout really
 * revokes. The row keeps the token's SHA-256 (as for API tokens), never the token itself:
 * reading this table (a backup, a leaked dump) gives nobody a usable session.
 */
export const operatorSessions = pgTable(
  "operator_sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    operatorId: uuid()
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    /** SHA-256 (hex) of the token the cookie carries. */
    tokenHash: text().notNull().unique(),
    /** Rolling: pushed 30 days ahead at most once a day while the session is used. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.operatorId)],
);

/** Bearer tokens for scripts calling /api. Only a SHA-256 of the token is stored. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid().primaryKey().defaultRandom(),
    operatorId: uuid()
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** The first characters of the token ("gtk_AbCd"), so operators can tell tokens apart. */
    prefix: text().notNull().default(""),
    tokenHash: text().notNull().unique(),
    /** A read-only token may only read, whatever its operator's role (docs/decisions/0016). */
    readOnly: boolean().notNull().default(false),
    lastUsedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // Names tell an operator's tokens apart, so one operator cannot have two of the same name.
  (t) => [index().on(t.operatorId), uniqueIndex("api_tokens_operator_name_unique").on(t.operatorId, t.name)],
);
