import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { RATE_MESSAGES } from "#api/rates";
import { addFormId, encodePair, rowFormId, type ActionResult } from "~/routes/_app+/_exchange-rates+/components/form-helpers";
import { listLogs } from "~/models/log.server";
import { batchUpsert, deleteAllRates, listRates } from "~/models/rate.server";
import { callRoute, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import { action, E2E_FAULT_HEADER, loader, shouldRevalidate } from "./exchange-rates";

/**
 * The Exchange Rates route (spec 1 §2, §4, §5, §8): the loader, and the action's intents
 * called with real Requests against a real database — as fetchers (data + flash toast) and
 * as plain no-JavaScript posts (redirect + flash toast, or the form again on errors).
 */

const PATH = "/exchange-rates";
type Body = (ActionResult & { rates?: unknown; loadError?: string | null; undo?: unknown }) | undefined;

let cookie: string;
beforeAll(async () => {
  cookie = (await createTestOperator({ name: "rates-operator", password: "correct horse" })).cookie;
});

beforeEach(async () => {
  await deleteAllRates();
  await batchUpsert([
    { inputItem: "Gold Ring", outputItem: "Clay", rates: "1/2", status: true },
    {
      inputItem: "Gold Ring",
      outputItem: "Silver Ring",
      rates: [
        { quantity: 0, rate: "1/3" },
        { quantity: 10, rate: "1/2" },
      ],
      status: true,
    },
    { inputItem: "Fire Cannon Ball", outputItem: "Green Light", rates: 1.5, status: false },
  ]);
});

function post(fields: Record<string, string>, { withCookie = true, search = "" } = {}) {
  return callRoute<Body>(action, makeRequest(`${PATH}${search}`, { form: fields, cookie: withCookie ? cookie : [] }));
}

function get(search = "", headers: Record<string, string> = {}) {
  return callRoute<Body>(loader, makeRequest(`${PATH}${search}`, { cookie, headers }));
}

describe("loader", () => {
  afterEach(() => {
    delete process.env.E2E;
  });

  it("needs a logged-in operator", async () => {
    const res = await callRoute(loader, makeRequest(PATH));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/login\?redirectTo=%2Fexchange-rates/);
  });

  it("answers the rates map, inputs and outputs in creation order (spec 1 §3)", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const rates = res.data!.rates as Record<string, Record<string, { rate?: unknown; rates?: unknown; status: boolean }>>;
    expect(Object.keys(rates)).toEqual(["Gold Ring", "Fire Cannon Ball"]);
    expect(Object.keys(rates["Gold Ring"]!)).toEqual(["Clay", "Silver Ring"]);
    expect(rates["Gold Ring"]!.Clay).toMatchObject({ rate: "1/2", status: true });
    expect(rates["Fire Cannon Ball"]!["Green Light"]).toMatchObject({ rate: 1.5, status: false });
    expect(res.data!.loadError).toBeNull();
  });

  it("turns a no-JavaScript clear button into a clean URL", async () => {
    const res = await get("?in=gold&out=&item=&clear=in");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/exchange-rates");
    const kept = await get("?in=gold&out=clay&clear=in");
    expect(kept.headers.get("location")).toBe("/exchange-rates?out=clay");
  });

  it("a failed load answers 503 with the reason instead of an error page (spec 1 §4)", async () => {
    // Without E2E=1 the fault header means nothing.
    expect((await get("", { [E2E_FAULT_HEADER]: "rates-load" })).status).toBe(200);
    process.env.E2E = "1";
    const res = await get("", { [E2E_FAULT_HEADER]: "rates-load" });
    expect(res.status).toBe(503);
    expect(res.data).toMatchObject({ rates: null, loadError: expect.stringContaining("unavailable") });
  });
});

