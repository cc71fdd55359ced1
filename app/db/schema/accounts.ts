import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The accounts layer (spec 2 §3 "Characters" User; spec 1 §3 "Bowling user" is the same
 * record): one row per game account, whatever section uses it. `type` is a category value
 * (stalker, trading, bowling, recipients, suppliers, or anything an operator adds); null
 * means "unknown". Secrets (password, recovery code, sek) are stored with encryptSecret and
 * never leave the server: app/models/user.server.ts hands the browser `PublicUser` only.
 */
export const users = pgTable(
  "users",
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: text().notNull().unique(),
    nick: text().notNull(),
    /** encryptSecret(password). */
    password: text().notNull(),
    /** encryptSecret(recovery code), kept only when an operator gave one (451 fallback). */
    recoveryCode: text(),
    type: text(),
    /** JSON text of request headers (may carry X-Galaxy-Platform); null = web defaults. */
    iHeaders: text(),
    /** encryptSecret(sek): marks an Android device. */
    sek: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.type),
    // All Characters' order (app/models/character-page.server.ts `USERS_ORDER`): the page is
    // read from this index, not sorted from the whole table (issue 32 item 1). The expressions
    // must stay the very text of the query's ORDER BY for the planner to use it.
    index("users_page_order_index").on(
      sql`(case coalesce(nullif(btrim(${t.type}), ''), 'unknown') when 'stalker' then 0 when 'trading' then 1 when 'bowling' then 2 else 3 end)`,
      sql`lower(coalesce(nullif(btrim(${t.type}), ''), 'unknown'))`,
      sql`(coalesce(nullif(btrim(${t.type}), ''), 'unknown'))`,
      sql`lower(${t.nick})`,
      t.nick,
      t.accountId,
    ),
    // Bowling Bots' order (app/models/bowling-page.server.ts `listOrder`) among bowling accounts.
    index("users_bowling_order_index")
      .on(sql`lower(${t.nick})`, t.nick, t.accountId)
      .where(sql`${t.type} = 'bowling'`),
  ],
);

/**
 * The fleet's change counter and size, one row kept by triggers on `users` and
 * `character_details` (migration 0020, issue 32 item 1): every statement that writes either
 * table adds one to `version` in its own transaction, and inserts and deletes of users move
 * `users`. Reading the fingerprint or the fleet's size is one row, whatever the fleet.
 * app/models/fleet-memo.server.ts.
 */
export const fleetState = pgTable(
  "fleet_state",
  {
    id: integer().primaryKey().default(1),
    version: bigint({ mode: "number" }).notNull().default(0),
    users: integer().notNull().default(0),
  },
  (t) => [check("fleet_state_one_row", sql`${t.id} = 1`)],
);

/** Categories `{_id, value}` (spec 2 §3): free text, trimmed, unique. */
export const categories = pgTable("categories", {
  id: uuid().primaryKey().defaultRandom(),
  value: text().notNull().unique(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * What the dashboard knows about each character from the platform (spec 2 §3 "Gift stat per
 * user", "User status", "Picture per user"), written by the details refresh job and by stalker
 * sightings, read by every page render: the All Characters and Bowling Bots screens render from
 * here (with and without JavaScript), never from a browser-side fetch loop.
 */
export const characterDetails = pgTable("character_details", {
  accountId: text().primaryKey(),
  picUrl: text(),
  picAt: timestamp({ withTimezone: true }),
  isOnline: boolean(),
  room: text(),
  /** Where the status came from: "service" (HTTP status call) or "stalker" (a sighting). */
  statusSource: text(),
  statusAt: timestamp({ withTimezone: true }),
  gifts: jsonb().$type<Array<{ type: number; name: string; img: string; amount: number }>>(),
  /**
   * The last gift stats call failed. The gifts stored before stay (shown stale); a row with
   * no gifts at all says "Failed to load gifts".
   */
  giftsFailed: boolean().notNull().default(false),
  /** When the stored gifts were fetched (a failed call leaves it, so the age of stale gifts shows). */
  giftsAt: timestamp({ withTimezone: true }),
  collection: jsonb().$type<unknown>(),
  collectionAt: timestamp({ withTimezone: true }),
  /**
   * The last failed call of each part (pic, status, gifts, collection) with the platform's
   * reason and when it failed; a successful call of that part removes its entry. A part with
   * an entry shows its last known value marked stale (CONVENTIONS rule 17).
   */
  lastErrors: jsonb().$type<Partial<Record<"pic" | "status" | "gifts" | "collection", { reason: string; at: string }>>>().notNull().default({}),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Where stalkers saw each user last (galaxy-runtime.md §1.3 "Observation", our design;
 * docs/stalker.md "Sightings"): ONE row per user, however many stalkers share the planet —
 * the latest visit: nick, planet, when it began (`firstSeen`), when it was last confirmed
 * (`lastSeen`), when the user left (`leftAt`, null while there) and which stalker reported it.
 * Written in batches by each worker's sightings recorder (app/models/sighting.server.ts).
 */
export const sightings = pgTable(
  "sightings",
  {
    userId: text().primaryKey(),
    nick: text().notNull(),
    planet: text().notNull(),
    firstSeen: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeen: timestamp({ withTimezone: true }).notNull().defaultNow(),
    leftAt: timestamp({ withTimezone: true }),
    /** The stalker whose report this is. */
    seenBy: text().notNull(),
  },
  (t) => [index().on(t.planet)],
);
