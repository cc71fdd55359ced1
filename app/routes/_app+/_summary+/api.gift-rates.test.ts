/**
 * GET/POST /api/gift-rates and GET /api/bowling-awards/daily-totals (spec 2 §7 "Characters",
 * spec 1 §7) through Remix's router, the resource route /summary/gift-rates, and the Gift Rates
 * form without JavaScript posted to the pages that host it (decision 0047). Real PostgreSQL underneath.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { dailyAwards, giftRates } from "~/db/schema";
import { upsertDailyRows, dayIn, DEFAULT_SUMMARY_TIME_ZONE } from "~/models/daily-totals.server";
import { getGiftRates, replaceGiftRates } from "~/models/gift-rates.server";
import { MAX_JSON_BYTES } from "~/http/api.server";
import { testApiToken } from "#tests/kit/api";
import { callRoute, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import { remixHandler } from "#tests/kit/remix";
import { action as pageAction } from "./summary.gift-rates";
import { action as charactersAction } from "../_characters+/characters";
import { action as bowlingAction } from "../_bowling-bots+/gifts";

let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  handle = await remixHandler((r) => /_summary\+/.test(r.id) || r.id.endsWith("/api.$"));
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(giftRates);
  await db.delete(dailyAwards);
});

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { Authorization: `Bearer ${await testApiToken()}`, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  }
  return handle(new Request(`http://localhost${url}`, init));
}

async function expectError(res: Response, status: number, pattern?: RegExp) {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(Object.keys(body).sort()).toEqual(["error", "message"]);
  expect(body.message).toBe(body.error);
  if (pattern) expect(body.error).toMatch(pattern);
}

describe("spec 2 §7 GET/POST /api/gift-rates", () => {
  it("GET answers {rates}", async () => {
    await replaceGiftRates({ Clay: 2.5 });
    const res = await call("GET", "/api/gift-rates");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ rates: { Clay: 2.5 } });
  });
  it("POST replaces the whole set and drops rates of 0", async () => {
    await replaceGiftRates({ Clay: 2.5, "Silver Ring": 4 });
    const res = await call("POST", "/api/gift-rates", { rates: { "Fire Cannon Ball": 1, "Skeleton Key": 0.5, Clay: 0 } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ rates: { "Fire Cannon Ball": 1, "Skeleton Key": 0.5 } });
    expect(await getGiftRates()).toEqual({ "Fire Cannon Ball": 1, "Skeleton Key": 0.5 });
  });
  it("bad input → 4xx {error, message}, nothing changed", async () => {
    await replaceGiftRates({ Clay: 3 });
    const bad: Array<[unknown, number, RegExp?]> = [
      [{ rates: { Gold: 1 } }, 400, /unknown gift/],
      [{ rates: { Clay: -1 } }, 400, /negative/],
      [{ rates: { Clay: "2" } }, 400, /number/],
      [{}, 400],
      [{ rates: [] }, 400],
      ["{not json", 400, /Malformed JSON/],
      [{ rates: { Clay: 1 }, extra: true }, 400],
    ];
    for (const [body, status, re] of bad) await expectError(await call("POST", "/api/gift-rates", body), status, re);
    await expectError(await call("POST", "/api/gift-rates", "x".repeat(MAX_JSON_BYTES + 10)), 413);
    await expectError(await call("POST", "/api/gift-rates", { rates: {} }, { "content-type": "text/plain" }), 415);
    await expectError(await call("DELETE", "/api/gift-rates"), 405);
    expect(await getGiftRates()).toEqual({ Clay: 3 });
  });
  it("needs authentication", async () => {
    const res = await handle(new Request("http://localhost/api/gift-rates"));
    expect(res.status).toBe(401);
  });
});

describe("spec 2 §7 / spec 1 §7 GET /api/bowling-awards/daily-totals", () => {
  it("answers {dailyTotals: [{date, awards, ballStats}]} for the last 7 days", async () => {
    const today = dayIn(DEFAULT_SUMMARY_TIME_ZONE);
    await upsertDailyRows([
      { accountId: "1", day: today, awards: { Clay: 1 }, ballStats: { "Fire Cannon Ball": 2 } },
      { accountId: "2", day: today, awards: { Clay: 4 }, ballStats: {} },
      { accountId: "1", day: "2000-01-01", awards: { Clay: 9 }, ballStats: {} },
    ]);
    const res = await call("GET", "/api/bowling-awards/daily-totals");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ dailyTotals: [{ date: today, awards: { Clay: 5 }, ballStats: { "Fire Cannon Ball": 2 } }] });
  });
  it("POST → 405 {error, message}", async () => {
    await expectError(await call("POST", "/api/bowling-awards/daily-totals", {}), 405);
  });
});

describe("POST /summary/gift-rates (the no-JavaScript Gift Rates form, spec 2 §5)", () => {
  const form = (fields: Record<string, string>) => ({ intent: "save", redirectTo: "/gifts?x=1", ...fields });
  it("saves complete pairs as prize / fireballs, replaces the set, redirects back with a toast", async () => {
    const op = await createTestOperator();
    await replaceGiftRates({ "Silver Ring": 4 });
    const res = await callRoute(
      pageAction,
      makeRequest("/summary/gift-rates", {
        cookie: op.cookie,
        form: form({ "prize:Clay": "5", "fireballs:Clay": "2", "prize:Skeleton Key": "3", "fireballs:Skeleton Key": "" }),
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/gifts?x=1");
    expect(toastOf(res)?.message).toBe("Gift rates saved");
    expect(await getGiftRates()).toEqual({ Clay: 2.5 });
  });
  it("non-whole or negative input: error toast, nothing changed; unsafe redirectTo falls back", async () => {
    const op = await createTestOperator();
    await replaceGiftRates({ Clay: 3 });
    for (const bad of ["-1", "1.5", "abc"]) {
      const res = await callRoute(
        pageAction,
        makeRequest("/summary/gift-rates", {
          cookie: op.cookie,
          form: { ...form({ "prize:Clay": bad, "fireballs:Clay": "1" }), redirectTo: "https://evil.example/" },
        }),
      );
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/");
      expect(toastOf(res)?.type).toBe("error");
    }
    expect(await getGiftRates()).toEqual({ Clay: 3 });
  });
  it("issue 19 item 7: fireballs above the §5 multiplier cap (1000) are refused with the reason, nothing changed", async () => {
    const op = await createTestOperator();
    await replaceGiftRates({ Clay: 3 });
    const res = await callRoute(
      pageAction,
      makeRequest("/summary/gift-rates", { cookie: op.cookie, form: form({ "prize:Clay": "1", "fireballs:Clay": "1001" }) }),
    );
    expect(res.status).toBe(302);
    expect(toastOf(res)).toMatchObject({ type: "error", message: "Clay: FCB: at most 1,000 (a rate is read back with at most 1,000 fireballs)" });
    const neg = await callRoute(
      pageAction,
      makeRequest("/summary/gift-rates", { cookie: op.cookie, form: form({ "prize:Clay": "-5", "fireballs:Clay": "1" }) }),
    );
    expect(toastOf(neg)?.message).toBe("Clay: Whole numbers of 0 or more only");
    expect(await getGiftRates()).toEqual({ Clay: 3 });
  });
  it("unknown intent → 400", async () => {
    const op = await createTestOperator();
    const res = await callRoute(pageAction, makeRequest("/summary/gift-rates", { cookie: op.cookie, form: { intent: "nope" } }));
    expect(res.status).toBe(400);
  });
});

describe("the Gift Rates form without JavaScript, posted to its host page (issue 30 A6, decision 0047)", () => {
  const hosts = [
    { page: "/characters", action: charactersAction },
    { page: "/gifts", action: bowlingAction },
  ];
  const form = (page: string, fields: Record<string, string>) => ({ intent: "save-gift-rates", redirectTo: page, ...fields });

  for (const { page, action } of hosts) {
    it(`${page}: a refused value renders the page again with what was typed and the reason under its field; nothing saved`, async () => {
      const op = await createTestOperator();
      await replaceGiftRates({ Clay: 3 });
      const typed = { "prize:Clay": "7", "fireballs:Clay": "1001", "prize:Skeleton Key": "-2", "fireballs:Skeleton Key": "1" };
      const res = await callRoute(action, makeRequest(`${page}?dialog=gift-rates`, { cookie: op.cookie, form: form(page, typed) }));
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(toastOf(res)).toBeUndefined();
      // Spec 2 §5 "whole numbers, minimum 0": the first refused gift in the §3 order, on its field.
      expect(res.data).toMatchObject({
        ok: false,
        intent: "save-gift-rates",
        kept: {
          fields: { ...typed, intent: "save-gift-rates" },
          fieldErrors: { "fireballs:Clay": [expect.stringMatching(/^Clay: FCB: at most 1,000/)] },
          formErrors: [],
        },
      });
      const prize = await callRoute(
        action,
        makeRequest(`${page}?dialog=gift-rates`, { cookie: op.cookie, form: form(page, { "prize:Clay": "1.5", "fireballs:Clay": "2" }) }),
      );
      expect(prize.data).toMatchObject({ kept: { fieldErrors: { "prize:Clay": ["Clay: Whole numbers of 0 or more only"] } } });
      expect(await getGiftRates()).toEqual({ Clay: 3 });
    });

    it(`${page}: a save redirects back with "Gift rates saved", as the resource route does`, async () => {
      const op = await createTestOperator();
      const res = await callRoute(
        action,
        makeRequest(`${page}?dialog=gift-rates`, { cookie: op.cookie, form: form(page, { "prize:Clay": "5", "fireballs:Clay": "2" }) }),
      );
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(page);
      expect(toastOf(res)).toMatchObject({ type: "success", message: "Gift rates saved" });
      expect(await getGiftRates()).toEqual({ Clay: 2.5 });
    });
  }
});
