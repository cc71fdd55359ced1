import { bigint, boolean, index, jsonb, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import type { Tier } from "#api/rates";
import { operators } from "./auth";

/**
 * Exchange rates (spec 1 §3 "Exchange rates"): one row per input/output pair.
 *
 * The tiers live in a jsonb array on the pair rather than in a child table: they are only
 * ever read and written whole with their pair, never queried on their own; the array keeps
 * the operator's tier order (T1, T2, … by position) and each rate's JSON type ("1/2" stays a
 * string, 1.5 a number); and a batch import stays one row per pair (5,000 pairs = one
 * multi-row upsert instead of upserts plus tier deletes and inserts). A flat rate is stored
 * as the one default tier `[{ quantity: 0, rate }]`, so no separate flag is needed.
 * See docs/decisions/0005-rates-api.md.
 */
export const exchangeRates = pgTable(
  "exchange_rates",
  {
    id: uuid().primaryKey().defaultRandom(),
    inputItem: text().notNull(),
    outputItem: text().notNull(),
    tiers: jsonb().$type<Tier[]>().notNull(),
    /** true = enabled. */
    status: boolean().notNull().default(true),
    /**
     * Creation order: GET /api/rates lists inputs and outputs in the order they were first
     * created. An identity never changes on update, and a multi-row insert numbers its rows
     * in order (timestamps would tie inside one batch).
     */
    position: bigint({ mode: "number" }).generatedAlwaysAsIdentity(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("exchange_rates_pair_unique").on(t.inputItem, t.outputItem), index().on(t.position)],
);

/** One deleted pair exactly as it was, so Undo can put it back (same id and list position). */
export type DeletedRate = {
  id: string;
  inputItem: string;
  outputItem: string;
  tiers: Tier[];
  status: boolean;
  position: number;
  createdAt: string;
};

/**
 * Deletions an operator can still undo (CONVENTIONS rule 7, "offer Undo"): a row delete or
 * a delete-all keeps what it removed here for a short while (RATE_LIMITS.undoWindowMs);
 * Undo restores it and drops the record, expired records go at the next deletion.
 */
export const rateDeletions = pgTable(
  "rate_deletions",
  {
    id: uuid().primaryKey().defaultRandom(),
    operatorId: uuid()
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    /** What went, in words ("Gold Ring → Clay"). */
    label: text().notNull(),
    rows: jsonb().$type<DeletedRate[]>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.operatorId, t.createdAt)],
);
