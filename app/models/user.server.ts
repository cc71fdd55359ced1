import { asc, eq, inArray } from "drizzle-orm";
import { ACCOUNT_ERRORS, type PublicUser } from "#api/accounts";
import { getDb, type Db } from "~/db/client.server";
import { users } from "~/db/schema";
import { deviceOf, parseHeaders } from "~/galaxy/user-agent";
import { isUuid } from "~/utils/uuid";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import { AppError } from "~/utils/app-error";
import { publishLive } from "~/queue/live.server";

/**
 * The accounts layer (spec 2 §3 User = spec 1 §3 Bowling user): every read and write of
 * game accounts. Passwords, recovery codes and sek are encrypted here on the way in and
 * decrypted only by `getUserCredentials`, which server code (workers, platform calls) uses;
 * everything a page or GET /api/users shows goes through `toPublicUser`.
 */

type Row = typeof users.$inferSelect;
type Executor = Pick<Db, "select" | "insert" | "update" | "delete">;

/** A user's secrets in plain form, for the server only (never log or return them). */
export type UserCredentials = {
  accountId: string;
  nick: string;
  password: string;
  recoveryCode: string | null;
  sek: string | null;
  /** Parsed iHeaders (null = web defaults). */
  headers: Record<string, string> | null;
  type: string | null;
};

export type UserInput = {
  accountId: string;
  nick: string;
  password: string;
  type?: string | null;
  recoveryCode?: string | null;
  iHeaders?: string | null;
  sek?: string | null;
};

function safeHeaders(text: string | null): Record<string, string> | null {
  if (!text) return null;
  try {
    return parseHeaders(text);
  } catch {
    return null;
  }
}

export function toPublicUser(row: Row): PublicUser {
  return {
    _id: row.id,
    account_id: row.accountId,
    nick: row.nick,
    type: row.type,
    device: deviceOf(safeHeaders(row.iHeaders) ?? {}, row.sek ? "sek" : null),
  };
}

/** Every user, by nick (case-insensitively) then account id. */
export async function listUsers(filter: { type?: string } = {}): Promise<PublicUser[]> {
  const db = await getDb();
  const q = db.select().from(users);
  const rows = await (filter.type ? q.where(eq(users.type, filter.type)) : q).orderBy(asc(users.nick), asc(users.accountId));
  return rows.map(toPublicUser).sort((a, b) => a.nick.localeCompare(b.nick, undefined, { sensitivity: "base" }) || a.account_id.localeCompare(b.account_id));
}

export async function getUser(accountId: string): Promise<PublicUser | null> {
  const db = await getDb();
  const [row] = await db.select().from(users).where(eq(users.accountId, accountId)).limit(1);
  return row ? toPublicUser(row) : null;
}

function credentialsOf(row: Row): UserCredentials {
  return {
    accountId: row.accountId,
    nick: row.nick,
    password: decryptSecret(row.password),
    recoveryCode: row.recoveryCode ? decryptSecret(row.recoveryCode) : null,
    sek: row.sek ? decryptSecret(row.sek) : null,
    headers: safeHeaders(row.iHeaders),
    type: row.type,
  };
}

/** The stored secrets of one account (server only). */
export async function getUserCredentials(accountId: string): Promise<UserCredentials | null> {
  const db = await getDb();
  const [row] = await db.select().from(users).where(eq(users.accountId, accountId)).limit(1);
  return row ? credentialsOf(row) : null;
}

/** The stored secrets of several accounts, keyed by account id (server only). */
export async function getUsersCredentials(accountIds: string[]): Promise<Map<string, UserCredentials>> {
  if (accountIds.length === 0) return new Map();
  const db = await getDb();
  const rows = await db.select().from(users).where(inArray(users.accountId, accountIds));
  return new Map(rows.map((r) => [r.accountId, credentialsOf(r)]));
}

/**
 * Creates or updates the account `input.accountId` (one statement). A missing `type`,
 * `iHeaders` or `sek` keeps what is stored; a given recovery code replaces the stored one.
 */
export async function upsertUser(input: UserInput, tx?: Executor): Promise<PublicUser> {
  const db = tx ?? (await getDb());
  const values = {
    accountId: input.accountId,
    nick: input.nick,
    password: encryptSecret(input.password),
    type: input.type ?? null,
    recoveryCode: input.recoveryCode ? encryptSecret(input.recoveryCode) : null,
    iHeaders: input.iHeaders ?? null,
    sek: input.sek ? encryptSecret(input.sek) : null,
    updatedAt: new Date(),
  };
  const set: Partial<typeof values> = { nick: values.nick, password: values.password, updatedAt: values.updatedAt };
  if (input.type !== undefined) set.type = values.type;
  if (input.recoveryCode) set.recoveryCode = values.recoveryCode;
  if (input.iHeaders !== undefined) set.iHeaders = values.iHeaders;
  if (input.sek !== undefined) set.sek = values.sek;
  const [row] = await db.insert(users).values(values).onConflictDoUpdate({ target: users.accountId, set }).returning();
  publishLive("characters", { scope: "users" });
  return toPublicUser(row!);
}

/** Stores a new password handed out by REGISTER (a recovery-code login changes it). */
export async function updateUserPassword(accountId: string, password: string): Promise<void> {
  const db = await getDb();
  await db
    .update(users)
    .set({ password: encryptSecret(password), updatedAt: new Date() })
    .where(eq(users.accountId, accountId));
}

/** `{id}` of DELETE /api/users/{id}: the `_id` or the account id. */
function whereId(id: string) {
  if (isUuid(id)) return eq(users.id, id);
  if (/^\d{1,12}$/.test(id)) return eq(users.accountId, id);
  return null;
}

/** Deletes one user; throws AppError(404) when there is none. Returns what was deleted. */
export async function deleteUser(id: string, tx?: Executor): Promise<PublicUser> {
  const where = whereId(id);
  if (!where) throw new AppError(404, ACCOUNT_ERRORS.userNotFound);
  const db = tx ?? (await getDb());
  const [row] = await db.delete(users).where(where).returning();
  if (!row) throw new AppError(404, ACCOUNT_ERRORS.userNotFound);
  publishLive("characters", { scope: "users" });
  return toPublicUser(row);
}
