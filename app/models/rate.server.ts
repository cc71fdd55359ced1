import { and, asc, desc, eq, gt, lt, or, sql, type SQL } from "drizzle-orm";
import { payloadToTiers, RATE_LIMITS, RATE_MESSAGES, tiersToRateFields, type RateData, type RateEntry, type RatesMap, type Tier } from "#api/rates";
import { rateBatchSchema, rateEntrySchema, rateStatusSchema } from "#api/rates-schemas";
import { findGift } from "~/data/gifts";
import { getDb } from "~/db/client.server";
import { exchangeRates, rateDeletions, type DeletedRate } from "~/db/schema";
import { isUuid } from "~/utils/uuid";
import { remember } from "~/utils/remember.server";
import { publishLive } from "~/queue/live.server";
import { AppError } from "~/utils/app-error";

/**
 * Every read and write of exchange rates (spec 1 §3 "Exchange rates", §5, §7 "Rates").
 * Routes and the Exchange Rates section go through here; nothing else touches the table.
 *
 * Writes validate with the shared schemas of api/rates.ts (the same ones the browser runs),
 * then check the gift names against the catalogue. A broken rule throws RateValidationError,
 * whose message is the spec's text; the /api routes answer it as 400 `{ error }`.
 *
 * Reads are served from an in-memory copy of the whole map (see `ratesSnapshot`), which
 * every write through this module drops at once; see docs/decisions/0005-rates-api.md.
 */

/** A broken §5 rule, an unknown gift or a malformed entry. `message` is the text to show. */
export class RateValidationError extends AppError {
  constructor(message: string) {
    super(400, message);
    this.name = "RateValidationError";
  }
}

/** A new entry for a pair that already has a rate (the Add dialog never overwrites). */
export class RatePairExistsError extends RateValidationError {
  constructor(readonly pairs: Array<{ inputItem: string; outputItem: string }>) {
    super(pairs.map((p) => RATE_MESSAGES.pairExists(p.inputItem, p.outputItem)).join("; "));
    this.name = "RatePairExistsError";
  }
}

type Row = { id: string; inputItem: string; outputItem: string; tiers: Tier[]; status: boolean };

/** Stored row → the rate data GET /api/rates answers (flat pairs as `rate`, tiered as `rates`). */
export function toRateData(row: Pick<Row, "id" | "tiers" | "status">): RateData {
  return { _id: row.id, ...tiersToRateFields(row.tiers), status: row.status };
}

// ---------------------------------------------------------------------------------------
// Gift names

/**
 * Extra gift names accepted besides the catalogue. Only the benchmark sets them (15 gifts
 * make at most 210 pairs; it needs 5,000), see bench/README.md. Kept with remember() so
 * the benchmark's preload (a tsx-loaded copy of this module) and the build's copy agree.
 */
const g = remember("rates", (): { rateExtraGifts?: Set<string>; ratesCache?: CacheState } => ({}));

export function allowExtraGiftNames(names: Iterable<string>) {
  g.rateExtraGifts = new Set([...(g.rateExtraGifts ?? []), ...names]);
}

export function resetExtraGiftNames() {
  g.rateExtraGifts = undefined;
}

export function isKnownGift(name: string): boolean {
  return findGift(name) !== undefined || (g.rateExtraGifts?.has(name) ?? false);
}

function assertKnownGifts(...names: string[]) {
  for (const name of names) if (!isKnownGift(name)) throw new RateValidationError(RATE_MESSAGES.unknownGift(name));
}

// ---------------------------------------------------------------------------------------
// The cached snapshot

/**
 * The whole map as JSON (UTF-8 bytes), built once per change. What HTTP makes of it (the gzip
 * copy, the ETag, the header lists) is the /api edge's business: rates-api.server.ts keeps it
 * per snapshot object, so a new snapshot is a new ETag.
 */
export type RatesSnapshot = {
  body: Buffer;
  /** Table fingerprint when the snapshot was read (row count and a hash over row versions). */
  signature: string;
};

type CacheState = {
  generation: number;
  snapshot?: RatesSnapshot;
  building?: Promise<RatesSnapshot>;
  checkedAt: number;
  checking?: Promise<void>;
};

/**
 * Writes made by another process (the seed command, a second web process) reach this
 * process within this many milliseconds: at most once per interval a request compares the
 * table's fingerprint with the snapshot's. Writes through this process show at once.
 */
export const RATES_RECHECK_MS = 1000;