describe("shouldRevalidate: expanded rows and dialogs are URL state the loader does not read", () => {
  const check = (from: string, to: string, formMethod?: string) =>
    shouldRevalidate({
      currentUrl: new URL(from, "http://x"),
      nextUrl: new URL(to, "http://x"),
      formMethod: formMethod as never,
      defaultShouldRevalidate: true,
      currentParams: {},
      nextParams: {},
    });
  it("skips the loader for open/dialog/for changes only", () => {
    expect(check("/exchange-rates", "/exchange-rates?open=a%7Cb")).toBe(false);
    expect(check("/exchange-rates?in=g", "/exchange-rates?in=g&dialog=add-output&for=Clay&open=a%7Cb")).toBe(false);
  });
  it("runs it for revalidation (same URL), the filters and the page (issue 20: the database filters and pages), other pages and posts", () => {
    expect(check("/exchange-rates?in=g", "/exchange-rates?in=g")).toBe(true);
    expect(check("/exchange-rates", "/exchange-rates?in=gold&item=Clay")).toBe(true);
    expect(check("/exchange-rates?in=g", "/exchange-rates?in=g&out=c")).toBe(true);
    expect(check("/exchange-rates", "/exchange-rates?page=2")).toBe(true);
    expect(check("/gifts", "/exchange-rates")).toBe(true);
    expect(check("/exchange-rates", "/exchange-rates?in=g", "POST")).toBe(true);
  });
});

