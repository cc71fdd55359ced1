import { beforeEach, describe, expect, test } from "vitest";
import type { RatesMap } from "#api/rates";
import { GIFT_NAMES } from "~/data/gifts";
import { filterGroups } from "~/routes/_app+/_exchange-rates+/components/rates-view";
import { RATE_PAGE_SIZE, ratesPage } from "./rate-page.server";
import { allowExtraGiftNames, batchUpsert, deleteAllRates, listRates, resetExtraGiftNames } from "./rate.server";

/**
 * One page of the Exchange Rates list (issue 20 "Bounded pages"; spec 1 §2 "Exchange Rates
 * section": grouped by input gift, the incoming/outgoing searches and the item dropdown).
 * Real database; the whole map (GET /api/rates' `listRates`) with the browser's filter
 * (`filterGroups`, spec 1 §2 "Filters") is the reference every page is held to.
 */

/** Every catalogue pair (15 × 14 = 210), inputs in catalogue order; one in ten disabled. */
const ALL_PAIRS = GIFT_NAMES.flatMap((input, i) =>
  GIFT_NAMES.filter((o) => o !== input).map((outputItem, j) => ({
    inputItem: input,
    outputItem,
    rates: `${(i % 5) + 1}/${j + 2}`,
    status: (i + j) % 10 !== 9,
  })),
);

beforeEach(async () => {
  resetExtraGiftNames();
  await deleteAllRates();
});

/** The pairs of the list in order, as [input, output], read page after page. */
async function walk(filters: { incoming?: string; outgoing?: string; item?: string }, size: number) {
  const seen: Array<[string, string]> = [];
  const first = await ratesPage({ ...filters, size });
  for (let page = 1; page <= first.pages; page++) {
    const p = await ratesPage({ ...filters, page, size });
    expect(p.page).toBe(page);
    const onPage = Object.entries(p.rates).flatMap(([input, outputs]) => Object.keys(outputs).map((o): [string, string] => [input, o]));
    expect(onPage.length).toBeLessThanOrEqual(size);
    if (page < p.pages) expect(onPage).toHaveLength(size);
    expect(p.groups.map((g) => g.input)).toEqual(Object.keys(p.rates));
    seen.push(...onPage);
  }
  return { seen, first };
}

function reference(map: RatesMap, filters: { incoming?: string; outgoing?: string; item?: string }) {
  return filterGroups(map, { incoming: filters.incoming ?? "", outgoing: filters.outgoing ?? "", item: filters.item ?? "" }).flatMap((g) =>
    g.outputs.map(({ output }): [string, string] => [g.input, output]),
  );
}

