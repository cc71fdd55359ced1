import { integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/**
 * GalaCord, the Galaxy ↔ Discord relay (spec 2 §3 "Relay bot"; docs/galacord.md).
 * The Discord client and every relay connection are held by ONE session on the session host
 * (purpose `relay`, pseudo-account "bot"). These rows are what the operator asked for
 * (`desired`) and what the holder reports (`state`, `error`, `planet`), so any process renders them.
 */

/** The single bot row (id 1). */
export const galacordBot = pgTable("galacord_bot", {
  id: integer().primaryKey().default(1),
  desired: text().$type<"running" | "stopped">().notNull().default("stopped"),
  /** stopped; starting (login under way or backing off); running (clientReady); error (fatal, "Bot Error"). */
  state: text().$type<"stopped" | "starting" | "running" | "error">().notNull().default("stopped"),
  error: text(),
  /** The text channels the bot sees, written by the holder on clientReady: [{id, name, guildId, guildName}]. */
  channels: jsonb().$type<{ id: string; name: string; guildId: string; guildName: string }[]>().notNull().default([]),
  /** The bot's Discord user id (loop prevention needs it; shown nowhere). */
  botUserId: text(),
  worker: text(),
  since: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Saved GalaCord accounts (spec 2 §3 "Saved account"): one Galaxy connection relaying one planet to one channel. */
export const galacordAccounts = pgTable("galacord_accounts", {
  accountId: text().primaryKey(),
  nick: text().notNull(),
  planet: text(),
  channelId: text().notNull(),
  channelName: text().notNull(),
  guildName: text().notNull(),
  guildId: text(),
  /** encryptSecret: never logged, never sent to the browser. */
  recoveryCode: text().notNull(),
  /** encryptSecret: the password REGISTER handed out (later logins use it; 451 falls back to the code). */
  password: text(),
  desired: text().$type<"connected" | "disconnected">().notNull().default("connected"),
  /** offline; connecting (spinner); connected (after 900); error (login refused: the text in `error`). */
  state: text().$type<"offline" | "connecting" | "connected" | "error">().notNull().default("offline"),
  error: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Commands the holder must run on a live connection (planet changes); the result is written back. */
export const galacordCommands = pgTable("galacord_commands", {
  id: serial().primaryKey(),
  accountId: text().notNull(),
  kind: text().$type<"planet">().notNull(),
  arg: text().notNull(),
  status: text().$type<"pending" | "done" | "failed">().notNull().default("pending"),
  message: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  doneAt: timestamp({ withTimezone: true }),
});