describe("action: every intent, as a fetcher (data + flash toast)", () => {
  it("needs a logged-in operator", async () => {
    const res = await post({ intent: "delete", inputItem: "Gold Ring", outputItem: "Clay" }, { withCookie: false });
    expect(res.status).toBe(302);
    expect(Object.keys((await listRates())["Gold Ring"]!)).toContain("Clay");
  });

  it("answers 400 to an unknown or missing intent", async () => {
    const unknown = await post({ intent: "explode", inputItem: "Gold Ring" });
    expect(unknown.status).toBe(400);
    expect(unknown.data).toMatchObject({ ok: false, intent: null, message: "Unknown intent: explode" });
    expect((await post({})).status).toBe(400);
  });

  it("save: several tiers are stored as a list (spec 1 §4 On save)", async () => {
    const res = await post({
      intent: "save",
      inputItem: "Gold Ring",
      outputItem: "Clay",
      "tiers[0].quantity": "0",
      "tiers[0].rate": "1/2",
      "tiers[1].quantity": "25",
      "tiers[1].rate": " 0.8 ",
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ ok: true, intent: "save", message: RATE_MESSAGES.saved, formId: rowFormId("Gold Ring", "Clay") });
    expect(toastOf(res)).toEqual({ message: "Exchange rate saved successfully", type: "success" });
    expect((await listRates())["Gold Ring"]!.Clay).toMatchObject({
      rates: [
        { quantity: 0, rate: "1/2" },
        { quantity: 25, rate: "0.8" },
      ],
      status: true,
    });
  });

  it("save: tiers typed out of order are stored (and so shown) sorted by quantity", async () => {
    const res = await post({
      intent: "save",
      inputItem: "Gold Ring",
      outputItem: "Clay",
      "tiers[0].quantity": "50",
      "tiers[0].rate": "3",
      "tiers[1].quantity": "0",
      "tiers[1].rate": "1",
      "tiers[2].quantity": "10",
      "tiers[2].rate": "2",
    });
    expect(res.status).toBe(200);
    expect((await listRates())["Gold Ring"]!.Clay!.rates).toEqual([
      { quantity: 0, rate: "1" },
      { quantity: 10, rate: "2" },
      { quantity: 50, rate: "3" },
    ]);
  });

  it("save: one tier of quantity 0 is stored as a flat rate", async () => {
    const res = await post({ intent: "save", inputItem: "Gold Ring", outputItem: "Silver Ring", "tiers[0].quantity": "0", "tiers[0].rate": "2" });
    expect(res.status).toBe(200);
    const saved = (await listRates())["Gold Ring"]!["Silver Ring"]!;
    expect(saved.rate).toBe("2");
    expect(saved.rates).toBeUndefined();
  });

  it.each([
    [{ "tiers[0].quantity": "0", "tiers[0].rate": "1//2" }, 'Rate 1: Invalid format. Use "1/2" or "1.5"', "tiers[0].rate"],
    [
      { "tiers[0].quantity": "0", "tiers[0].rate": "1", "tiers[1].quantity": "-4", "tiers[1].rate": "2" },
      "Rate 2: Quantity cannot be negative",
      "tiers[1].quantity",
    ],
    [
      { "tiers[0].quantity": "5", "tiers[0].rate": "1", "tiers[1].quantity": "5", "tiers[1].rate": "2" },
      "Duplicate quantities found. Each tier must have a unique quantity.",
      "tiers",
    ],
    [{ "tiers[0].quantity": "0", "tiers[0].rate": "" }, 'Rate 1: Invalid format. Use "1/2" or "1.5"', "tiers[0].rate"],
    // Issue 8 §2.4: whole quantities from 0 to 1,000,000; a blank quantity is never a silent 0.
    [
      { "tiers[0].quantity": "0", "tiers[0].rate": "1", "tiers[1].quantity": "1.5", "tiers[1].rate": "2" },
      "Rate 2: Quantity must be a whole number",
      "tiers[1].quantity",
    ],
    [
      { "tiers[0].quantity": "0", "tiers[0].rate": "1", "tiers[1].quantity": "1e2", "tiers[1].rate": "2" },
      "Rate 2: Quantity must be a whole number",
      "tiers[1].quantity",
    ],
    [
      { "tiers[0].quantity": "0", "tiers[0].rate": "1", "tiers[1].quantity": "99999999999999999999", "tiers[1].rate": "2" },
      "Rate 2: Quantity cannot be more than 1,000,000",
      "tiers[1].quantity",
    ],
    [{ "tiers[0].quantity": "", "tiers[0].rate": "2" }, "Rate 1: Enter a quantity (0 for the default tier)", "tiers[0].quantity"],
  ])("save: refuses %j with 400, the §5 message on its field and the §5 toast", async (tiers, message, field) => {
    const res = await post({ intent: "save", inputItem: "Gold Ring", outputItem: "Clay", ...tiers });
    expect(res.status).toBe(400);
    expect(res.data!.ok).toBe(false);
    // The same toast as the browser's own check gives (a Save pressed before it loaded).
    expect(res.data!.message).toBe("Please fix validation errors before saving");
    expect(res.data!.result!.error![field]).toEqual([message]);
    expect(toastOf(res)).toEqual({ message: "Please fix validation errors before saving", type: "error" });
    expect((await listRates())["Gold Ring"]!.Clay!.rate).toBe("1/2");
  });

  it("save: a pair that is gone answers 404", async () => {
    const res = await post({ intent: "save", inputItem: "Clay", outputItem: "Gold Ring", "tiers[0].quantity": "0", "tiers[0].rate": "1" });
    expect(res.status).toBe(404);
    expect(res.data!.message).toBe("Failed to save exchange rate: Exchange rate not found");
    expect((await listRates()).Clay).toBeUndefined();
  });

  it("status: enables and disables, with the state in the toast", async () => {
    const off = await post({ intent: "status", inputItem: "Gold Ring", outputItem: "Clay", status: "false" });
    expect(off.status).toBe(200);
    expect(off.data!.message).toBe("Exchange rate disabled successfully");
    expect((await listRates())["Gold Ring"]!.Clay!.status).toBe(false);
    const on = await post({ intent: "status", inputItem: "Gold Ring", outputItem: "Clay", status: "true" });
    expect(toastOf(on)?.message).toBe("Exchange rate enabled successfully");
    expect((await listRates())["Gold Ring"]!.Clay!.status).toBe(true);
  });

  it("status: a bad value is 400, an unknown pair 404, each with the §8 wording", async () => {
    const bad = await post({ intent: "status", inputItem: "Gold Ring", outputItem: "Clay", status: "maybe" });
    expect(bad.status).toBe(400);
    expect(bad.data!.message).toMatch(/^Failed to disable exchange rate: /);
    const missing = await post({ intent: "status", inputItem: "Clay", outputItem: "Gold Ring", status: "true" });
    expect(missing.status).toBe(404);
    expect(missing.data!.message).toBe("Failed to enable exchange rate: Exchange rate not found");
  });

  it("delete: removes the pair; the last output takes its input with it", async () => {
    const res = await post({ intent: "delete", inputItem: "Fire Cannon Ball", outputItem: "Green Light" });
    expect(res.status).toBe(200);
    expect(res.data!.message).toBe("Exchange rate deleted successfully");
    expect(Object.keys(await listRates())).toEqual(["Gold Ring"]);
    const again = await post({ intent: "delete", inputItem: "Fire Cannon Ball", outputItem: "Green Light" });
    expect(again.status).toBe(404);
    expect(again.data!.message).toBe("Failed to delete exchange rate: Exchange rate not found");
  });

  it("delete offers Undo (CONVENTIONS rule 7): the loader names what went; undo-delete restores it exactly, once", async () => {
    const before = await listRates();
    await post({ intent: "delete", inputItem: "Gold Ring", outputItem: "Clay" });
    const page = await get();
    expect(page.data!.undo).toEqual({ id: expect.any(String), label: "Gold Ring → Clay", count: 1 });
    const undo = await post({ intent: "undo-delete", undoId: (page.data!.undo as { id: string }).id });
    expect(undo.status).toBe(200);
    expect(undo.data!.message).toBe("Exchange rate restored");
    expect(toastOf(undo)).toEqual({ message: "Exchange rate restored", type: "success" });
    // Same id, rate, status and place in the list.
    expect(await listRates()).toEqual(before);
    expect(Object.keys((await listRates())["Gold Ring"]!)).toEqual(["Clay", "Silver Ring"]);
    expect((await get()).data!.undo).toBeNull();
    const twice = await post({ intent: "undo-delete", undoId: (page.data!.undo as { id: string }).id });
    expect(twice.status).toBe(404);
    expect(twice.data!.message).toBe("Nothing to undo: deleted rates can be restored for 2 minutes");
  });

  it("delete-all offers Undo too: every output comes back with its tiers and its disabled status", async () => {
    await batchUpsert([
      {
        inputItem: "Fire Cannon Ball",
        outputItem: "Clay",
        rates: [
          { quantity: 0, rate: "1" },
          { quantity: 5, rate: "2" },
        ],
        status: true,
      },
    ]);
    const before = await listRates();
    await post({ intent: "delete-input", inputItem: "Fire Cannon Ball", redirectTo: "/exchange-rates" });
    expect((await listRates())["Fire Cannon Ball"]).toBeUndefined();
    const offer = (await get()).data!.undo as { id: string; label: string };
    expect(offer.label).toBe('every exchange rate for "Fire Cannon Ball"');
    // Without JavaScript: a plain post, redirected with the flash toast.
    const res = await post({ intent: "undo-delete", undoId: offer.id, redirectTo: "/exchange-rates" });
    expect(res.status).toBe(302);
    expect(toastOf(res)).toEqual({ message: "Exchange rates restored", type: "success" });
    expect(await listRates()).toEqual(before);
  });

  it("undo-delete: another operator's deletion, or a bad id, is not undone", async () => {
    await post({ intent: "delete", inputItem: "Gold Ring", outputItem: "Clay" });
    const offer = (await get()).data!.undo as { id: string };
    const other = await createTestOperator({ name: "other-operator", password: "correct horse" });
    const request = makeRequest(PATH, { form: { intent: "undo-delete", undoId: offer.id }, cookie: other.cookie });
    expect((await callRoute(action, request)).status).toBe(404);
    expect((await post({ intent: "undo-delete", undoId: "nope" })).status).toBe(404);
    expect((await listRates())["Gold Ring"]!.Clay).toBeUndefined();
  });

  it("delete-input: removes every output of the input", async () => {
    const res = await post({ intent: "delete-input", inputItem: "Gold Ring" });
    expect(res.status).toBe(200);
    expect(res.data!.message).toBe("Exchange rates deleted successfully");
    expect(Object.keys(await listRates())).toEqual(["Fire Cannon Ball"]);
    const missing = await post({ intent: "delete-input", inputItem: "Gold Ring" });
    expect(missing.status).toBe(404);
    expect(missing.data!.message).toBe("Failed to delete exchange rates: Exchange rate not found");
  });

  it("add: new entries go in as one batch, enabled", async () => {
    const res = await post({
      intent: "add",
      inputItem: "Bronze Ring",
      "outputs[0].outputItem": "Clay",
      "outputs[0].rate": "1/4",
      "outputs[1].outputItem": "Gold Ring",
      "outputs[1].rate": "3",
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ ok: true, message: "New exchange rates added successfully", formId: addFormId() });
    expect((await listRates())["Bronze Ring"]).toMatchObject({ Clay: { rate: "1/4", status: true }, "Gold Ring": { rate: "3", status: true } });
  });

  it.each([
    [{ "outputs[0].outputItem": "Clay", "outputs[0].rate": "1/4" }, "inputItem", "Choose an input gift"],
    [{ inputItem: "Clay", "outputs[0].outputItem": "Clay", "outputs[0].rate": "1/4" }, "outputs[0].outputItem", "Input and output gift must be different"],
    [{ inputItem: "Clay", "outputs[0].outputItem": "Gold Ring", "outputs[0].rate": "abc" }, "outputs[0].rate", 'Rate 1: Invalid format. Use "1/2" or "1.5"'],
    [{ inputItem: "Clay", "outputs[0].outputItem": "", "outputs[0].rate": "1" }, "outputs[0].outputItem", "Choose an output gift"],
  ])("add: refuses %j with 400 and the field's message", async (fields, field, message) => {
    const res = await post({ intent: "add", ...fields });
    expect(res.status).toBe(400);
    expect(res.data!.result!.error![field]).toEqual([message]);
    expect(res.data!.message).toBe(`Failed to add new entries: ${message}`);
    expect((await listRates()).Clay).toBeUndefined();
  });

  it("add: an output the input already has is '(already used)' (spec 1 §2): refused, 409, nothing overwritten or re-enabled", async () => {
    const res = await post({
      intent: "add",
      inputItem: "Fire Cannon Ball",
      "outputs[0].outputItem": "Clay",
      "outputs[0].rate": "2",
      "outputs[1].outputItem": "Green Light",
      "outputs[1].rate": "9",
    });
    expect(res.status).toBe(409);
    expect(res.data!.message).toBe("Failed to add new entries: Fire Cannon Ball → Green Light already has a rate; edit it in its row");
    expect(res.data!.result!.error).toEqual({ "outputs[1].outputItem": ["This output gift already has a rate for this input"] });
    const map = await listRates();
    expect(map["Fire Cannon Ball"]).toEqual({ "Green Light": { _id: expect.any(String), rate: 1.5, status: false } });
  });

  it("add: the model refuses an existing pair inside its transaction; the API batch still upserts (import)", async () => {
    await expect(
      batchUpsert(
        [
          { inputItem: "Gold Ring", outputItem: "Bronze Ring", rates: "1" },
          { inputItem: "Gold Ring", outputItem: "Clay", rates: "7" },
        ],
        { existing: "refuse" },
      ),
    ).rejects.toThrow("Gold Ring → Clay already has a rate; edit it in its row");
    expect(Object.keys((await listRates())["Gold Ring"]!)).toEqual(["Clay", "Silver Ring"]);
    expect((await listRates())["Gold Ring"]!.Clay!.rate).toBe("1/2");
    await batchUpsert([{ inputItem: "Fire Cannon Ball", outputItem: "Green Light", rates: "2", status: true }]);
    expect((await listRates())["Fire Cannon Ball"]!["Green Light"]).toMatchObject({ rate: "2", status: true });
  });

  it("add: a gift outside the catalogue is refused by the model, 400", async () => {
    const res = await post({ intent: "add", inputItem: "Golden Banana", "outputs[0].outputItem": "Clay", "outputs[0].rate": "1" });
    expect(res.status).toBe(400);
    expect(res.data!.message).toMatch(/^Failed to add new entries: .*Unknown gift: Golden Banana/);
  });

  it("add-output: numerator/denominator become the rate; a used output is refused", async () => {
    const res = await post({ intent: "add-output", inputItem: "Gold Ring", outputItem: "Bronze Ring", numerator: "3", denominator: "4" });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ ok: true, message: "Exchange rate added successfully", formId: addFormId("Gold Ring") });
    expect((await listRates())["Gold Ring"]!["Bronze Ring"]).toMatchObject({ rate: "3/4", status: true });

    const used = await post({ intent: "add-output", inputItem: "Gold Ring", outputItem: "Clay", numerator: "1", denominator: "1" });
    expect(used.status).toBe(409);
    expect(used.data!.message).toBe("Failed to add exchange rate: This output gift already has a rate for this input");
    expect((await listRates())["Gold Ring"]!.Clay!.rate).toBe("1/2");
  });

  it.each([
    [{ outputItem: "Clay", numerator: "1", denominator: "" }, "denominator", "Enter the denominator"],
    // Issue 8 §2.6: each part has its own message (not the tier list's "Rate 1: Invalid format").
    [{ outputItem: "Clay", numerator: "1", denominator: "0" }, "denominator", "The denominator cannot be 0"],
    [{ outputItem: "Clay", numerator: "1.5", denominator: "2" }, "numerator", "The numerator must be a whole number"],
    [{ outputItem: "Clay", numerator: "1", denominator: "x" }, "denominator", "The denominator must be a whole number"],
    [{ outputItem: "", numerator: "1", denominator: "2" }, "outputItem", "Choose an output gift"],
  ])("add-output: refuses %j with 400", async (fields, field, message) => {
    const res = await post({ intent: "add-output", inputItem: "Bronze Ring", ...fields });
    expect(res.status).toBe(400);
    expect(res.data!.result!.error![field]).toEqual([message]);
  });

  it("add-output: bad numerator and denominator each get their own message, once (issue 8 §2.6)", async () => {
    const res = await post({ intent: "add-output", inputItem: "Bronze Ring", outputItem: "Clay", numerator: "a", denominator: "0" });
    expect(res.status).toBe(400);
    expect(res.data!.result!.error).toEqual({
      numerator: ["The numerator must be a whole number"],
      denominator: ["The denominator cannot be 0"],
    });
  });

  it("import: a valid map is imported; anything else is 'Invalid data format' (spec 1 §5)", async () => {
    const good = await post({
      intent: "import",
      data: JSON.stringify({
        Clay: {
          "Gold Ring": { rate: "1/5" },
          "Silver Ring": {
            rates: [
              { quantity: 0, rate: 1 },
              { quantity: 9, rate: "2" },
            ],
            status: false,
          },
        },
      }),
    });
    expect(good.status).toBe(200);
    expect(good.data!.message).toBe("Exchange rates imported successfully");
    expect((await listRates()).Clay).toMatchObject({
      "Gold Ring": { rate: "1/5" },
      "Silver Ring": {
        rates: [
          { quantity: 0, rate: 1 },
          { quantity: 9, rate: "2" },
        ],
        status: false,
      },
    });

    for (const data of [
      "",
      "not json",
      "[1,2]",
      '{"Clay": {"Gold Ring": {"quantity": 1}}}',
      '{"Clay": {"Gold Ring": {"rate": "x/y"}}}',
      '{"Nope": {"Clay": {"rate": 1}}}',
    ]) {
      const res = await post({ intent: "import", data });
      expect(res.status, data).toBe(400);
      expect(res.data!.message).toBe("Failed to import exchange rates: Invalid data format");
    }
  });
});

