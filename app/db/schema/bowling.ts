import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/**
 * Bowling companions (spec 1 §3 "Companion": _id, bowling_id, supplier, consumer; §5
 * "Companion requires both a supplier and a recipient"): at most one per bowling account
 * (`bowlingId` unique). All three columns are account ids of `users`; deleting (or
 * renumbering) any of the three accounts takes the companion with it. Types (bowling,
 * suppliers, recipients) are checked by app/models/companion.server.ts on every write.
 */
export const bowlingCompanions = pgTable(
  "bowling_companions",
  {
    id: uuid().primaryKey().defaultRandom(),
    bowlingId: text()
      .notNull()
      .unique()
      .references(() => users.accountId, { onDelete: "cascade", onUpdate: "cascade" }),
    supplier: text()
      .notNull()
      .references(() => users.accountId, { onDelete: "cascade", onUpdate: "cascade" }),
    consumer: text()
      .notNull()
      .references(() => users.accountId, { onDelete: "cascade", onUpdate: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.supplier), index().on(t.consumer)],
);
