import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { getDb } from "~/db/client.server";
import {
  allowExtraGiftNames,
  batchUpsert,
  deleteAllRates,
  deleteRateById,
  deleteRatePair,
  deleteRatesForInput,
  getRatePair,
  listRates,
  RATES_RECHECK_MS,
  RateValidationError,
  ratesSnapshot,
  resetExtraGiftNames,
  setRateStatus,
  upsertRate,
} from "./rate.server";

const FCB = "Fire Cannon Ball";
const GR = "Gold Ring";
const CLAY = "Clay";
const SR = "Silver Ring";
const INVALID_1 = 'Rate 1: Invalid format. Use "1/2" or "1.5"';

beforeEach(async () => {
  resetExtraGiftNames();
  await deleteAllRates();
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function rejection(promise: Promise<unknown>): Promise<RateValidationError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RateValidationError);
  return err as RateValidationError;
}

describe('spec 1 §3 "Exchange rates": listRates answers input → output → rate data', () => {
  test("flat pairs as `rate`, tiered as `rates`, with status and _id; first-creation order", async () => {
    await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1/2" });
    await upsertRate({
      inputItem: FCB,
      outputItem: SR,
      rates: [
        { quantity: 0, rate: 1.5 },
        { quantity: 10, rate: "2/1" },
      ],
    });
    await upsertRate({ inputItem: GR, outputItem: FCB, rates: 3 });
    // Re-saving the first pair does not move it.
    await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1/3" });

    const map = await listRates();
    expect(Object.keys(map)).toEqual([GR, FCB]);
    expect(Object.keys(map[GR])).toEqual([CLAY, FCB]);
    expect(map[GR][CLAY]).toEqual({ _id: expect.stringMatching(/^[0-9a-f-]{36}$/), rate: "1/3", status: true });
    expect(map[GR][CLAY]).not.toHaveProperty("rates");
    expect(map[GR][FCB].rate).toBe(3);
    expect(map[FCB][SR]).toEqual({
      _id: expect.any(String),
      rates: [
        { quantity: 0, rate: 1.5 },
        { quantity: 10, rate: "2/1" },
      ],
      status: true,
    });
    expect(map[FCB][SR]).not.toHaveProperty("rate");
  });

  test("a flat rate is one tier of quantity 0: sent as a list, it comes back flat", async () => {
    await upsertRate({ inputItem: GR, outputItem: CLAY, rates: [{ quantity: 0, rate: "1/2" }] });
    expect((await listRates())[GR][CLAY]).toEqual({ _id: expect.any(String), rate: "1/2", status: true });
    const db = await getDb();
    const rows = await db.execute(sql`select tiers from exchange_rates`);
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([{ tiers: [{ quantity: 0, rate: "1/2" }] }]);
  });

  test("callers get their own copy of the map", async () => {
    await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1" });
    const a = await listRates();
    a[GR][CLAY].status = false;
    delete a[GR];
    expect((await listRates())[GR][CLAY].status).toBe(true);
  });
});

