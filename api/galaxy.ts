/**
 * The /api contract of the Galaxy helper calls (spec 1 §7 "Bowling users", spec 2 §7
 * "Collections"), shared by the resource routes and the dashboard. Client-safe: no server imports.
 *
 *   POST /api/user-agent                               { [accountId]: {headers, sek, device, id, nick} }
 *        → { success: true, registered: string[], skipped: [{ id, reason }] }
 *   POST /api/user-details/gift-stats/{id}             {userID, password}          → { stats: GiftStat[] }
 *   POST /api/user-details/user-pic/{id}               {userID, password}          → { picUrl: string | null }
 *   POST /api/user-details/status/{id}                 {userID, password}          → { isOnline, room: string | null }
 *   POST /api/user-details/collection-stats/{id}       {userID, password, collectionId?} → { stats: { firstRow, secondRow } }
 *   POST /api/user-details/user-pics                   {userID, password, userIds} → { pics: { [id]: picUrl | null } }
 *   …and the same five under /api/bowling-users/.
 *
 * `{id}` is the account the details are about; userID/password are the game credentials the
 * platform call is made with. Header `X-Skip-Cache: true` bypasses the short answer cache.
 * Errors: 400 `{ error }` for bad input; 502 `{ error }` with the spec 1 §8 default text
 * when the platform call fails; 404 `{ error }` for an unknown detail kind.
 */
import { z } from "zod";

/** Spec 1 §8 default error texts of these calls. */
export const GALAXY_ERRORS = {
  setUserAgents: "Failed to set user agents",
  giftStats: "Failed to fetch gift stats",
  userPic: "Failed to fetch user pic",
  status: "Failed to fetch user status",
  collectionStats: "Failed to fetch collection stats",
  userPics: "Failed to fetch user pics",
  badAccountId: "Invalid account id",
  badUserId: "userID must be a numeric account id",
  badPassword: "password is required",
  badUserIds: "userIds must be a list of numeric account ids (at most 500)",
  badCollection: "collectionId must be 151, 161 or 178",
  badUserAgentMap: "Body must be a map of account id to {headers, sek, device, id, nick}",
  unknownKind: (kind: string) => `Unknown user detail "${kind}": use gift-stats, user-pic, status or collection-stats`,
} as const;

/** The four single-account details (spec 1 §7), in the order of the refresh flow. */
export const DETAIL_KINDS = ["gift-stats", "user-pic", "status", "collection-stats"] as const;
export type DetailKind = (typeof DETAIL_KINDS)[number];

/** Which spec 1 §8 default belongs to which call. */
export const DETAIL_ERRORS: Record<DetailKind | "user-pics", string> = {
  "gift-stats": GALAXY_ERRORS.giftStats,
  "user-pic": GALAXY_ERRORS.userPic,
  status: GALAXY_ERRORS.status,
  "collection-stats": GALAXY_ERRORS.collectionStats,
  "user-pics": GALAXY_ERRORS.userPics,
};

/** Spec 1 §9: collection 151 is "Capybara"; spec 2 §3: 161 and 178 are the Dragon sets. */
export const COLLECTIONS = { 151: "Capybara", 161: "Dragon Collection Set 1", 178: "Dragon Collection Set 2" } as const;
export const DEFAULT_COLLECTION_ID = 151;

/** Spec 1 §9: regular gift types and the amount at or above which each shows green. */
export const REGULAR_GIFT_THRESHOLDS: Record<number, number> = { 11: 50, 12: 200, 13: 250 };
export const SPECIAL_GIFT_TYPES = [1, 4, 8, 15] as const;

const ACCOUNT_ID = /^\d{1,12}$/;
export const accountIdSchema = z.union([z.string(), z.number()]).transform(String).pipe(z.string().regex(ACCOUNT_ID));
export function isAccountId(value: string | undefined): value is string {
  return !!value && ACCOUNT_ID.test(value);
}

/** Account ids arrive as text or numbers (REGISTER gives digits). */
const userIdField = z
  .union([z.string(), z.number()], { error: GALAXY_ERRORS.badUserId })
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(ACCOUNT_ID, { error: GALAXY_ERRORS.badUserId }));

/**
 * `{userID, password}` as spec 1 §7 has it, or `{userID}` alone for a stored account (our UI
 * sends that: passwords never reach the browser); the server then loads the stored password,
 * and an account it does not know without a password is a 400 "password is required".
 */
export const credentialsSchema = z.object({
  userID: userIdField,
  password: z.string({ error: GALAXY_ERRORS.badPassword }).min(1, { error: GALAXY_ERRORS.badPassword }).max(200).optional(),
});
export type Credentials = z.output<typeof credentialsSchema>;

export const collectionStatsBodySchema = credentialsSchema.extend({
  /** Optional: 161 or 178 (the Dragon sets of spec 2); default 151. */
  collectionId: z
    .union([z.number(), z.string()], { error: GALAXY_ERRORS.badCollection })
    .transform(Number)
    .pipe(z.number().int({ error: GALAXY_ERRORS.badCollection }).positive({ error: GALAXY_ERRORS.badCollection }))
    .optional(),
});

export const userPicsBodySchema = credentialsSchema.extend({
  userIds: z
    .array(
      z
        .union([z.string(), z.number()])
        .transform((v) => String(v).trim())
        .pipe(z.string().regex(ACCOUNT_ID)),
      {
        error: GALAXY_ERRORS.badUserIds,
      },
    )
    .max(500, { error: GALAXY_ERRORS.badUserIds }),
});

/** One entry of POST /api/user-agent (spec 1 §3 "User-agent record per account"). */
export const userAgentEntrySchema = z.object({
  /** The account's iHeaders: an object of header names to values, or its JSON text. */
  headers: z.unknown().optional(),
  /** Marks an Android device; stored encrypted. */
  sek: z.string().nullable().optional(),
  device: z.string().max(40).nullable().optional(),
  id: z.union([z.string(), z.number()]).nullable().optional(),
  nick: z.string().max(200).nullable().optional(),
});
export type UserAgentEntry = z.output<typeof userAgentEntrySchema>;

/** Largest user-agent map one request may register (a refresh sends one entry per account). */
export const MAX_USER_AGENTS = 20_000;

export const userAgentMapSchema = z
  .record(z.string(), z.unknown(), { error: GALAXY_ERRORS.badUserAgentMap })
  .refine((map) => Object.keys(map).length <= MAX_USER_AGENTS, { error: `At most ${MAX_USER_AGENTS} user agents per request` });

export type UserAgentResponse = {
  success: true;
  registered: string[];
  skipped: Array<{ id: string; reason: string }>;
};

/** Spec 1 §3 "Gift stat". */
export type GiftStatDto = { type: number; name: string; img: string; amount: number };
/** Spec 1 §3 "Collection stats": count is a string holding a number. */
export type CollectionItemDto = { imageUrl: string; count: string; goodsID: number | null; index: number | null };
export type GiftStatsResponse = { stats: GiftStatDto[] };
export type UserPicResponse = { picUrl: string | null };
export type StatusResponse = { isOnline: boolean; room: string | null };
export type CollectionStatsResponse = { stats: { firstRow: CollectionItemDto[]; secondRow: CollectionItemDto[] } };
export type UserPicsResponse = { pics: Record<string, string | null> };

/** X-Skip-Cache: true (case-insensitive) asks for a fresh platform call. */
export function skipCacheHeader(headers: Headers): boolean {
  return (headers.get("x-skip-cache") ?? "").trim().toLowerCase() === "true";
}
