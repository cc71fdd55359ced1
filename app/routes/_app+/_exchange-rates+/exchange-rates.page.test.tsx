import { Theme } from "@radix-ui/themes";
import { createRemixStub } from "@remix-run/testing";
import { renderToString } from "react-dom/server";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { RATE_MESSAGES } from "#api/rates";
import { GIFT_NAMES } from "~/data/gifts";
import { RATE_PAGE_SIZE } from "~/models/rate-page.server";
import { batchUpsert, deleteAllRates, listRates } from "~/models/rate.server";
import { callRoute, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import ExchangeRatesRoute, { action, loader } from "./exchange-rates";
import { encodePair } from "./components/form-helpers";
import { pairKey } from "./components/rates-view";

/**
 * Issue 20 "Bounded pages" for the Exchange Rates section (spec 1 §2 "Exchange Rates
 * section"): with more pairs than a page holds, the server renders one page of the list, the
 * pager's plain links reach every other pair, and a pair beyond the first page can be found
 * by the search, opened and edited — with real Requests against a real database, and the
 * route's own component rendered to HTML (what a browser without JavaScript gets).
 */

const PATH = "/exchange-rates";
/** Every catalogue pair: 15 inputs × 14 outputs = 210, more than five pages. */
const ALL_PAIRS = GIFT_NAMES.flatMap((inputItem) =>
  GIFT_NAMES.filter((o) => o !== inputItem).map((outputItem) => ({ inputItem, outputItem, rates: "1/2", status: true })),
);
const LAST = ALL_PAIRS.at(-1)!; // Clay → Collection Capybara
const PAGES = Math.ceil(ALL_PAIRS.length / RATE_PAGE_SIZE);

type LoaderBody = Awaited<ReturnType<typeof loader>>["data"];

let cookie: string;
beforeAll(async () => {
  cookie = (await createTestOperator({ name: "rates-pages", password: "correct horse" })).cookie;
});

beforeEach(async () => {
  await deleteAllRates();
  await batchUpsert(ALL_PAIRS);
});

async function load(search = "") {
  return callRoute<LoaderBody>(loader, makeRequest(`${PATH}${search}`, { cookie }));
}

/** The route's server HTML for `search`, with the loader's real answer. */
async function html(search = "") {
  const res = await load(search);
  expect(res.status).toBe(200);
  const errors: unknown[] = [];
  const err = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => {
    if (!String(a[0]).includes("useLayoutEffect does nothing on the server")) errors.push(a);
  });
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const Stub = createRemixStub([{ id: "rates", path: PATH, Component: ExchangeRatesRoute, loader: () => null }]);
  const out = renderToString(
    <Theme>
      <Stub initialEntries={[`${PATH}${search}`]} hydrationData={{ loaderData: { rates: res.data } }} />
    </Theme>,
  );
  err.mockRestore();
  warn.mockRestore();
  expect(errors).toEqual([]);
  return out;
}

const rowCount = (out: string) => out.match(/<li class="gt-rate-row"/g)?.length ?? 0;
const decode = (s: string) => s.replace(/&amp;/g, "&");