function cache(): CacheState {
  return (g.ratesCache ??= { generation: 0, checkedAt: 0 });
}

/** Drops the snapshot; called after every committed write. */
export function invalidateRatesCache() {
  const c = cache();
  c.generation++;
  c.snapshot = undefined;
  c.building = undefined;
}

/**
 * After every committed write through this process: the snapshot goes, and every open
 * Exchange Rates page hears of it (live event `rates`, issue 30 A1; docs/live.md).
 */
function ratesChanged() {
  invalidateRatesCache();
  publishLive("rates");
}

async function tableSignature(): Promise<string> {
  const db = await getDb();
  // xmin changes with every insert and update, whoever makes it (psql included); count
  // catches deletes. A spurious change (vacuum freezing xmin) only costs one rebuild.
  const [row] = await db
    .select({
      n: sql<string>`count(*)`,
      h: sql<string | null>`sum(hashtextextended(${exchangeRates.id}::text || ':' || ${exchangeRates}.xmin::text, 0))`,
    })
    .from(exchangeRates);
  return `${row?.n}:${row?.h}`;
}

async function readRows(): Promise<Row[]> {
  const db = await getDb();
  return db
    .select({
      id: exchangeRates.id,
      inputItem: exchangeRates.inputItem,
      outputItem: exchangeRates.outputItem,
      tiers: exchangeRates.tiers,
      status: exchangeRates.status,
    })
    .from(exchangeRates)
    .orderBy(asc(exchangeRates.position));
}

/**
 * Rows in creation order → the nested map. An input group's place is that of its oldest
 * pair, outputs follow their own creation order (JavaScript keeps string keys in insertion
 * order; gift names are never integer-like).
 */
function buildMap(rows: Row[]): RatesMap {
  const map: RatesMap = {};
  for (const row of rows) (map[row.inputItem] ??= {})[row.outputItem] = toRateData(row);
  return map;
}

async function buildSnapshot(): Promise<RatesSnapshot> {
  // Fingerprint first: a write landing between the two reads makes the fingerprint older
  // than the data, so the next check rebuilds; never the other way round.
  const signature = await tableSignature();
  const body = Buffer.from(JSON.stringify(buildMap(await readRows())), "utf8");
  return { body, signature };
}

async function recheck(c: CacheState) {
  const snapshot = c.snapshot;
  if (!snapshot) return;
  const generation = c.generation;
  let signature: string;
  try {
    signature = await tableSignature();
  } catch (err) {
    // Keep serving what we have; the next check (or any write) tries again.
    console.warn("[rates] freshness check failed:", (err as Error).message);
    return;
  }
  if (signature !== snapshot.signature && c.generation === generation) invalidateRatesCache();
}

/**
 * The whole rates map as JSON, shared by every read until the next write. A snapshot built while a write commits is not kept (generation check).
 */
export async function ratesSnapshot(): Promise<RatesSnapshot> {
  const c = cache();
  if (c.snapshot && Date.now() - c.checkedAt > RATES_RECHECK_MS) {
    c.checkedAt = Date.now();
    c.checking ??= recheck(c).finally(() => {
      c.checking = undefined;
    });
    await c.checking;
  }
  if (c.snapshot) return c.snapshot;
  if (!c.building) {
    const generation = c.generation;
    const building = buildSnapshot();
    c.building = building;
    building.then(
      (snapshot) => {
        if (c.generation === generation) {
          c.snapshot = snapshot;
          c.checkedAt = Date.now();
        }
        if (c.building === building) c.building = undefined;
      },
      () => {
        if (c.building === building) c.building = undefined;
      },
    );
  }
  return c.building;
}

/**
 * The snapshot when `ratesSnapshot()` would return it without waiting (held, and checked
 * against the table within RATES_RECHECK_MS), else null. Synchronous, for the GET
 * /api/rates hot path; whoever gets null calls `ratesSnapshot()`, which rechecks or builds.
 */
export function freshRatesSnapshot(now = Date.now()): RatesSnapshot | null {
  const c = cache();
  return c.snapshot && now - c.checkedAt <= RATES_RECHECK_MS ? c.snapshot : null;
}

// ---------------------------------------------------------------------------------------
// Reads

/**
 * `{ [input]: { [output]: { _id, rate | rates, status } } }`, inputs and outputs in the
 * order they were first created. The caller gets its own copy.
 */
export async function listRates(): Promise<RatesMap> {
  return JSON.parse((await ratesSnapshot()).body.toString("utf8")) as RatesMap;
}