describe("action: a refused import says why (issue 30 A2)", () => {
  it("keeps the §8 headline and lists which entries failed and why: bad JSON, a negative rate, an unknown gift", async () => {
    const notJson = await post({ intent: "import", data: "{not json", redirectTo: "/exchange-rates" });
    expect(notJson.status).toBe(400);
    expect(notJson.data!.message).toBe("Failed to import exchange rates: Invalid data format");
    expect(notJson.data!.importProblems!.count).toBe(1);
    expect(notJson.data!.importProblems!.shown[0]).toMatch(/^The text is not valid JSON \(.+\)$/);

    const text = JSON.stringify({
      Clay: { "Gold Ring": { rate: "-1" }, "Silver Ring": { rates: [{ quantity: -5, rate: "1" }] }, "Bronze Ring": { rate: "1/2" } },
      Nope: { Clay: { rate: 1 } },
    });
    const res = await post({ intent: "import", data: text, redirectTo: "/exchange-rates" });
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ message: "Failed to import exchange rates: Invalid data format", importText: text });
    expect(res.data!.importProblems).toEqual({
      count: 3,
      shown: [
        '"Clay" → "Gold Ring": Rate 1: Invalid format. Use "1/2" or "1.5"',
        '"Clay" → "Silver Ring": Rate 1: Quantity cannot be negative',
        '"Nope" → "Clay": Unknown gift: Nope',
      ],
    });
    // All or nothing: the good entry of a refused import is not written.
    expect((await listRates()).Clay?.["Bronze Ring"]).toBeUndefined();
  });

  it("lists the first 20 failed entries with the count of all", async () => {
    const outputs = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`Gift ${i + 1}`, { rate: "1" }]));
    const res = await post({ intent: "import", data: JSON.stringify({ Clay: outputs }) });
    expect(res.status).toBe(400);
    expect(res.data!.importProblems!.count).toBe(25);
    expect(res.data!.importProblems!.shown).toHaveLength(20);
    expect(res.data!.importProblems!.shown[19]).toBe('"Clay" → "Gift 20": Unknown gift: Gift 20');
  });
});