describe("bounded pages (issue 20)", () => {
  it("renders one page of RATE_PAGE_SIZE pairs, with the spec's groups, and says where it is", async () => {
    const out = await html();
    expect(rowCount(out)).toBe(RATE_PAGE_SIZE);
    // Groups in creation order, the header counting every output of the input.
    expect([...out.matchAll(/<h2[^>]*>([^<]+)<\/h2>/g)].map((m) => m[1])).toEqual(GIFT_NAMES.slice(0, 3));
    expect(out).toContain("14 outputs");
    expect(out).toContain(`Page 1 of ${PAGES} · pairs 1–${RATE_PAGE_SIZE} of 210`);
    expect(out).not.toContain(`>${LAST.inputItem}</h2>`);
    // The item dropdown still offers every input.
    for (const name of GIFT_NAMES) expect(out).toContain(`<option value="${name}">`);
  });

  it("the pager's plain links reach every other pair; a group cut by the page's end goes on on the next", async () => {
    const first = await html();
    const next = first.match(/<a[^>]*href="([^"]+)"[^>]*>Next →<\/a>/)?.[1];
    expect(next && decode(next)).toBe(`${PATH}?page=2`);
    const last = first.match(/<a[^>]*href="([^"]+)"[^>]*>Last<\/a>/)?.[1];
    expect(last && decode(last)).toBe(`${PATH}?page=${PAGES}`);

    const second = await html("?page=2");
    expect(second).toContain(`showing ${RATE_PAGE_SIZE - 28 + 1}–14 of 14`);
    expect(second).toContain("← Previous");

    const end = await html(`?page=${PAGES}`);
    expect(rowCount(end)).toBe(ALL_PAIRS.length - (PAGES - 1) * RATE_PAGE_SIZE);
    expect(end).toContain(`>${LAST.inputItem}</h2>`);
    expect(end).toContain(`aria-label="Delete ${LAST.inputItem} → ${LAST.outputItem}"`);
    expect(end).not.toContain("Next →");
  });

  it("the search runs over every pair, not the page's, and keeps the filters in the pager's links", async () => {
    // Capybara's nick is 'Capy': 14 pairs with it as output, spread over every page.
    const out = await html("?out=capy");
    expect(rowCount(out)).toBe(14);
    expect(out).toContain(`aria-label="Delete ${LAST.inputItem} → ${LAST.outputItem}"`);
    expect(out).not.toContain("Next →");
    const rings = await html("?out=ring");
    expect(rings).toContain("pairs 1–40 of 42");
    const next = rings.match(/<a[^>]*href="([^"]+)"[^>]*>Next →<\/a>/)?.[1];
    expect(next && decode(next)).toBe(`${PATH}?out=ring&page=2`);
  });

  it("a row's Show tiers button without JavaScript: one GET form, the loader toggles the pair in `open`", async () => {
    const search = `?page=${PAGES}`;
    const out = await html(search);
    const key = pairKey(LAST.inputItem, LAST.outputItem);
    expect(out).toMatch(/<form id="rates-row-toggle" method="get" action="\/exchange-rates" hidden=""><input type="hidden" name="page" value="\d+"\/><\/form>/);
    expect(out).toContain(`name="toggle" value="${key}"`);
    const res = await load(`${search}&toggle=${encodeURIComponent(key)}`);
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(new URL(location, "http://x").searchParams.getAll("open")).toEqual([key]);
    const expanded = await html(location.slice(PATH.length));
    expect(expanded).toContain(`aria-label="Tiers of ${LAST.inputItem} → ${LAST.outputItem}"`);
    expect(expanded).toContain('value="save"');
    // Toggled again, it folds.
    const folded = await load(`${location.slice(PATH.length)}&toggle=${encodeURIComponent(key)}`);
    expect(new URL(folded.headers.get("location")!, "http://x").searchParams.getAll("open")).toEqual([]);
  });

  it("edits of a pair beyond the first page work without JavaScript and come back to its page", async () => {
    const back = `${PATH}?page=${PAGES}`;
    const save = await callRoute(
      action,
      makeRequest(back, {
        cookie,
        form: { intent: "save", inputItem: LAST.inputItem, outputItem: LAST.outputItem, "tiers[0].quantity": "0", "tiers[0].rate": "3/4", redirectTo: back },
      }),
    );
    expect(save.status).toBe(302);
    expect(save.headers.get("location")).toBe(back);
    expect(toastOf(save)).toEqual({ message: RATE_MESSAGES.saved, type: "success" });
    expect((await listRates())[LAST.inputItem]![LAST.outputItem]).toMatchObject({ rate: "3/4" });
    expect((await load(`?page=${PAGES}`)).data!.rates![LAST.inputItem]![LAST.outputItem]).toMatchObject({ rate: "3/4" });

    // Disable through the panel's shared form (`pair`), then delete, then Undo.
    const status = await callRoute(
      action,
      makeRequest(back, { cookie, form: { intent: "status", status: "false", pair: encodePair(LAST.inputItem, LAST.outputItem), redirectTo: back } }),
    );
    expect(status.headers.get("location")).toBe(back);
    expect((await listRates())[LAST.inputItem]![LAST.outputItem]!.status).toBe(false);
    const del = await callRoute(
      action,
      makeRequest(back, { cookie, form: { intent: "delete", pair: encodePair(LAST.inputItem, LAST.outputItem), redirectTo: back } }),
    );
    expect(toastOf(del)?.message).toBe(RATE_MESSAGES.deleted);
    const after = await load(`?page=${PAGES}`);
    expect(after.data!.rates![LAST.inputItem]?.[LAST.outputItem]).toBeUndefined();
    expect(after.data!.list!.matching).toBe(209);
    const undo = after.data!.undo!;
    const restored = await callRoute(action, makeRequest(back, { cookie, form: { intent: "undo-delete", undoId: undo.id, redirectTo: back } }));
    expect(restored.status).toBe(302);
    expect((await load(`?page=${PAGES}`)).data!.rates![LAST.inputItem]![LAST.outputItem]).toMatchObject({ rate: "3/4", status: false });
  });

  it("the add dialogs know every output an input already has, wherever its rows are", async () => {
    const out = await html(`?page=2&dialog=add-output&for=${encodeURIComponent(LAST.inputItem)}`);
    expect(rowCount(out)).toBe(RATE_PAGE_SIZE);
    const res = await load("?page=2");
    expect(res.data!.list!.used[LAST.inputItem]).toHaveLength(14);
  });

  it("a page number past the end shows the last page; a broken one the first", async () => {
    expect((await load("?page=999")).data!.list!.page).toBe(PAGES);
    expect((await load("?page=abc")).data!.list!.page).toBe(1);
    expect((await load("?page=-3")).data!.list!.page).toBe(1);
  });
});