describe("upsertRate", () => {
  test("keeps the pair's _id and status, replaces its tiers (tiered ↔ flat)", async () => {
    const created = await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1/2" });
    await setRateStatus({ inputItem: GR, outputItem: CLAY, status: false });
    const tiered = await upsertRate({ inputItem: GR, outputItem: CLAY, rates: [{ quantity: 5, rate: "1" }] });
    expect(tiered).toEqual({ _id: created._id, rates: [{ quantity: 5, rate: "1" }], status: false });
    const flat = await upsertRate({ inputItem: GR, outputItem: CLAY, rates: 2 });
    expect(flat).toEqual({ _id: created._id, rate: 2, status: false });
    expect(await getRatePair(GR, CLAY)).toEqual(flat);
  });

  test("an explicit status is applied", async () => {
    expect((await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1", status: false })).status).toBe(false);
    expect((await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1", status: true })).status).toBe(true);
  });

  test.each([
    [
      '§5 "Rate N: Invalid format"',
      [
        { quantity: 0, rate: "1" },
        { quantity: 3, rate: "two" },
      ],
      'Rate 2: Invalid format. Use "1/2" or "1.5"',
    ],
    ['§5 "Quantity cannot be negative"', [{ quantity: -5, rate: "1" }], "Rate 1: Quantity cannot be negative"],
    [
      '§5 "Duplicate quantities"',
      [
        { quantity: 5, rate: "1" },
        { quantity: 5, rate: "2" },
      ],
      "Duplicate quantities found. Each tier must have a unique quantity.",
    ],
    ["blank rate", "", INVALID_1],
  ])("%s → RateValidationError with the spec text, nothing written", async (_label, rates, message) => {
    const err = await rejection(upsertRate({ inputItem: GR, outputItem: CLAY, rates: rates as never }));
    expect(err.message).toBe(message);
    expect(err.status).toBe(400);
    expect(await listRates()).toEqual({});
  });

  test("unknown gifts (exact full names only) and same input/output are rejected", async () => {
    expect((await rejection(upsertRate({ inputItem: "gold ring", outputItem: CLAY, rates: "1" }))).message).toBe("Unknown gift: gold ring");
    expect((await rejection(upsertRate({ inputItem: GR, outputItem: "GR", rates: "1" }))).message).toBe("Unknown gift: GR");
    expect((await rejection(upsertRate({ inputItem: GR, outputItem: GR, rates: "1" }))).message).toBe("Input and output gift must be different");
    expect(await listRates()).toEqual({});
  });
});

describe("setRateStatus and deletes", () => {
  test("status toggles; unknown pair → null", async () => {
    const { _id } = await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1" });
    expect(await setRateStatus({ inputItem: GR, outputItem: CLAY, status: false })).toEqual({ _id, rate: "1", status: false });
    expect((await listRates())[GR][CLAY].status).toBe(false);
    expect(await setRateStatus({ inputItem: CLAY, outputItem: GR, status: false })).toBeNull();
    expect((await rejection(setRateStatus({ inputItem: "Nope", outputItem: GR, status: true }))).message).toBe("Unknown gift: Nope");
  });

  test("deleteRateById, deleteRatePair, deleteRatesForInput", async () => {
    const a = await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1" });
    await upsertRate({ inputItem: GR, outputItem: SR, rates: "1" });
    await upsertRate({ inputItem: GR, outputItem: FCB, rates: "1" });
    await upsertRate({ inputItem: FCB, outputItem: GR, rates: "1" });

    expect(await deleteRateById(a._id)).toBe(true);
    expect(await deleteRateById(a._id)).toBe(false);
    expect(await deleteRateById("not-a-uuid")).toBe(false);
    expect(await deleteRatePair(GR, SR)).toBe(true);
    expect(await deleteRatePair(GR, SR)).toBe(false);
    expect(Object.keys((await listRates())[GR])).toEqual([FCB]);

    await upsertRate({ inputItem: GR, outputItem: SR, rates: "1" });
    expect(await deleteRatesForInput(GR)).toBe(2);
    expect(await deleteRatesForInput(GR)).toBe(0);
    expect(Object.keys(await listRates())).toEqual([FCB]);
  });
});

describe('batchUpsert (spec 1 §7 "Rates" POST /rates/batch)', () => {
  test("writes every entry with its status; later duplicates win; existing status kept when absent", async () => {
    await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "9", status: false });
    const count = await batchUpsert([
      { inputItem: FCB, outputItem: GR, rates: "1/2", status: true },
      {
        inputItem: FCB,
        outputItem: CLAY,
        rates: [
          { quantity: 0, rate: "1" },
          { quantity: 10, rate: "1.5" },
        ],
        status: false,
      },
      { inputItem: GR, outputItem: CLAY, rates: "2" },
      { inputItem: FCB, outputItem: GR, rates: "3/4", status: true },
    ]);
    expect(count).toBe(3);
    const map = await listRates();
    expect(map[FCB][GR]).toMatchObject({ rate: "3/4", status: true });
    expect(map[FCB][CLAY]).toMatchObject({
      rates: [
        { quantity: 0, rate: "1" },
        { quantity: 10, rate: "1.5" },
      ],
      status: false,
    });
    expect(map[GR][CLAY]).toMatchObject({ rate: "2", status: false });
  });

  test("all or nothing: one bad entry writes none and is named", async () => {
    await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "9" });
    const before = await listRates();
    const err = await rejection(
      batchUpsert([
        { inputItem: FCB, outputItem: CLAY, rates: "1" },
        { inputItem: GR, outputItem: CLAY, rates: [{ quantity: 0, rate: "nope" }] },
      ]),
    );
    expect(err.message).toBe(`Invalid entry "Gold Ring" → "Clay": ${INVALID_1}`);
    const unknown = await rejection(
      batchUpsert([
        { inputItem: FCB, outputItem: CLAY, rates: "1" },
        { inputItem: FCB, outputItem: "Platinum Ring", rates: "1" },
      ]),
    );
    expect(unknown.message).toBe('Invalid entry "Fire Cannon Ball" → "Platinum Ring": Unknown gift: Platinum Ring');
    expect(await listRates()).toEqual(before);
  });

  test("a failure inside the transaction rolls every statement back", async () => {
    // 2,500 pairs: the first 1,000 carry a status, the rest do not, so they are written by two
    // statements; a trigger makes the second one fail in the database, after the first ran.
    const names = Array.from({ length: 51 }, (_, i) => `Bench Gift ${String(i).padStart(2, "0")}`);
    allowExtraGiftNames(names);
    const updates = names
      .flatMap((a) => names.filter((b) => b !== a).map((b) => ({ inputItem: a, outputItem: b, rates: "1" })))
      .slice(0, 2500)
      .map((u, i) => (i < 1000 ? { ...u, status: i % 2 === 0 } : u));
    const db = await getDb();
    const late = updates[2400];
    await db.execute(
      sql.raw(`create function gt_fail_late() returns trigger language plpgsql as $$
        begin if new.input_item = '${late.inputItem}' and new.output_item = '${late.outputItem}' then raise exception 'late failure'; end if; return new; end $$`),
    );
    await db.execute(sql`create trigger gt_fail_late before insert on exchange_rates for each row execute function gt_fail_late()`);
    try {
      await expect(batchUpsert(updates)).rejects.toThrow();
      expect(await listRates()).toEqual({});
    } finally {
      await db.execute(sql`drop trigger gt_fail_late on exchange_rates`);
      await db.execute(sql`drop function gt_fail_late()`);
    }
    expect(await batchUpsert(updates)).toBe(2500);
    const map = await listRates();
    expect(Object.values(map).reduce((n, outputs) => n + Object.keys(outputs).length, 0)).toBe(2500);
    expect(map[names[0]][names[1]].status).toBe(true);
    expect(map[names[0]][names[2]].status).toBe(false);
    // Batch order is creation order.
    expect(Object.keys(map)).toEqual(names.slice(0, 50)); // 2,500 pairs = 50 inputs × 50 outputs
    expect(Object.keys(map[names[0]])).toEqual(names.slice(1));
  });

  test("an empty batch writes nothing", async () => {
    expect(await batchUpsert([])).toBe(0);
  });
});

describe("the cached map", () => {
  test("every write through the model shows at once", async () => {
    await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1" });
    const first = await ratesSnapshot();
    expect(await ratesSnapshot()).toBe(first);
    await setRateStatus({ inputItem: GR, outputItem: CLAY, status: false });
    const second = await ratesSnapshot();
    expect(second).not.toBe(first);
    expect(JSON.parse(second.body.toString())[GR][CLAY].status).toBe(false);
  });

  test(`writes by another process show within ${RATES_RECHECK_MS} ms`, async () => {
    await upsertRate({ inputItem: GR, outputItem: CLAY, rates: "1" });
    expect((await listRates())[GR][CLAY].status).toBe(true);
    const db = await getDb();
    await db.execute(sql`update exchange_rates set status = false`);
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + RATES_RECHECK_MS + 10);
    expect((await listRates())[GR][CLAY].status).toBe(false);
    await db.execute(sql`delete from exchange_rates`);
    vi.spyOn(Date, "now").mockReturnValue(now + 2 * (RATES_RECHECK_MS + 10));
    expect(await listRates()).toEqual({});
  });
});
