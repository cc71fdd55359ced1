import { asc, eq, inArray } from "drizzle-orm";
import type { PublicUser } from "#api/accounts";
import { BOWLING_ERRORS, BOWLING_TYPES, type BowlingCandidate, type BowlingUsersResponse } from "#api/bowling";
import { getDb, type Db } from "~/db/client.server";
import { appSettings, users } from "~/db/schema";
import { isUuid } from "~/utils/uuid";
import { decryptSecret } from "~/utils/secrets.server";
import { removeUser } from "./account.server";
import { toPublicUser } from "./user.server";
import { AppError } from "~/utils/app-error";

/**
 * Bowling users (spec 1 §3 "Bowling user", §7 "Bowling users"): the accounts of type bowling,
 * with the recipients and suppliers a companion can name (spec 1 §3 "Supplier and recipient
 * candidates: _id, account_id, nick"). They are rows of the accounts layer (created in All
 * Characters); nothing here ever returns a password, recovery code, sek or iHeaders.
 */

/** app_settings key of spec 1 §3 "Last-fetched". */
export const LAST_FETCHED_KEY = "bowling.last-fetched";

const byNick = (a: { nick: string; account_id: string }, b: { nick: string; account_id: string }) =>
  a.nick.localeCompare(b.nick, undefined, { sensitivity: "base" }) || a.account_id.localeCompare(b.account_id);

/** A bowling account as the Refresh job acts with it: secrets decrypted (never leaves the server). */
export type BowlingAccount = { accountId: string; nick: string; password: string; sek: string | null; iHeaders: string | null };

/** Every bowling account (type "bowling") with its credentials, for the Refresh job (jobs/processors/bowling.ts). */
export async function listBowlingAccounts(): Promise<BowlingAccount[]> {
  const db = await getDb();
  const rows = await db
    .select({ accountId: users.accountId, nick: users.nick, password: users.password, sek: users.sek, iHeaders: users.iHeaders })
    .from(users)
    .where(inArray(users.type, [BOWLING_TYPES.bowling]));
  return rows.map((r) => ({
    accountId: r.accountId,
    nick: r.nick,
    password: decryptSecret(r.password),
    sek: r.sek ? decryptSecret(r.sek) : null,
    iHeaders: r.iHeaders,
  }));
}

/** One query: bowling users (PublicUser), recipients and suppliers (candidates), each by nick. */
export async function listBowlingUsers(): Promise<BowlingUsersResponse> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(users)
    .where(inArray(users.type, [BOWLING_TYPES.bowling, BOWLING_TYPES.recipients, BOWLING_TYPES.suppliers]))
    .orderBy(asc(users.nick), asc(users.accountId));
  const of = (type: string) => rows.filter((r) => r.type === type);
  const candidate = (r: (typeof rows)[number]): BowlingCandidate => ({ _id: r.id, account_id: r.accountId, nick: r.nick });
  const list: PublicUser[] = of(BOWLING_TYPES.bowling).map(toPublicUser).sort(byNick);
  return {
    users: list,
    recipients: of(BOWLING_TYPES.recipients).map(candidate).sort(byNick),
    suppliers: of(BOWLING_TYPES.suppliers).map(candidate).sort(byNick),
  };
}

/**
 * Deletes bowling user `id` (`_id` or account id) with what hangs on it (removeUser: details,
 * selections, stalker; its companion cascades). 404 "Bowling user not found" when there is no
 * such account or it is not of type bowling (other accounts are deleted in All Characters).
 */
export async function removeBowlingUser(id: string): Promise<PublicUser> {
  const db = await getDb();
  const where = isUuid(id) ? eq(users.id, id) : /^\d{1,12}$/.test(id) ? eq(users.accountId, id) : null;
  if (!where) throw new AppError(404, BOWLING_ERRORS.bowlingUserNotFound);
  const [row] = await db.select({ accountId: users.accountId, type: users.type }).from(users).where(where).limit(1);
  if (!row || row.type !== BOWLING_TYPES.bowling) throw new AppError(404, BOWLING_ERRORS.bowlingUserNotFound);
  try {
    return await removeUser(row.accountId);
  } catch (err) {
    // Deleted by someone else in between.
    if (err instanceof AppError && err.status === 404) throw new AppError(404, BOWLING_ERRORS.bowlingUserNotFound);
    throw err;
  }
}

/** Spec 1 §3 "Last-fetched: a timestamp (ISO)"; null until the first refresh. */
export async function getLastFetched(): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, LAST_FETCHED_KEY)).limit(1);
  return typeof row?.value === "string" ? row.value : null;
}

/** Stores the last-fetched time (a UTC ISO string, validated by lastFetchedBodySchema). */
export async function setLastFetched(iso: string, tx?: Pick<Db, "insert">): Promise<string> {
  const db = tx ?? (await getDb());
  const now = new Date();
  await db
    .insert(appSettings)
    .values({ key: LAST_FETCHED_KEY, value: iso, updatedAt: now })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: iso, updatedAt: now } });
  return iso;
}
