/**
 * The /api contract of the accounts layer (spec 2 §7 "Characters"), shared by the resource
 * routes, the All Characters screen and the sections that reuse accounts (Bowling Bots,
 * Trading Planets, GalaCord, Collections). Client-safe: no server imports.
 *
 *   GET    /api/users                 → { users: PublicUser[] }
 *   DELETE /api/users/{id}            (id = _id or account_id) → { success, message }
 *   GET    /api/categories            → { categories: [{ _id, value }] }
 *   POST   /api/categories {value}    → { category }
 *   DELETE /api/categories/{id}       → { success, message }
 *   POST   /api/create-creds {rc, type} → { user: PublicUser }
 *
 * Errors: `{ error, message }` with the same text; the spec 2 §8 fallbacks below.
 */
import { z } from "zod";

/** Spec 2 §8 "Characters": toast texts (success) and fallbacks of failed calls. */
export const ACCOUNT_MESSAGES = {
  userCreated: "User created successfully",
  categoryCreated: "Category created successfully",
  categoryDeleted: "Category deleted successfully",
  userDeleted: "User deleted successfully",
  stalkerStarted: "Stalker started successfully",
  stalkerStopped: "Stalker stopped successfully",
  /** Ours: the start was taken, the login is still under way (the card follows live). */
  stalkerConnecting: "Stalker is connecting",
} as const;

export const ACCOUNT_ERRORS = {
  createUser: "Failed to create user",
  createCategory: "Failed to create category",
  deleteCategory: "Failed to delete category",
  startStalker: "Failed to start stalker",
  stopStalker: "Failed to stop stalker",
  deleteUser: "Failed to delete user",
  fetchData: "Failed to fetch data",
  fetchUserDetails: "Failed to fetch user details",
  loadDailyTotals: "Failed to load daily totals",
  // Ours (the spec leaves the server's answers open):
  userNotFound: "User not found",
  categoryNotFound: "Category not found",
  categoryExists: "Category already exists",
  categoryRequired: "Category name is required",
  categoryTooLong: "Category name is at most 40 characters",
  rcRequired: "Recovery code is required",
  rcFormat: "Recovery code must be 4 to 32 letters or digits",
  typeRequired: "Category is required",
  notStalker: "Only users of type stalker have a stalker",
  accountIdRequired: "account_id must be a numeric account id",
} as const;

/** Account types both specs name; a fresh database offers them as categories. */
export const DEFAULT_CATEGORIES = ["stalker", "trading", "bowling", "recipients", "suppliers"] as const;
/** Spec 2 §2: groups stalker, trading and bowling come first, the others alphabetically. */
export const FIRST_GROUPS = ["stalker", "trading", "bowling"] as const;
/** A user without a type is in this group (spec 2 §3: "missing means unknown"). */
export const UNKNOWN_TYPE = "unknown";

/**
 * What the browser and GET /api/users see of a user: never the password, recovery code,
 * sek or iHeaders. `device` is "android" when the account has a sek (spec 2 §2 platform
 * icon), else the platform header of its iHeaders, default "web".
 */
export type PublicUser = {
  _id: string;
  account_id: string;
  nick: string;
  type: string | null;
  device: string;
};

export type Category = { _id: string; value: string };

export const CATEGORY_MAX = 40;

export const categoryValueSchema = z
  .string({ error: ACCOUNT_ERRORS.categoryRequired })
  .transform((v) => v.trim())
  .pipe(z.string().min(1, { error: ACCOUNT_ERRORS.categoryRequired }).max(CATEGORY_MAX, { error: ACCOUNT_ERRORS.categoryTooLong }));

export const createCategorySchema = z.object({ value: categoryValueSchema });

/** A recovery code: the web client asks for "8 or 10 symbols"; we accept 4–32 letters/digits. */
export const recoveryCodeSchema = z
  .string({ error: ACCOUNT_ERRORS.rcRequired })
  .transform((v) => v.trim())
  .pipe(
    z
      .string()
      .min(1, { error: ACCOUNT_ERRORS.rcRequired })
      .regex(/^[A-Za-z0-9]{4,32}$/, { error: ACCOUNT_ERRORS.rcFormat }),
  );

/** Take the account over from another purpose that holds it (docs/sessions.md "One account, one holder"). */
export const takeoverSchema = z.boolean({ error: "takeover: must be true or false" }).optional();

export const createCredsSchema = z.object({
  rc: recoveryCodeSchema,
  takeover: takeoverSchema,
  type: z
    .string({ error: ACCOUNT_ERRORS.typeRequired })
    .transform((v) => v.trim())
    .pipe(z.string().min(1, { error: ACCOUNT_ERRORS.typeRequired }).max(CATEGORY_MAX, { error: ACCOUNT_ERRORS.categoryTooLong })),
});

export const stalkerBodySchema = z.object({
  account_id: z
    .union([z.string(), z.number()], { error: ACCOUNT_ERRORS.accountIdRequired })
    .transform((v) => String(v).trim())
    .pipe(z.string().regex(/^\d{1,12}$/, { error: ACCOUNT_ERRORS.accountIdRequired })),
  takeover: takeoverSchema,
});

/** Group key of a user (its type, or "unknown"). */
export function groupOf(type: string | null | undefined): string {
  const t = type?.trim();
  return t ? t : UNKNOWN_TYPE;
}

/** Spec 2 §2 group order: stalker, trading, bowling, then the rest alphabetically. */
export function compareGroups(a: string, b: string): number {
  const ia = (FIRST_GROUPS as readonly string[]).indexOf(a);
  const ib = (FIRST_GROUPS as readonly string[]).indexOf(b);
  if (ia !== -1 || ib !== -1) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
  return a.localeCompare(b);
}
