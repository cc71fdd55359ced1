import crypto from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { and, asc, count, eq, gt, lte, ne, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { AppError } from "~/utils/app-error";
import { operators, operatorSessions } from "~/db/schema";
import { newPasswordSchema, operatorNameSchema } from "~/utils/operator-rules";
import { remember } from "~/utils/remember.server";
import { clearTokenCache } from "./token-cache.server";
import { isRole, type Role } from "~/utils/roles";

/**
 * Operators (the people who may use the dashboard), their roles and their server-side
 * sessions. Passwords are argon2id hashes (@node-rs/argon2 defaults: 19 MiB, t=2, p=1, the
 * OWASP minimum); a session is a row found by the SHA-256 of the random token the cookie
 * carries. Roles: admin, operator, viewer (docs/decisions/0016); the first operator is admin
 * and the last admin can be neither demoted nor deleted.
 *
 * A refusal meant for the person at the keyboard (a form's error, the CLI's stderr) is an
 * AppError (docs/decisions/0023): 400 a bad name, password or role, 404 no such operator,
 * 409 a name taken or the last admin.
 */
export type Operator = { id: string; name: string; role: Role };
export type OperatorRow = Operator & { createdAt: Date };

const operatorColumns = { id: operators.id, name: operators.name, role: operators.role };

export const SESSION_TTL_MS = 30 * 86_400_000;
/** A used session is pushed back to a full 30 days at most this often (one UPDATE a day). */
export const SESSION_REFRESH_AFTER_MS = 86_400_000;

// "An operator exists" only ever becomes true in normal use, so it is cached once true.
const g = remember("operator", (): { operatorExists?: boolean } => ({}));

export async function operatorExists(): Promise<boolean> {
  if (g.operatorExists) return true;
  const db = await getDb();
  const [row] = await db.select({ id: operators.id }).from(operators).limit(1);
  if (row) g.operatorExists = true;
  return !!row;
}

/** Forget the cached answer (after deleting operators, and in tests). */
export function resetOperatorExistsCache() {
  g.operatorExists = undefined;
}

function parseName(name: string): string {
  const r = operatorNameSchema.safeParse(name);
  if (!r.success) throw new AppError(400, r.error.issues[0]!.message);
  return r.data;
}

function checkNewPassword(password: string) {
  const r = newPasswordSchema.safeParse(password);
  if (!r.success) throw new AppError(400, r.error.issues[0]!.message);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

function parseRole(role: unknown): Role {
  if (!isRole(role)) throw new AppError(400, "Role must be admin, operator or viewer");
  return role;
}

// Every change to operators takes this lock first: two setup forms, or two admins demoting
// each other, are serialised, so "the first is admin" and "one admin stays" hold under races.
const lockOperators = sql`select pg_advisory_xact_lock(hashtext('galaxy-toolbox:operators'))`;

/**
 * Creates an operator (role "operator" unless given). The first operator is always an admin.
 * With `onlyIfNone` (the first-run setup page) the insert happens only while the table is
 * empty, serialised by an advisory lock so two racing setup forms cannot both win.
 */
export async function createOperator(name: string, password: string, opts: { onlyIfNone?: boolean; role?: Role } = {}): Promise<Operator> {
  const cleanName = parseName(name);
  checkNewPassword(password);
  const role = parseRole(opts.role ?? "operator");
  const passwordHash = await hashPassword(password);
  const db = await getDb();
  const created = await db.transaction(async (tx) => {
    await tx.execute(lockOperators);
    const [any] = await tx.select({ id: operators.id }).from(operators).limit(1);
    if (opts.onlyIfNone && any) throw new AppError(409, "An operator already exists. Log in instead.");
    const [dupe] = await tx.select({ id: operators.id }).from(operators).where(eq(operators.name, cleanName));
    if (dupe) throw new AppError(409, `An operator named "${cleanName}" already exists`);
    const [row] = await tx
      .insert(operators)
      .values({ name: cleanName, passwordHash, role: any ? role : "admin" })
      .returning(operatorColumns);
    return row!;
  });
  g.operatorExists = true;
  return created;
}

export async function findOperatorByName(name: string): Promise<Operator | null> {
  const db = await getDb();
  const [row] = await db.select(operatorColumns).from(operators).where(eq(operators.name, name.trim()));
  return row ?? null;
}

export async function findOperatorById(id: string): Promise<Operator | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const db = await getDb();
  const [row] = await db.select(operatorColumns).from(operators).where(eq(operators.id, id));
  return row ?? null;
}

export async function listOperators(): Promise<OperatorRow[]> {
  const db = await getDb();
  return db
    .select({ ...operatorColumns, createdAt: operators.createdAt })
    .from(operators)
    .orderBy(asc(operators.name));
}

type Tx = Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["transaction"]>[0]>[0];

async function otherAdmins(tx: Tx, operatorId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(operators)
    .where(and(eq(operators.role, "admin"), ne(operators.id, operatorId)));
  return Number(row?.n ?? 0);
}

/** Changes an operator's role. The last admin cannot stop being one. Returns the operator as it now is. */
export async function setOperatorRole(operatorId: string, role: Role): Promise<Operator> {
  const newRole = parseRole(role);
  const db = await getDb();
  const updated = await db.transaction(async (tx) => {
    await tx.execute(lockOperators);
    const [current] = await tx.select(operatorColumns).from(operators).where(eq(operators.id, operatorId));
    if (!current) throw new AppError(404, "No such operator");
    if (current.role === "admin" && newRole !== "admin" && (await otherAdmins(tx, operatorId)) === 0) {
      throw new AppError(409, `${current.name} is the last admin: make another operator admin first`);
    }
    const [row] = await tx.update(operators).set({ role: newRole }).where(eq(operators.id, operatorId)).returning(operatorColumns);
    return row!;
  });
  // A token's role is its operator's: cached verdicts must not outlive a demotion.
  clearTokenCache();
  return updated;
}

// Verified when the name is unknown, so a wrong name costs as long as a wrong password and
// response times do not reveal which names exist.
let dummyHash: Promise<string> | undefined;

/** The operator when name and password match, else null. */
export async function verifyOperatorPassword(name: string, password: string): Promise<Operator | null> {
  const db = await getDb();
  const [row] = await db.select().from(operators).where(eq(operators.name, name.trim()));
  if (!row) {
    dummyHash ??= hash("not-a-real-password-just-burning-time");
    await verify(await dummyHash, password).catch(() => false);
    return null;
  }
  const ok = await verify(row.passwordHash, password).catch(() => false);
  return ok ? { id: row.id, name: row.name, role: row.role } : null;
}

/** Sets a new password and ends the operator's other sessions (all of them without `keepSessionId`). */
export async function setOperatorPassword(operatorId: string, password: string, keepSessionId?: string): Promise<void> {
  checkNewPassword(password);
  const passwordHash = await hashPassword(password);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const rows = await tx.update(operators).set({ passwordHash }).where(eq(operators.id, operatorId)).returning({ id: operators.id });
    if (!rows.length) throw new AppError(404, "No such operator");
    await tx
      .delete(operatorSessions)
      .where(
        keepSessionId ? and(eq(operatorSessions.operatorId, operatorId), ne(operatorSessions.id, keepSessionId)) : eq(operatorSessions.operatorId, operatorId),
      );
  });
}