/** Whether the table holds any rate at all (the demo seed writes into an empty one only). */
export async function hasAnyRate(): Promise<boolean> {
  const db = await getDb();
  const rows = await db.select({ id: exchangeRates.id }).from(exchangeRates).limit(1);
  return rows.length > 0;
}

export async function getRatePair(inputItem: string, outputItem: string): Promise<RateData | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(exchangeRates)
    .where(and(eq(exchangeRates.inputItem, inputItem), eq(exchangeRates.outputItem, outputItem)));
  return row ? toRateData(row) : null;
}

// ---------------------------------------------------------------------------------------
// Writes

/** Validates one entry (§5 rules, same gift twice, catalogue) into what gets stored. */
function prepare(entry: unknown): { inputItem: string; outputItem: string; tiers: Tier[]; status?: boolean } {
  const parsed = rateEntrySchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RateValidationError(`${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
  }
  const { inputItem, outputItem, rates, status } = parsed.data;
  assertKnownGifts(inputItem, outputItem);
  return { inputItem, outputItem, tiers: storedTiers(rates), status };
}

/** A flat rate and a single default tier are the same thing: `[{ quantity: 0, rate }]`. */
function storedTiers(rates: RateEntry["rates"]): Tier[] {
  return payloadToTiers(rates);
}

/**
 * Creates the pair or replaces its rates. `status` is set when given; otherwise a new pair
 * starts enabled and an existing one keeps its status.
 */
export async function upsertRate(entry: RateEntry): Promise<RateData> {
  const row = prepare(entry);
  const db = await getDb();
  const [saved] = await db
    .insert(exchangeRates)
    .values({ inputItem: row.inputItem, outputItem: row.outputItem, tiers: row.tiers, status: row.status ?? true })
    .onConflictDoUpdate({
      target: [exchangeRates.inputItem, exchangeRates.outputItem],
      set: {
        tiers: sql`excluded.tiers`,
        ...(row.status === undefined ? {} : { status: sql`excluded.status` }),
        updatedAt: sql`now()`,
      },
    })
    .returning();
  ratesChanged();
  return toRateData(saved);
}

/** Enables or disables a pair. Null when the pair does not exist. */
export async function setRateStatus(input: { inputItem: string; outputItem: string; status: boolean }): Promise<RateData | null> {
  const parsed = rateStatusSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RateValidationError(`${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
  }
  const { inputItem, outputItem, status } = parsed.data;
  assertKnownGifts(inputItem, outputItem);
  const db = await getDb();
  const [saved] = await db
    .update(exchangeRates)
    .set({ status, updatedAt: sql`now()` })
    .where(and(eq(exchangeRates.inputItem, inputItem), eq(exchangeRates.outputItem, outputItem)))
    .returning();
  if (!saved) return null;
  ratesChanged();
  return toRateData(saved);
}

/** Deletes one pair by its `_id`. False when unknown (ids that are not UUIDs included). */
export async function deleteRateById(id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const db = await getDb();
  const rows = await db.delete(exchangeRates).where(eq(exchangeRates.id, id)).returning({ id: exchangeRates.id });
  if (rows.length) ratesChanged();
  return rows.length > 0;
}

/** Deletes one pair by its gift names. False when there is no such pair. */
export async function deleteRatePair(inputItem: string, outputItem: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .delete(exchangeRates)
    .where(and(eq(exchangeRates.inputItem, inputItem), eq(exchangeRates.outputItem, outputItem)))
    .returning({ id: exchangeRates.id });
  if (rows.length) ratesChanged();
  return rows.length > 0;
}

/** Deletes every output of one input gift ("delete-all" of a group). Returns how many. */
export async function deleteRatesForInput(inputItem: string): Promise<number> {
  const db = await getDb();
  const rows = await db.delete(exchangeRates).where(eq(exchangeRates.inputItem, inputItem)).returning({ id: exchangeRates.id });
  if (rows.length) ratesChanged();
  return rows.length;
}

/**
 * New entries and imports (POST /api/rates/batch): all or nothing. Every entry is validated
 * before anything is written, and the first bad one is named in the error
 * ('Invalid entry "Gold Ring" → "Clay": Rate 1: Invalid format. Use "1/2" or "1.5"').
 * The writes run inside one transaction. When a pair appears twice, the later entry wins.
 * Returns the number of pairs written.
 *
 * Each statement ships its rows as one jsonb parameter unpacked by jsonb_to_recordset:
 * building and binding four parameters a row (what a multi-row VALUES needs) cost more
 * than the insert itself at a few thousand rows, and stays far from the 65,535-parameter
 * limit without chunking.
 */
export async function batchUpsert(updates: readonly unknown[], options: { existing?: "update" | "refuse" } = {}): Promise<number> {
  const refuse = options.existing === "refuse";
  const parsed = rateBatchSchema.safeParse({ updates });
  if (!parsed.success) throw new RateValidationError(parsed.error.issues[0].message);
  const byPair = new Map<string, { input_item: string; output_item: string; tiers: Tier[]; status?: boolean }>();
  parsed.data.updates.forEach((entry, index) => {
    for (const name of [entry.inputItem, entry.outputItem]) {
      if (!isKnownGift(name)) {
        throw new RateValidationError(RATE_MESSAGES.invalidEntry(entry.inputItem, entry.outputItem, index, RATE_MESSAGES.unknownGift(name)));
      }
    }
    const key = `${entry.inputItem}\u0000${entry.outputItem}`;
    byPair.delete(key); // re-insert so a repeated pair takes the later entry's place in order
    byPair.set(key, { input_item: entry.inputItem, output_item: entry.outputItem, tiers: storedTiers(entry.rates), status: entry.status });
  });
  if (byPair.size === 0) return 0;

  const rows = [...byPair.values()];
  const db = await getDb();
  await db.transaction(async (tx) => {
    // Entries with a status set it; entries without keep an existing pair's status. Runs of
    // each kind go in batch order, so new pairs are created (numbered) in the batch's order.
    let start = 0;
    while (start < rows.length) {
      const withStatus = rows[start].status !== undefined;
      let end = start;
      while (end < rows.length && (rows[end].status !== undefined) === withStatus) end++;
      const json = JSON.stringify(rows.slice(start, end));
      if (refuse) {
        // New entries only (the Add dialog): nothing is overwritten or re-enabled; one pair
        // that exists already (checked inside the transaction, so a race cannot slip by)
        // refuses the whole batch.
        const inserted = await tx.execute(sql`
          insert into ${exchangeRates} (input_item, output_item, tiers, status)
          select r.input_item, r.output_item, r.tiers, coalesce(r.status, true)
          from rows from (jsonb_to_recordset(${json}::jsonb) as (input_item text, output_item text, tiers jsonb, status boolean))
            with ordinality as r(input_item, output_item, tiers, status, n)
          order by r.n
          on conflict (input_item, output_item) do nothing
          returning input_item, output_item`);
        // Both drivers (node-postgres, PGlite) answer `{ rows }`; the Db type does not say so.
        const made = new Set(
          (inserted as unknown as { rows: Array<{ input_item: string; output_item: string }> }).rows.map((x) => `${x.input_item}\u0000${x.output_item}`),
        );
        const clashes = rows.slice(start, end).filter((x) => !made.has(`${x.input_item}\u0000${x.output_item}`));
        if (clashes.length) throw new RatePairExistsError(clashes.map((x) => ({ inputItem: x.input_item, outputItem: x.output_item })));
        start = end;
        continue;
      }
      await tx.execute(sql`
        insert into ${exchangeRates} (input_item, output_item, tiers, status)
        select r.input_item, r.output_item, r.tiers, coalesce(r.status, true)
        from rows from (jsonb_to_recordset(${json}::jsonb) as (input_item text, output_item text, tiers jsonb, status boolean))
          with ordinality as r(input_item, output_item, tiers, status, n)
        order by r.n
        on conflict (input_item, output_item) do update
        set tiers = excluded.tiers, ${withStatus ? sql`status = excluded.status, ` : sql``}updated_at = now()`);
      start = end;
    }
  });
  ratesChanged();
  return rows.length;
}

/** Removes every rate (demo seed reset, tests). Returns how many. */
export async function deleteAllRates(): Promise<number> {
  const db = await getDb();
  const rows = await db.delete(exchangeRates).returning({ id: exchangeRates.id });
  ratesChanged();
  return rows.length;
}

// ---------------------------------------------------------------------------------------
// Undoable deletes (the section's Delete and delete-all; CONVENTIONS rule 7 "offer Undo")

export type RateUndo = { id: string; label: string; count: number };

/**
 * Deletes the pairs `where` selects and keeps them, as they were, for the operator's Undo
 * (one transaction). Returns the undo record, or null when nothing matched.
 */
async function deleteUndoable(operatorId: string, where: SQL | undefined, label: string): Promise<RateUndo | null> {
  const db = await getDb();
  const undo = await db.transaction(async (tx) => {
    const gone = await tx.delete(exchangeRates).where(where).returning();
    if (gone.length === 0) return null;
    const rows: DeletedRate[] = gone.map((r) => ({
      id: r.id,
      inputItem: r.inputItem,
      outputItem: r.outputItem,
      tiers: r.tiers,
      status: r.status,
      position: r.position,
      createdAt: r.createdAt.toISOString(),
    }));
    // Only the latest deletion can be undone (as a toast's Undo would offer), so the
    // operator's older records go, and expired ones of anyone: no sweeper needed.
    await tx
      .delete(rateDeletions)
      .where(or(eq(rateDeletions.operatorId, operatorId), lt(rateDeletions.createdAt, sql`now() - make_interval(secs => ${RATE_LIMITS.undoWindowMs / 1000})`)));
    const [saved] = await tx.insert(rateDeletions).values({ operatorId, label, rows }).returning({ id: rateDeletions.id });
    return { id: saved!.id, label, count: rows.length };
  });
  if (undo) ratesChanged();
  return undo;
}

/** Deletes one pair, keeping it for Undo. Null when there is no such pair. */
export function deleteRatePairUndoable(operatorId: string, inputItem: string, outputItem: string): Promise<RateUndo | null> {
  return deleteUndoable(
    operatorId,
    and(eq(exchangeRates.inputItem, inputItem), eq(exchangeRates.outputItem, outputItem)),
    RATE_MESSAGES.undoPairLabel(inputItem, outputItem),
  );
}

/** Deletes every output of one input, keeping them for Undo. Null when it had none. */
export function deleteRatesForInputUndoable(operatorId: string, inputItem: string): Promise<RateUndo | null> {
  return deleteUndoable(operatorId, eq(exchangeRates.inputItem, inputItem), RATE_MESSAGES.undoInputLabel(inputItem));
}

/** The operator's latest deletion that can still be undone. */
export async function latestRateUndo(operatorId: string): Promise<RateUndo | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: rateDeletions.id, label: rateDeletions.label, rows: rateDeletions.rows })
    .from(rateDeletions)
    .where(and(eq(rateDeletions.operatorId, operatorId), gt(rateDeletions.createdAt, sql`now() - make_interval(secs => ${RATE_LIMITS.undoWindowMs / 1000})`)))
    .orderBy(desc(rateDeletions.createdAt))
    .limit(1);
  return row ? { id: row.id, label: row.label, count: row.rows.length } : null;
}