describe("ratesPage", () => {
  test("a page holds at most RATE_PAGE_SIZE pairs; the pages together are the whole list, in order", async () => {
    await batchUpsert(ALL_PAIRS);
    const p1 = await ratesPage();
    expect(RATE_PAGE_SIZE).toBeLessThan(ALL_PAIRS.length);
    expect(Object.values(p1.rates).flatMap((o) => Object.keys(o))).toHaveLength(RATE_PAGE_SIZE);
    expect(p1).toMatchObject({ page: 1, pages: Math.ceil(210 / RATE_PAGE_SIZE), matching: 210, total: 210, size: RATE_PAGE_SIZE });
    // Groups of 14: the third group is cut by the page's end and goes on on page 2.
    expect(p1.groups.map((g) => [g.input, g.total, g.matching, g.from])).toEqual([
      [GIFT_NAMES[0], 14, 14, 0],
      [GIFT_NAMES[1], 14, 14, 0],
      [GIFT_NAMES[2], 14, 14, 0],
    ]);
    expect(Object.keys(p1.rates[GIFT_NAMES[2]!]!)).toHaveLength(RATE_PAGE_SIZE - 28);
    const p2 = await ratesPage({ page: 2 });
    expect(p2.groups[0]).toMatchObject({ input: GIFT_NAMES[2], from: RATE_PAGE_SIZE - 28 });

    const map = await listRates();
    const { seen } = await walk({}, RATE_PAGE_SIZE);
    expect(seen).toEqual(reference(map, {}));
    // The rows carry the same data as GET /api/rates.
    const last = seen.at(-1)!;
    const lastPage = await ratesPage({ page: p1.pages });
    expect(lastPage.rates[last[0]]![last[1]]).toEqual(map[last[0]]![last[1]]);
  });

  test("the item dropdown lists every input (sorted), not just the page's; 'used' names each input's catalogue outputs", async () => {
    await batchUpsert(ALL_PAIRS);
    const p = await ratesPage({ size: 5 });
    expect(p.inputs).toEqual([...GIFT_NAMES].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    expect(Object.keys(p.rates)).toEqual([GIFT_NAMES[0]]);
    const clay = GIFT_NAMES.indexOf("Clay");
    expect(p.used.Clay).toEqual(GIFT_NAMES.filter((_, i) => i !== clay));
  });

  test.each([
    { incoming: "ring" },
    { incoming: "capy" }, // a nick ('Capy' is Collection Capybara)
    { outgoing: "KEY" }, // case-insensitive: Diamond Skeleton Key, Skeleton Key, and the nicks dkey/skey
    { outgoing: "gl" }, // nick GL (Green Light) and names holding "gl"
    { incoming: "cannon", outgoing: "ring" },
    { item: "Clay" },
    { item: "Clay", outgoing: "ball" },
    { incoming: "nothing like it" },
  ])("filters across every pair in the database, as the spec's filter does: %o", async (filters) => {
    await batchUpsert(ALL_PAIRS);
    const map = await listRates();
    const want = reference(map, filters);
    const { seen, first } = await walk(filters, 7);
    expect(seen).toEqual(want);
    expect(first.matching).toBe(want.length);
    expect(first.total).toBe(210);
  });

  test("a page past the end is the last page; an empty table is one empty page", async () => {
    expect(await ratesPage({ page: 3 })).toMatchObject({ rates: {}, groups: [], page: 1, pages: 1, matching: 0, total: 0, inputs: [] });
    await batchUpsert(ALL_PAIRS.slice(0, 30));
    const p = await ratesPage({ page: 99, size: 20 });
    expect(p.page).toBe(2);
    expect(Object.values(p.rates).flatMap((o) => Object.keys(o))).toHaveLength(10);
  });

  test("1,000 pairs over synthetic gifts: the page stays 40 pairs and the last pair is on the last page", async () => {
    const names = [...GIFT_NAMES, ...Array.from({ length: 18 }, (_, i) => `Bench Gift ${String(i + 1).padStart(3, "0")}`)];
    allowExtraGiftNames(names.slice(GIFT_NAMES.length));
    const pairs = names.flatMap((a) => names.filter((b) => b !== a).map((b) => ({ inputItem: a, outputItem: b, rates: "1" }))).slice(0, 1000);
    await batchUpsert(pairs);
    const p = await ratesPage();
    expect(p.total).toBe(1000);
    expect(p.pages).toBe(Math.ceil(1000 / RATE_PAGE_SIZE));
    expect(p.inputs).toHaveLength(new Set(pairs.map((x) => x.inputItem)).size);
    const last = await ratesPage({ page: p.pages });
    const lastPair = pairs.at(-1)!;
    expect(last.rates[lastPair.inputItem]?.[lastPair.outputItem]).toMatchObject({ rate: "1", status: true });
  });
});

describe("issue 32 item 1: the group summary is not read again for every render", () => {
  test("renders without an outgoing search reuse it until the rates change; a write is seen by the next render; a search reads its own", async () => {
    const { getDb } = await import("~/db/client.server");
    const { vi } = await import("vitest");
    await batchUpsert(ALL_PAIRS);
    const db = await getDb();
    const execute = vi.spyOn(db, "execute");
    const groupReads = () =>
      execute.mock.calls.filter(([query]) => JSON.stringify((query as { queryChunks?: unknown }).queryChunks ?? query).includes("group by input_item")).length;
    try {
      const first = await ratesPage({ size: 10 });
      const reads = groupReads();
      expect(reads).toBeLessThanOrEqual(1);
      for (let i = 0; i < 5; i++) expect((await ratesPage({ page: i + 1, size: 10 })).total).toBe(first.total);
      expect(groupReads()).toBe(reads);

      await batchUpsert([{ inputItem: GIFT_NAMES[0]!, outputItem: GIFT_NAMES[1]!, rates: "9", status: true }]);
      await deleteAllRates();
      await batchUpsert(ALL_PAIRS.slice(0, 20));
      const after = await ratesPage({ size: 10 });
      expect(after.total).toBe(20);
      expect(groupReads()).toBe(reads + 1);

      // An outgoing search counts its matches: its own read, every time.
      await ratesPage({ outgoing: "ring", size: 10 });
      await ratesPage({ outgoing: "ring", size: 10 });
      expect(groupReads()).toBe(reads + 3);
    } finally {
      execute.mockRestore();
    }
  });
});
