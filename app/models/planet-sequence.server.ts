import { asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { defaultShuffle, TRADING_ERRORS, type PlanetSequence } from "#api/trading";
import type { SequenceInput, SequenceUpdate } from "#api/trading-schemas";
import { getDb } from "~/db/client.server";
import { planetSequences } from "~/db/schema";
import { isUuid } from "~/utils/uuid";
import { AppError } from "~/utils/app-error";
import { publishLive } from "~/queue/live.server";

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
  const rows = await db.select().from(planetSequences).orderBy(asc(planetSequences.position), asc(planetSequences.createdAt), asc(planetSequences.id));
  return rows.map(toSequence);
}

/** The list's whole order (read from `planet_sequences_order_index`, issue 32 item 1). */
const LIST_ORDER = [asc(planetSequences.position), asc(planetSequences.createdAt), asc(planetSequences.id)];

/** A case-insensitive substring of the name ("" = every sequence). */
function nameMatches(query: string): SQL | undefined {
  const q = query.trim().toLowerCase();
  return q ? sql`strpos(lower(${planetSequences.name}), ${q}) > 0` : undefined;
}

export type SequencesPage = {
  sequences: PlanetSequence[];
  /** Sequences matching the search (every one without a search). */
  total: number;
  /** Every sequence. */
  all: number;
  page: number;
  offset: number;
  /** With a search: each shown sequence's place in the whole list (0-based), for its move buttons. */
  places?: number[];
};

/**
 * One page of the list (issue 20 "Bounded pages"): `size` sequences from `page` (1-based; a
 * page past the end shows the last one), the total and the page's offset in the list. With
 * `query` (issue 32 item 2, `?seqQ=`), the sequences whose name holds it, in list order, each
 * with its place in the whole list.
 */
export async function listSequencesPage(page: number, size: number, query = ""): Promise<SequencesPage> {
  const db = await getDb();
  const where = nameMatches(query);
  const [[count], [matched]] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(planetSequences),
    where
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(planetSequences)
          .where(where)
      : Promise.resolve([undefined]),
  ]);
  const all = count?.n ?? 0;
  const total = where ? (matched?.n ?? 0) : all;
  const last = Math.max(1, Math.ceil(total / size));
  const shown = Math.min(Math.max(1, Math.floor(page) || 1), last);
  const offset = (shown - 1) * size;
  if (!where) {
    const rows = await sequencesPageQuery(db, size, offset);
    return { sequences: rows.map(toSequence), total, all, page: shown, offset };
  }
  // A search's rows carry their place in the whole list (a count of the rows before each, by the order index).
  const rows = await db
    .select({
      row: planetSequences,
      // The outer row's columns spelled out: drizzle writes a one-table select's columns unqualified.
      place: sql<number>`(select count(*)::int from ${planetSequences} b where (b.position, b.created_at, b.id) < ("planet_sequences"."position", "planet_sequences"."created_at", "planet_sequences"."id"))`,
    })
    .from(planetSequences)
    .where(where)
    .orderBy(...LIST_ORDER)
    .limit(size)
    .offset(offset);
  return { sequences: rows.map((r) => toSequence(r.row)), total, all, page: shown, offset, places: rows.map((r) => Number(r.place)) };
}

/** One page in list order, walked in `planet_sequences_order_index` (exported for the plan test). */
export function sequencesPageQuery(db: Awaited<ReturnType<typeof getDb>>, limit: number, offset: number) {
  return db
    .select()
    .from(planetSequences)
    .orderBy(...LIST_ORDER)
    .limit(limit)
    .offset(offset);
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
  publishLive("trading", { scope: "sequences" });
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
  publishLive("trading", { scope: "sequences" });
  return toSequence(row);
}

export async function deleteSequence(id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const db = await getDb();
  const rows = await db.delete(planetSequences).where(eq(planetSequences.id, id)).returning({ id: planetSequences.id });
  if (rows.length) publishLive("trading", { scope: "sequences" });
  return rows.length > 0;
}

/** Bulk active update (spec 2 §4): all ids must exist, else 404 and nothing changes. */
export async function setSequencesActive(ids: string[], isActive: boolean): Promise<PlanetSequence[]> {
  const unique = [...new Set(ids)];
  if (!unique.every(isUuid)) throw new AppError(404, TRADING_ERRORS.sequenceNotFound);
  const db = await getDb();
  const done = await db.transaction(async (tx) => {
    const rows = await tx.update(planetSequences).set({ isActive, updatedAt: new Date() }).where(inArray(planetSequences.id, unique)).returning();
    // Throwing rolls the whole update back: nothing changes when one id is unknown.
    if (rows.length !== unique.length) throw new AppError(404, TRADING_ERRORS.sequenceNotFound);
    return rows.map(toSequence);
  });
  publishLive("trading", { scope: "sequences" });
  return done;
}

/**
 * Stores a new list order: `ids` must be exactly the current sequences (a stale list from a
 * second tab is refused with 409 rather than half-applied).
 */
/**
 * Reorders a window of the list: `ids` are the sequences shown from list index `offset` on
 * (the whole list when `offset` is 0 and every id is posted), in their new order. The other
 * sequences keep their places, so a drag within one page keeps the global order right. When
 * the list at `offset` no longer holds exactly these ids (another tab added, deleted or moved
 * one), 409 and nothing changes. Positions are rewritten 0, 1, 2 … in one statement, for the
 * rows whose position changes.
 */
export async function reorderSequences(ids: string[], offset = 0): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const current = await tx
      .select({ id: planetSequences.id, position: planetSequences.position })
      .from(planetSequences)
      .orderBy(asc(planetSequences.position), asc(planetSequences.createdAt), asc(planetSequences.id))
      .for("update");
    const start = Math.floor(offset);
    const window = new Set(current.slice(start, start + ids.length).map((r) => r.id));
    if (!ids.length || start < 0 || new Set(ids).size !== ids.length || window.size !== ids.length || !ids.every((id) => window.has(id))) {
      throw new AppError(409, "The sequence list changed; reload and try again");
    }
    const order = [...current.slice(0, start).map((r) => r.id), ...ids, ...current.slice(start + ids.length).map((r) => r.id)];
    const was = new Map(current.map((r) => [r.id, r.position]));
    const changed = order.flatMap((id, position) => (was.get(id) === position ? [] : [{ id, position }]));
    if (!changed.length) return;
    await tx.execute(sql`
      update ${planetSequences} set position = v.position
      from jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) as v(id uuid, position int)
      where ${planetSequences.id} = v.id`);
  });
  publishLive("trading", { scope: "sequences" });
}

/** What a Move did: the sequence's name and its place (1-based) of how many; null when it is gone. */
export type SequenceMove = { name: string; position: number; total: number; moved: boolean };

/** Moves one sequence a place up (-1) or down (1); at the top or bottom it stays (`moved` false). */
export async function moveSequence(id: string, delta: -1 | 1): Promise<SequenceMove | null> {
  const list = await listSequences();
  const ids = list.map((s) => s._id);
  const from = ids.indexOf(id);
  if (from < 0) return null;
  const name = list[from]!.name;
  const to = from + delta;
  if (to < 0 || to >= ids.length) return { name, position: from + 1, total: ids.length, moved: false };
  [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  await reorderSequences(ids);
  return { name, position: to + 1, total: ids.length, moved: true };
}
