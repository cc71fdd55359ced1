import { asc, eq, inArray, sql } from "drizzle-orm";
import { defaultShuffle, TRADING_ERRORS, type PlanetSequence } from "#api/trading";
import type { SequenceInput, SequenceUpdate } from "#api/trading-schemas";
import { getDb } from "~/db/client.server";
import { planetSequences } from "~/db/schema";
import { isUuid } from "~/utils/api.server";
import { AppError } from "~/utils/app-error";

/**
 * Planet sequences (spec 2 §3 "Trading planets"): all reads and writes. List order is the
 * `position` column; a new sequence goes last; reorder rewrites every position in one
 * transaction. Steps get an id and their shuffle default (true unless the type starts with
 * russian) when they arrive without one.
 */

type Row = typeof planetSequences.$inferSelect;

function toSequence(row: Row): PlanetSequence {
  return {
    _id: row.id,
    name: row.name,
    sequence: row.steps,
    seconds: row.seconds,
    closedPlanetsLevel: row.closedPlanetsLevel,
    openPlanetsLevel: row.openPlanetsLevel,
    isActive: row.isActive,
  };
}

function normalizeSteps(steps: { id?: string; planetType: string; shuffle?: boolean }[]) {
  return steps.map((s) => ({ id: s.id ?? crypto.randomUUID(), planetType: s.planetType, shuffle: s.shuffle ?? defaultShuffle(s.planetType) }));
}

export async function listSequences(): Promise<PlanetSequence[]> {
  const db = await getDb();
  const rows = await db.select().from(planetSequences).orderBy(asc(planetSequences.position), asc(planetSequences.createdAt));
  return rows.map(toSequence);
}

export async function getSequence(id: string): Promise<PlanetSequence | null> {
  if (!isUuid(id)) return null;
  const db = await getDb();
  const [row] = await db.select().from(planetSequences).where(eq(planetSequences.id, id));
  return row ? toSequence(row) : null;
}

type Db = Awaited<ReturnType<typeof getDb>>;

/** A sequence posts only where open level ≤ people ≤ closed level; the other way round it never posts. */
function checkLevels(closedPlanetsLevel: number, openPlanetsLevel: number) {
  if (closedPlanetsLevel < openPlanetsLevel) throw new AppError(400, TRADING_ERRORS.sequenceLevels);
}

/** Names tell sequences apart in the list, the run's logs and the trader cards: one of each (any case). */
async function checkNameFree(db: Db, name: string, exceptId?: string) {
  const rows = await db
    .select({ id: planetSequences.id })
    .from(planetSequences)
    .where(sql`lower(${planetSequences.name}) = lower(${name.trim()})`);
  if (rows.some((r) => r.id !== exceptId)) throw new AppError(409, TRADING_ERRORS.sequenceExists);
}

/** Throws AppError 400 when the closed level is below the open level, 409 when the name is taken. */
export async function createSequence(input: Omit<SequenceInput, "_id">): Promise<PlanetSequence> {
  checkLevels(input.closedPlanetsLevel, input.openPlanetsLevel);
  const db = await getDb();
  await checkNameFree(db, input.name);
  const [row] = await db
    .insert(planetSequences)
    .values({
      name: input.name,
      steps: normalizeSteps(input.sequence),
      seconds: input.seconds,
      closedPlanetsLevel: input.closedPlanetsLevel,
      openPlanetsLevel: input.openPlanetsLevel,
      isActive: input.isActive,
      position: sql`(select coalesce(max(${planetSequences.position}) + 1, 0) from ${planetSequences})`,
    })
    .returning();
  return toSequence(row!);
}

/** Throws AppError 404 when no sequence has that id, 400/409 as {@link createSequence}. */
export async function updateSequence(id: string, update: Omit<SequenceUpdate, "_id">): Promise<PlanetSequence> {
  if (!isUuid(id)) throw new AppError(404, TRADING_ERRORS.sequenceNotFound);
  const db = await getDb();
  if (update.closedPlanetsLevel !== undefined || update.openPlanetsLevel !== undefined) {
    const [stored] = await db
      .select({ closed: planetSequences.closedPlanetsLevel, open: planetSequences.openPlanetsLevel })
      .from(planetSequences)
      .where(eq(planetSequences.id, id));
    if (!stored) throw new AppError(404, TRADING_ERRORS.sequenceNotFound);
    checkLevels(update.closedPlanetsLevel ?? stored.closed, update.openPlanetsLevel ?? stored.open);
  }
  if (update.name !== undefined) await checkNameFree(db, update.name, id);
  const [row] = await db
    .update(planetSequences)
    .set({
      ...(update.name !== undefined && { name: update.name }),
      ...(update.sequence !== undefined && { steps: normalizeSteps(update.sequence) }),
      ...(update.seconds !== undefined && { seconds: update.seconds }),
      ...(update.closedPlanetsLevel !== undefined && { closedPlanetsLevel: update.closedPlanetsLevel }),
      ...(update.openPlanetsLevel !== undefined && { openPlanetsLevel: update.openPlanetsLevel }),
      ...(update.isActive !== undefined && { isActive: update.isActive }),
      updatedAt: new Date(),
    })
    .where(eq(planetSequences.id, id))
    .returning();
  if (!row) throw new AppError(404, TRADING_ERRORS.sequenceNotFound);
  return toSequence(row);
}

export async function deleteSequence(id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const db = await getDb();
  const rows = await db.delete(planetSequences).where(eq(planetSequences.id, id)).returning({ id: planetSequences.id });
  return rows.length > 0;
}

/** Bulk active update (spec 2 §4): all ids must exist, else 404 and nothing changes. */
export async function setSequencesActive(ids: string[], isActive: boolean): Promise<PlanetSequence[]> {
  const unique = [...new Set(ids)];
  if (!unique.every(isUuid)) throw new AppError(404, TRADING_ERRORS.sequenceNotFound);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const rows = await tx.update(planetSequences).set({ isActive, updatedAt: new Date() }).where(inArray(planetSequences.id, unique)).returning();
    // Throwing rolls the whole update back: nothing changes when one id is unknown.
    if (rows.length !== unique.length) throw new AppError(404, TRADING_ERRORS.sequenceNotFound);
    return rows.map(toSequence);
  });
}

/**
 * Stores a new list order: `ids` must be exactly the current sequences (a stale list from a
 * second tab is refused with 409 rather than half-applied).
 */
export async function reorderSequences(ids: string[]): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const current = await tx.select({ id: planetSequences.id }).from(planetSequences).for("update");
    const known = new Set(current.map((r) => r.id));
    if (ids.length !== known.size || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) {
      throw new AppError(409, "The sequence list changed; reload and try again");
    }
    for (const [position, id] of ids.entries()) await tx.update(planetSequences).set({ position }).where(eq(planetSequences.id, id));
  });
}

/** Moves one sequence up (-1) or down (+1): the no-JavaScript reorder. */
export async function moveSequence(id: string, delta: -1 | 1): Promise<boolean> {
  const ids = (await listSequences()).map((s) => s._id);
  const from = ids.indexOf(id);
  if (from < 0) return false;
  const to = from + delta;
  if (to < 0 || to >= ids.length) return true;
  [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  await reorderSequences(ids);
  return true;
}
