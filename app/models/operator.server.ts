import { hash, verify } from "@node-rs/argon2";
import { and, asc, eq, gt, lte, ne, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { operators, operatorSessions } from "~/db/schema";
import { newPasswordSchema, operatorNameSchema } from "~/utils/operator-rules";
import { remember } from "~/utils/remember.server";

/**
 * Operators (the people who may use the dashboard) and their server-side sessions.
 * Passwords are argon2id hashes (@node-rs/argon2 defaults: 19 MiB, t=2, p=1, the OWASP
 * minimum); sessions are rows whose id is the only thing the cookie carries.
 */
export type Operator = { id: string; name: string };
export type OperatorRow = Operator & { createdAt: Date };

/** A message meant for the person at the keyboard (form error, CLI stderr). */
export class OperatorError extends Error {
  override name = "OperatorError";
}

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
  if (!r.success) throw new OperatorError(r.error.issues[0]!.message);
  return r.data;
}

function checkNewPassword(password: string) {
  const r = newPasswordSchema.safeParse(password);
  if (!r.success) throw new OperatorError(r.error.issues[0]!.message);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * Creates an operator. With `onlyIfNone` (the first-run setup page) the insert happens only
 * while the table is empty, serialised by an advisory lock so two racing setup forms cannot
 * both win.
 */
export async function createOperator(name: string, password: string, opts: { onlyIfNone?: boolean } = {}): Promise<Operator> {
  const cleanName = parseName(name);
  checkNewPassword(password);
  const passwordHash = await hashPassword(password);
  const db = await getDb();
  const created = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('galaxy-toolbox:operators'))`);
    if (opts.onlyIfNone) {
      const [any] = await tx.select({ id: operators.id }).from(operators).limit(1);
      if (any) throw new OperatorError("An operator already exists. Log in instead.");
    }
    const [dupe] = await tx.select({ id: operators.id }).from(operators).where(eq(operators.name, cleanName));
    if (dupe) throw new OperatorError(`An operator named "${cleanName}" already exists`);
    const [row] = await tx.insert(operators).values({ name: cleanName, passwordHash }).returning({ id: operators.id, name: operators.name });
    return row!;
  });
  g.operatorExists = true;
  return created;
}

export async function findOperatorByName(name: string): Promise<Operator | null> {
  const db = await getDb();
  const [row] = await db.select({ id: operators.id, name: operators.name }).from(operators).where(eq(operators.name, name.trim()));
  return row ?? null;
}

export async function listOperators(): Promise<OperatorRow[]> {
  const db = await getDb();
  return db.select({ id: operators.id, name: operators.name, createdAt: operators.createdAt }).from(operators).orderBy(asc(operators.name));
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
  return ok ? { id: row.id, name: row.name } : null;
}

/** Sets a new password and ends the operator's other sessions (all of them without `keepSessionId`). */
export async function setOperatorPassword(operatorId: string, password: string, keepSessionId?: string): Promise<void> {
  checkNewPassword(password);
  const passwordHash = await hashPassword(password);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const rows = await tx.update(operators).set({ passwordHash }).where(eq(operators.id, operatorId)).returning({ id: operators.id });
    if (!rows.length) throw new OperatorError("No such operator");
    await tx
      .delete(operatorSessions)
      .where(
        keepSessionId ? and(eq(operatorSessions.operatorId, operatorId), ne(operatorSessions.id, keepSessionId)) : eq(operatorSessions.operatorId, operatorId),
      );
  });
}

/** Deletes an operator with their sessions and API tokens (cascade). False when unknown. */
export async function deleteOperator(name: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db.delete(operators).where(eq(operators.name, name.trim())).returning({ id: operators.id });
  resetOperatorExistsCache();
  // The operator's tokens went with it (on delete cascade).
  const { clearTokenCache } = await import("./api-token.server");
  clearTokenCache();
  return rows.length > 0;
}

// ---------------------------------------------------------------- sessions

export type SessionRow = { id: string; operatorId: string; expiresAt: Date };

export async function createSession(operatorId: string, now = new Date()): Promise<SessionRow> {
  const db = await getDb();
  // Housekeeping while we are here: this operator's expired sessions go.
  await db.delete(operatorSessions).where(and(eq(operatorSessions.operatorId, operatorId), lte(operatorSessions.expiresAt, now)));
  const [row] = await db
    .insert(operatorSessions)
    .values({ operatorId, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
    .returning({ id: operatorSessions.id, operatorId: operatorSessions.operatorId, expiresAt: operatorSessions.expiresAt });
  return row!;
}

export type SessionLookup = { operator: Operator; session: SessionRow; refreshed: boolean };

/**
 * The live session with its operator — one primary-key join — or null when unknown or
 * expired. A session last refreshed more than a day ago is pushed to a full 30 days again
 * (`refreshed: true`, so the caller can re-send the cookie).
 */
export async function findSession(sessionId: string, now = new Date()): Promise<SessionLookup | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      id: operatorSessions.id,
      operatorId: operatorSessions.operatorId,
      expiresAt: operatorSessions.expiresAt,
      name: operators.name,
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(and(eq(operatorSessions.id, sessionId), gt(operatorSessions.expiresAt, now)));
  if (!row) return null;
  const session: SessionRow = { id: row.id, operatorId: row.operatorId, expiresAt: row.expiresAt };
  let refreshed = false;
  if (row.expiresAt.getTime() - now.getTime() < SESSION_TTL_MS - SESSION_REFRESH_AFTER_MS) {
    session.expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await db.update(operatorSessions).set({ expiresAt: session.expiresAt }).where(eq(operatorSessions.id, row.id));
    refreshed = true;
  }
  return { operator: { id: row.operatorId, name: row.name }, session, refreshed };
}

export async function deleteSession(sessionId: string): Promise<void> {
  const db = await getDb();
  await db.delete(operatorSessions).where(eq(operatorSessions.id, sessionId));
}