describe("action: plain posts without JavaScript (redirectTo)", () => {
  it("redirects back with the flash toast on success", async () => {
    const res = await post({ intent: "status", inputItem: "Gold Ring", outputItem: "Clay", status: "false", redirectTo: "/exchange-rates?in=gold" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/exchange-rates?in=gold");
    expect(toastOf(res)).toEqual({ message: "Exchange rate disabled successfully", type: "success" });
  });

  it("takes a row button's `pair` from the panel's shared Enable/Disable/Delete forms (spec 1 §2 row actions)", async () => {
    const off = await post({ intent: "status", status: "false", pair: encodePair("Gold Ring", "Clay"), redirectTo: "/exchange-rates" });
    expect(off.status).toBe(302);
    expect(toastOf(off)).toEqual({ message: "Exchange rate disabled successfully", type: "success" });
    expect((await listRates())["Gold Ring"]!.Clay!.status).toBe(false);

    const gone = await post({ intent: "delete", pair: encodePair("Gold Ring", "Clay"), redirectTo: "/exchange-rates" });
    expect(gone.status).toBe(302);
    expect(toastOf(gone)).toEqual({ message: "Exchange rate deleted successfully", type: "success" });
    expect(Object.keys((await listRates())["Gold Ring"]!)).not.toContain("Clay");

    const broken = await post({ intent: "delete", pair: "not a pair" });
    expect(broken.status).toBe(400);
  });

  it("redirects with the error toast when a row action fails", async () => {
    const res = await post({ intent: "delete", inputItem: "Clay", outputItem: "Gold Ring", redirectTo: "/exchange-rates" });
    expect(res.status).toBe(302);
    expect(toastOf(res)).toEqual({ message: "Failed to delete exchange rate: Exchange rate not found", type: "error" });
  });

  it("answers the form again (400, no redirect) when it has errors; keeps a refused import's text", async () => {
    const save = await post({
      intent: "save",
      inputItem: "Gold Ring",
      outputItem: "Clay",
      "tiers[0].quantity": "0",
      "tiers[0].rate": "bad",
      redirectTo: "/exchange-rates",
    });
    expect(save.status).toBe(400);
    expect(save.data!.result!.error!["tiers[0].rate"]).toEqual(['Rate 1: Invalid format. Use "1/2" or "1.5"']);
    const imp = await post({ intent: "import", data: "[]", redirectTo: "/exchange-rates" });
    expect(imp.status).toBe(400);
    expect(imp.data).toMatchObject({ message: "Failed to import exchange rates: Invalid data format", importText: "[]" });
  });

  it("a rule the model refuses keeps the form: Add is the dialog again with the reason; an import keeps its text and logs why", async () => {
    const add = await post({
      intent: "add",
      inputItem: "Golden Banana",
      "outputs[0].outputItem": "Clay",
      "outputs[0].rate": "1",
      redirectTo: "/exchange-rates",
    });
    expect(add.status).toBe(400);
    expect(add.data).toMatchObject({ ok: false, intent: "add", formId: addFormId() });
    expect(add.data!.message).toMatch(/^Failed to add new entries: .*Unknown gift: Golden Banana/);
    expect(add.data!.result!.error![""]).toEqual([add.data!.message]);

    const text = '{"Nope": {"Clay": {"rate": 1}}}';
    const imp = await post({ intent: "import", data: text, redirectTo: "/exchange-rates" });
    expect(imp.status).toBe(400);
    expect(imp.data).toMatchObject({ ok: false, intent: "import", message: "Failed to import exchange rates: Invalid data format", importText: text });
    await vi.waitFor(async () =>
      expect((await listLogs()).map((l) => l.message)).toContainEqual(expect.stringMatching(/^Exchange rate import refused: .*Unknown gift: Nope/)),
    );
  });

  it("answers conform's list intents (add a tier) with the changed form, saving nothing", async () => {
    const res = await post({
      intent: "save",
      inputItem: "Gold Ring",
      outputItem: "Clay",
      "tiers[0].quantity": "0",
      "tiers[0].rate": "2/5",
      __intent__: JSON.stringify({ type: "insert", payload: { name: "tiers", defaultValue: { quantity: "", rate: "" } } }),
      redirectTo: "/exchange-rates",
    });
    expect(res.status).toBe(200);
    // conform drops empty strings: the new blank tier is an empty slot after the first.
    const tiers = (res.data!.result!.initialValue as { tiers: unknown[] }).tiers;
    expect(tiers).toHaveLength(2);
    expect(tiers[0]).toEqual({ quantity: "0", rate: "2/5" });
    expect(tiers[1] ?? {}).toEqual({});
    expect((await listRates())["Gold Ring"]!.Clay!.rate).toBe("1/2");
  });

  it("never redirects off the site", async () => {
    const res = await post({ intent: "delete", inputItem: "Gold Ring", outputItem: "Clay", redirectTo: "//evil.example/x" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/exchange-rates");
  });
});
