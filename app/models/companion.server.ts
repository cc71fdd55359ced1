import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { BOWLING_ERRORS, BOWLING_TYPES, type Companion, type CompanionBody } from "#api/bowling";
import { getDb, type Db } from "~/db/client.server";
import { bowlingCompanions, users } from "~/db/schema";
import { isUuid } from "~/utils/uuid";
import { AppError } from "~/utils/app-error";
import { auditNote } from "~/utils/audit-context.server";
import { counted } from "~/models/audit-target.server";
import { publishLive } from "~/queue/live.server";

/**
 * Bowling companions (spec 1 §3 "Companion", §5, §7 "Companions"): every read and write of
 * `bowling_companions`. A companion names three existing accounts of the right types —
 * bowling_id a bowling account, supplier a suppliers account, consumer a recipients account —
 * and a bowling account has at most one (a second POST is 409; PUT changes it). Deleting any
 * of the three accounts removes the companion (foreign keys, cascade).
 */

type Row = typeof bowlingCompanions.$inferSelect;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

function toCompanion(row: Row): Companion {
  return { _id: row.id, bowling_id: row.bowlingId, supplier: row.supplier, consumer: row.consumer };
}

/** Every companion, by bowling account id (numerically). */
export async function listCompanions(): Promise<Companion[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(bowlingCompanions)
    .orderBy(sql`length(${bowlingCompanions.bowlingId})`, bowlingCompanions.bowlingId);
  return rows.map(toCompanion);
}

/** The three accounts must exist with the right types; locks them (FOR SHARE) until the write commits. */
async function checkAccounts(tx: Tx, body: CompanionBody): Promise<void> {
  const ids = [...new Set([body.bowling_id, body.supplier, body.consumer])];
  const rows = await tx.select({ accountId: users.accountId, type: users.type }).from(users).where(inArray(users.accountId, ids)).for("share");
  const typeOf = new Map(rows.map((r) => [r.accountId, r.type]));
  if (typeOf.get(body.bowling_id) !== BOWLING_TYPES.bowling) throw new AppError(400, BOWLING_ERRORS.bowlingIdInvalid);
  if (typeOf.get(body.supplier) !== BOWLING_TYPES.suppliers) throw new AppError(400, BOWLING_ERRORS.supplierInvalid);
  if (typeOf.get(body.consumer) !== BOWLING_TYPES.recipients) throw new AppError(400, BOWLING_ERRORS.consumerInvalid);
}

function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) if (e.code === "23505") return true;
  return false;
}

/** Assigns a companion to a bowling account; 409 when it already has one. */
export async function createCompanion(body: CompanionBody): Promise<Companion> {
  const db = await getDb();
  try {
    const made = await db.transaction(async (tx) => {
      await checkAccounts(tx, body);
      const [row] = await tx
        .insert(bowlingCompanions)
        .values({ bowlingId: body.bowling_id, supplier: body.supplier, consumer: body.consumer })
        .onConflictDoNothing({ target: bowlingCompanions.bowlingId })
        .returning();
      if (!row) throw new AppError(409, BOWLING_ERRORS.companionExists);
      return toCompanion(row);
    });
    publishLive("characters", { scope: "companions" });
    return made;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, BOWLING_ERRORS.companionExists);
    throw err;
  }
}

/**
 * Changes companion `id` (its `_id`); 404 when there is none; 409 when the new bowling_id
 * already has another companion.
 */
export async function updateCompanion(id: string, body: CompanionBody): Promise<Companion> {
  if (!isUuid(id)) throw new AppError(404, BOWLING_ERRORS.companionNotFound);
  const db = await getDb();
  try {
    const changed = await db.transaction(async (tx) => {
      const [current] = await tx.select({ id: bowlingCompanions.id }).from(bowlingCompanions).where(eq(bowlingCompanions.id, id)).for("update");
      if (!current) throw new AppError(404, BOWLING_ERRORS.companionNotFound);
      await checkAccounts(tx, body);
      const [other] = await tx
        .select({ id: bowlingCompanions.id })
        .from(bowlingCompanions)
        .where(and(eq(bowlingCompanions.bowlingId, body.bowling_id), ne(bowlingCompanions.id, id)));
      if (other) throw new AppError(409, BOWLING_ERRORS.companionExists);
      const [row] = await tx
        .update(bowlingCompanions)
        .set({ bowlingId: body.bowling_id, supplier: body.supplier, consumer: body.consumer, updatedAt: new Date() })
        .where(eq(bowlingCompanions.id, id))
        .returning();
      return toCompanion(row!);
    });
    publishLive("characters", { scope: "companions" });
    return changed;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, BOWLING_ERRORS.companionExists);
    throw err;
  }
}

/** Deletes every companion; returns how many there were. */
export async function deleteAllCompanions(): Promise<number> {
  const db = await getDb();
  const rows = await db.delete(bowlingCompanions).returning({ id: bowlingCompanions.id });
  auditNote({ target: counted(rows.length, "companion") });
  if (rows.length) publishLive("characters", { scope: "companions" });
  return rows.length;
}