/**
 * Deletes an operator with their sessions and API tokens (cascade). False when unknown.
 * The last admin cannot be deleted while other operators remain (someone must be able to
 * manage them); deleting the only operator is allowed and opens /setup again.
 */
export async function deleteOperator(name: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db.transaction(async (tx) => {
    await tx.execute(lockOperators);
    const [current] = await tx.select(operatorColumns).from(operators).where(eq(operators.name, name.trim()));
    if (!current) return [];
    const [others] = await tx.select({ n: count() }).from(operators).where(ne(operators.id, current.id));
    if (current.role === "admin" && Number(others?.n ?? 0) > 0 && (await otherAdmins(tx, current.id)) === 0) {
      throw new AppError(409, `${current.name} is the last admin and cannot be deleted: make another operator admin first`);
    }
    return tx.delete(operators).where(eq(operators.id, current.id)).returning({ id: operators.id });
  });
  resetOperatorExistsCache();
  // The operator's tokens went with it (on delete cascade).
  clearTokenCache();
  return rows.length > 0;
}

// ---------------------------------------------------------------- sessions

/** The row id names a session inside the server (logout, "keep this session"); the token never leaves the cookie. */
export type SessionRow = { id: string; operatorId: string; expiresAt: Date };
export type NewSession = SessionRow & { token: string };

/** The form a session token takes in the cookie: 32 random bytes, base64url (older sessions: their uuid). */
export const SESSION_TOKEN = /^[A-Za-z0-9_-]{36,64}$/;

export function hashSessionToken(token: string): string {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

export async function createSession(operatorId: string, now = new Date()): Promise<NewSession> {
  const db = await getDb();
  // Housekeeping while we are here: this operator's expired sessions go.
  await db.delete(operatorSessions).where(and(eq(operatorSessions.operatorId, operatorId), lte(operatorSessions.expiresAt, now)));
  const token = crypto.randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(operatorSessions)
    .values({ operatorId, tokenHash: hashSessionToken(token), expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
    .returning({ id: operatorSessions.id, operatorId: operatorSessions.operatorId, expiresAt: operatorSessions.expiresAt });
  return { ...row!, token };
}

export type SessionLookup = { operator: Operator; session: SessionRow; refreshed: boolean };

/**
 * The live session of a cookie's token with its operator — one unique-index join — or null
 * when unknown or expired. A session last refreshed more than a day ago is pushed to a full
 * 30 days again (`refreshed: true`, so the caller can re-send the cookie).
 */
export async function findSession(token: string, now = new Date()): Promise<SessionLookup | null> {
  if (!SESSION_TOKEN.test(token)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      id: operatorSessions.id,
      operatorId: operatorSessions.operatorId,
      expiresAt: operatorSessions.expiresAt,
      name: operators.name,
      role: operators.role,
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(and(eq(operatorSessions.tokenHash, hashSessionToken(token)), gt(operatorSessions.expiresAt, now)));
  if (!row) return null;
  const session: SessionRow = { id: row.id, operatorId: row.operatorId, expiresAt: row.expiresAt };
  let refreshed = false;
  if (row.expiresAt.getTime() - now.getTime() < SESSION_TTL_MS - SESSION_REFRESH_AFTER_MS) {
    session.expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await db.update(operatorSessions).set({ expiresAt: session.expiresAt }).where(eq(operatorSessions.id, row.id));
    refreshed = true;
  }
  return { operator: { id: row.operatorId, name: row.name, role: row.role }, session, refreshed };
}

/** Ends a session by its row id. */
export async function deleteSession(sessionId: string): Promise<void> {
  const db = await getDb();
  await db.delete(operatorSessions).where(eq(operatorSessions.id, sessionId));
}
