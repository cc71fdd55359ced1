import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { RelayOptions } from "#api/galacord";

/**
 * GalaCord, the Galaxy ↔ Discord relay (spec 2 §3 "Relay bot"; docs/galacord.md).
 * The Discord client and every relay connection are held by ONE session on the session host
 * (purpose `relay`, key "bot"). What the operator asked for and what is live in the `sessions`
 * table (purpose `relay` for the bot, `relay-link` per saved account; docs/sessions.md); these
 * rows keep what GalaCord itself needs: the channels the bot sees, the saved accounts with their
 * channel, saved planet and encrypted credentials.
 */

/** The single bot row (id 1). */
export const galacordBot = pgTable("galacord_bot", {
  id: integer().primaryKey().default(1),
  /** The text channels the bot sees, written by the holder on clientReady: [{id, name, guildId, guildName}]. */
  channels: jsonb().$type<{ id: string; name: string; guildId: string; guildName: string }[]>().notNull().default([]),
  /** The bot's Discord user id (loop prevention needs it; shown nowhere). */
  botUserId: text(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Saved GalaCord accounts (spec 2 §3 "Saved account"): one Galaxy connection relaying one planet to one channel. */
export const galacordAccounts = pgTable("galacord_accounts", {
  accountId: text().primaryKey(),
  nick: text().notNull(),
  /** The saved planet: joined on every (re)connect; kept through errors (a 950 does not forget it). */
  planet: text(),
  channelId: text().notNull(),
  channelName: text().notNull(),
  guildName: text().notNull(),
  guildId: text(),
  /** encryptSecret: never logged, never sent to the browser. */
  recoveryCode: text().notNull(),
  /** encryptSecret: the password REGISTER handed out (later logins use it; 451 falls back to the code). */
  password: text(),
  /** Per-connection relay options (issue 22 B.5): name templates, ignore list, ignore regex; {} = the defaults. */
  relayOptions: jsonb().$type<Partial<RelayOptions>>().notNull().default({}),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
