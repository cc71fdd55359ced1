import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { ActivityStatus } from "#api/collections";
import { operators } from "./auth";

/**
 * The Collections section (spec 2 §2 "Collections screen", §3 "Collections", §4). The spec
 * keeps saved profiles, the recovery code and the screen's choices in the browser; we keep
 * them on the server per operator (docs/decisions/0015-collections-profiles-server-side.md):
 * credentials encrypted (encryptSecret), the browser sees ids, nicks and pictures only.
 */

/** Saved accounts (spec 2 §3 "Saved profile"): at most 5 per operator, newest (lastUsed) first. */
export const collectionsProfiles = pgTable(
  "collections_profiles",
  {
    id: uuid().primaryKey().defaultRandom(),
    operatorId: uuid()
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    accountId: text().notNull(),
    nick: text().notNull(),
    profilePic: text(),
    /** encryptSecret(password) handed out by REGISTER; later logins use it (USER id password). */
    password: text().notNull(),
    /** "recovery" (the only login the screen offers) or "saved" after a one-click login. */
    loginMethod: text().notNull().default("recovery"),
    lastUsed: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex().on(t.operatorId, t.accountId), index().on(t.operatorId, t.lastUsed)],
);

/**
 * The screen's state per operator: who is logged in, the pickers, the Auto settings and the
 * run counter, and the last inventory and status read (so any process renders them).
 * `autoChain` names the running chain of cycle jobs; a job of another chain stops at once.
 */
export const collectionsState = pgTable("collections_state", {
  operatorId: uuid()
    .primaryKey()
    .references(() => operators.id, { onDelete: "cascade" }),
  profileId: uuid().references(() => collectionsProfiles.id, { onDelete: "set null" }),
  collectionId: integer().notNull().default(178),
  recipientId: text().notNull().default("10000001"),
  auto: boolean().notNull().default(false),
  repeat: integer().notNull().default(0),
  intervalSeconds: integer().notNull().default(30),
  runCount: integer().notNull().default(0),
  autoChain: text(),
  /** The current cycle step while Auto runs ("mastic", "status", "send", "status-again", "waiting"). */
  autoStep: text(),
  giftIds: jsonb().$type<string[]>(),
  giftsAt: timestamp({ withTimezone: true }),
  items: jsonb().$type<Array<{ index: number; goodsID: number | null; count: number; imageUrl: string }>>(),
  itemsCollectionId: integer(),
  itemsAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Activity Log (spec 2 §2): entries in-progress, success or error; the screen shows the latest 5. */
export const collectionsActivity = pgTable(
  "collections_activity",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    operatorId: uuid()
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    status: text().$type<ActivityStatus>().notNull(),
    message: text().notNull(),
    /** The Galaxy account logged in when it happened (issue 19 item 11); null for older entries. */
    accountId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.operatorId, t.id)],
);
