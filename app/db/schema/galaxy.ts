import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The user-agent record of each game account (spec 1 §3 "User-agent record per account":
 * headers, sek, device, id, nick), registered through POST /api/user-agent and by the
 * socket client after login. The HTTP services client builds its X-Galaxy-* headers from it.
 * `sek` marks an Android device; it is a device secret, so it is stored with encryptSecret.
 */
export const galaxyUserAgents = pgTable("galaxy_user_agents", {
  accountId: text().primaryKey(),
  headers: jsonb().$type<Record<string, string>>().notNull(),
  /** encryptSecret(sek), or null for a web account. */
  sek: text(),
  device: text().notNull().default("web"),
  nick: text(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