/**
 * Puts a deletion back exactly: the same ids, tiers, status and list positions. A pair
 * created again in the meantime takes the deleted values back. Returns how many pairs came
 * back, or null when the deletion is not the operator's, unknown, or too old.
 */
export async function undoRateDeletion(operatorId: string, undoId: string): Promise<number | null> {
  if (!isUuid(undoId)) return null;
  const db = await getDb();
  const restored = await db.transaction(async (tx) => {
    const [record] = await tx
      .delete(rateDeletions)
      .where(
        and(
          eq(rateDeletions.id, undoId),
          eq(rateDeletions.operatorId, operatorId),
          gt(rateDeletions.createdAt, sql`now() - make_interval(secs => ${RATE_LIMITS.undoWindowMs / 1000})`),
        ),
      )
      .returning({ rows: rateDeletions.rows });
    if (!record) return null;
    const json = JSON.stringify(
      record.rows.map((r) => ({
        id: r.id,
        input_item: r.inputItem,
        output_item: r.outputItem,
        tiers: r.tiers,
        status: r.status,
        position: r.position,
        created_at: r.createdAt,
      })),
    );
    // `position` is an identity column: OVERRIDING SYSTEM VALUE puts the pairs back in
    // their old places in the list rather than at its end.
    await tx.execute(sql`
      insert into ${exchangeRates} (id, input_item, output_item, tiers, status, position, created_at)
      overriding system value
      select r.id, r.input_item, r.output_item, r.tiers, r.status, r.position, r.created_at
      from jsonb_to_recordset(${json}::jsonb) as r(id uuid, input_item text, output_item text, tiers jsonb, status boolean, position bigint, created_at timestamptz)
      on conflict (input_item, output_item) do update
      set tiers = excluded.tiers, status = excluded.status, updated_at = now()`);
    return record.rows.length;
  });
  if (restored) ratesChanged();
  return restored;
}
