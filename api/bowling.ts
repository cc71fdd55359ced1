/**
 * The /api contract of the Bowling Bots section (spec 1 §7 "Bowling users", "Companions"),
 * shared by the resource routes and the screen. Client-safe: no server imports.
 *
 *   GET    /api/bowling-users                → { users: PublicUser[], recipients: Candidate[], suppliers: Candidate[] }
 *   DELETE /api/bowling-users/{id}           (id = _id or account_id of a bowling account) → { success, user }
 *   GET    /api/bowling-users/last-fetched   → { lastFetched: ISO string | null }
 *   POST   /api/bowling-users/last-fetched {timestamp} → { lastFetched }
 *   GET    /api/bowling-companions           → Companion[] (the list itself)
 *   POST   /api/bowling-companions {bowling_id, supplier, consumer} → 201 { companion }
 *   PUT    /api/bowling-companions/{id}      same payload → { companion }
 *   DELETE /api/bowling-companions           → { message: "Deleted N companions", deletedCount: N }
 *
 * Errors: `{ error, message }` with the same text; the spec 1 §8 defaults below.
 */
import { z } from "zod";
import type { PublicUser } from "./accounts";

/** Account types (categories) of the section (spec 1 §3 "Bowling user": type bowling, recipients or suppliers). */
export const BOWLING_TYPES = { bowling: "bowling", recipients: "recipients", suppliers: "suppliers" } as const;

/** Spec 1 §8: the defaults of failed calls, and our texts for the answers the spec leaves open. */
export const BOWLING_ERRORS = {
  fetchCompanions: "Failed to fetch bowling companions",
  createCompanion: "Failed to create bowling companion",
  updateCompanion: "Failed to update bowling companion",
  deleteCompanions: "Failed to delete all bowling companions",
  fetchUsers: "Failed to fetch bowling users",
  deleteUser: "Failed to delete bowling user",
  getLastFetched: "Failed to get last fetched time",
  updateLastFetched: "Failed to update last fetched time",
  // Ours:
  bowlingUserNotFound: "Bowling user not found",
  companionNotFound: "Companion not found",
  companionExists: "This bowling account already has a companion",
  bowlingIdInvalid: "bowling_id must be the account id of a bowling account",
  supplierInvalid: "supplier must be the account id of a suppliers account",
  consumerInvalid: "consumer must be the account id of a recipients account",
  /** Spec 1 §5 "Companion requires both a supplier and a recipient". */
  companionIncomplete: "Companion requires both a supplier and a recipient",
  timestampInvalid: "timestamp must be an ISO date-time (e.g. 2026-11-23T15:00:00.000Z)",
} as const;

/** Spec 1 §8 "delete-all-companions shows the server message or 'Deleted N companions'". */
export function deletedCompanionsMessage(n: number): string {
  // Spec 1 §8's pattern for N ≠ 1; one companion in the singular (issue 19 item 10).
  return n === 1 ? "Deleted 1 companion" : `Deleted ${n} companions`;
}

/** Spec 1 §3 "Supplier and recipient candidates: _id, account_id, nick". */
export type BowlingCandidate = { _id: string; account_id: string; nick: string };

export type BowlingUsersResponse = { users: PublicUser[]; recipients: BowlingCandidate[]; suppliers: BowlingCandidate[] };

/** Spec 1 §3 "Companion: _id, bowling_id, supplier (account_id), consumer (account_id)". */
export type Companion = { _id: string; bowling_id: string; supplier: string; consumer: string };

export type DeleteCompanionsResponse = { message: string; deletedCount: number };

export type LastFetchedResponse = { lastFetched: string | null };

const ACCOUNT_ID = /^\d{1,12}$/;

function accountIdField(missing: string, invalid: string) {
  return z
    .union([z.string(), z.number()], { error: missing })
    .transform((v) => String(v).trim())
    .pipe(z.string().min(1, { error: missing }).regex(ACCOUNT_ID, { error: invalid }));
}

/** POST /api/bowling-companions and PUT /api/bowling-companions/{id}: account ids (string or number). */
export const companionBodySchema = z.object(
  {
    bowling_id: accountIdField(BOWLING_ERRORS.bowlingIdInvalid, BOWLING_ERRORS.bowlingIdInvalid),
    supplier: accountIdField(BOWLING_ERRORS.companionIncomplete, BOWLING_ERRORS.supplierInvalid),
    consumer: accountIdField(BOWLING_ERRORS.companionIncomplete, BOWLING_ERRORS.consumerInvalid),
  },
  { error: BOWLING_ERRORS.companionIncomplete },
);
export type CompanionBody = z.output<typeof companionBodySchema>;

/** Years outside this range are typing mistakes, not fetch times. */
const MIN_YEAR = 2000;
const MAX_YEAR = 2100;

/** POST /api/bowling-users/last-fetched {timestamp}: an ISO 8601 date-time with Z or an offset; stored as UTC ISO. */
export const lastFetchedBodySchema = z.object(
  {
    timestamp: z
      .string({ error: BOWLING_ERRORS.timestampInvalid })
      .max(40, { error: BOWLING_ERRORS.timestampInvalid })
      .pipe(z.iso.datetime({ offset: true, error: BOWLING_ERRORS.timestampInvalid }))
      .transform((v) => new Date(v))
      .refine((d) => !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= MIN_YEAR && d.getUTCFullYear() <= MAX_YEAR, {
        error: BOWLING_ERRORS.timestampInvalid,
      })
      .transform((d) => d.toISOString()),
  },
  { error: BOWLING_ERRORS.timestampInvalid },
);
