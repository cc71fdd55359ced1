/**
 * The /api/rates contract (spec 1 §7 "Rates") end to end through Remix's own router and
 * request handler: the route tree is built from app/routes exactly as the Vite plugin
 * builds it (flat routes), so URL decoding and route ranking are Remix's, not ours.
 * Real PostgreSQL underneath (tests/setup gives this file its own database).
 */
import { gunzipSync } from "node:zlib";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { MAX_JSON_BYTES } from "~/http/api.server";
import { deleteAllRates, listRates } from "~/models/rate.server";
import { testApiToken } from "#tests/kit/api";
import { remixHandler } from "#tests/kit/remix";

const FCB = "Fire Cannon Ball";
const GR = "Gold Ring";
const CLAY = "Clay";
const SR = "Silver Ring";
const INVALID = (n: number) => `Rate ${n}: Invalid format. Use "1/2" or "1.5"`;

let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  handle = await remixHandler((r) => /\/api\.rates/.test(r.id) || r.id.endsWith("/api.$"));
});

beforeEach(async () => {
  await deleteAllRates();
});

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { Authorization: `Bearer ${await testApiToken()}`, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  }
  return handle(new Request(`http://localhost${url}`, init));
}

async function json(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return res.json();
}

async function expectError(res: Response, status: number, error: string | RegExp) {
  expect(res.status).toBe(status);
  const body = await json(res);
  expect(Object.keys(body).sort()).toEqual(["error", "message"]);
  expect(body.message).toBe(body.error);
  if (typeof error === "string") expect(body.error).toBe(error);
  else expect(body.error).toMatch(error);
}

const update = (inputItem: string, outputItem: string, rates: unknown) => call("POST", "/api/rates/update", { inputItem, outputItem, rates });
const getRates = async () => json(await call("GET", "/api/rates"));

describe('spec 1 §7 "Rates" GET /rates: nested map of rates', () => {
  test("empty at first", async () => {
    const res = await call("GET", "/api/rates");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({});
  });

  test("input → output → rate data: flat as `rate`, tiered as `rates`, with status and _id", async () => {
    const flat = await json(await update(GR, CLAY, "1/2"));
    await update(GR, SR, [
      { quantity: 0, rate: "1/2" },
      { quantity: 50, rate: 0.75 },
    ]);
    await update(FCB, GR, 1.5);
    expect(await getRates()).toEqual({
      [GR]: {
        [CLAY]: { _id: flat.data._id, rate: "1/2", status: true },
        [SR]: {
          _id: expect.any(String),
          rates: [
            { quantity: 0, rate: "1/2" },
            { quantity: 50, rate: 0.75 },
          ],
          status: true,
        },
      },
      [FCB]: { [GR]: { _id: expect.any(String), rate: 1.5, status: true } },
    });
  });

  test("ETag revalidation answers 304; gzip is served to clients that accept it", async () => {
    await update(GR, CLAY, "1/2");
    const res = await call("GET", "/api/rates");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    const again = await call("GET", "/api/rates", undefined, { "if-none-match": etag });
    expect(again.status).toBe(304);
    const zipped = await call("GET", "/api/rates", undefined, { "accept-encoding": "gzip, deflate, br" });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(JSON.parse(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString())).toEqual(await res.json());
    await update(GR, CLAY, "1/3");
    expect((await call("GET", "/api/rates", undefined, { "if-none-match": etag })).status).toBe(200);
  });

  test("other methods → 405 { error }", async () => {
    await expectError(await call("POST", "/api/rates", {}), 405, /Method not allowed/);
  });
});

describe('spec 1 §7 "Rates" POST /rates/update {inputItem, outputItem, rates}', () => {
  test("flat/tier round trip: what is saved is what GET answers, rate types kept", async () => {
    const cases: Array<[unknown, Record<string, unknown>]> = [
      ["1/2", { rate: "1/2" }],
      [1.5, { rate: 1.5 }],
      ["2.25", { rate: "2.25" }],
      [[{ quantity: 0, rate: "3/4" }], { rate: "3/4" }], // one default tier is a flat rate (§3)
      [
        [
          { quantity: 10, rate: "1/2" },
          { quantity: 0, rate: 2 },
          { quantity: 100, rate: "0.4" },
        ],
        {
          rates: [
            { quantity: 10, rate: "1/2" },
            { quantity: 0, rate: 2 },
            { quantity: 100, rate: "0.4" },
          ],
        },
      ],
      ["5", { rate: "5" }],
    ];
    let id: string | undefined;
    for (const [rates, expected] of cases) {
      const res = await update(GR, CLAY, rates);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toEqual({ success: true, data: { _id: expect.any(String), ...expected, status: true } });
      id ??= body.data._id;
      expect(body.data._id).toBe(id);
      expect((await getRates())[GR][CLAY]).toEqual({ _id: id, ...expected, status: true });
    }
  });

  test("the GET shape can be posted back (`rate` accepted for a flat rate)", async () => {
    const res = await call("POST", "/api/rates/update", { inputItem: GR, outputItem: CLAY, rate: "1/2" });
    expect((await json(res)).data.rate).toBe("1/2");
  });

  test('§5 "Rate N: Invalid format. Use "1/2" or "1.5"" → 400, nothing saved', async () => {
    for (const bad of ["abc", "1/", "1,5", "-2", ""]) await expectError(await update(GR, CLAY, bad), 400, INVALID(1));
    await expectError(
      await update(GR, CLAY, [
        { quantity: 0, rate: "1/2" },
        { quantity: 5, rate: "x/2" },
      ]),
      400,
      INVALID(2),
    );
    expect(await getRates()).toEqual({});
  });

  test('§5 "Rate N: Quantity cannot be negative" → 400', async () => {
    await expectError(
      await update(GR, CLAY, [
        { quantity: 0, rate: "1" },
        { quantity: -1, rate: "2" },
      ]),
      400,
      "Rate 2: Quantity cannot be negative",
    );
  });

  test('§5 "Duplicate quantities found. Each tier must have a unique quantity." → 400', async () => {
    await expectError(
      await update(GR, CLAY, [
        { quantity: 10, rate: "1" },
        { quantity: 10, rate: "2" },
      ]),
      400,
      "Duplicate quantities found. Each tier must have a unique quantity.",
    );
  });

  test("a failed save leaves the saved rates untouched", async () => {
    await update(GR, CLAY, "1/2");
    await update(GR, CLAY, [{ quantity: 3, rate: "bad" }]);
    expect((await getRates())[GR][CLAY].rate).toBe("1/2");
  });

  test('§3 "lookup is by exact full name": unknown gifts → 400 "Unknown gift: …"', async () => {
    await expectError(await update("Platinum Ring", CLAY, "1"), 400, "Unknown gift: Platinum Ring");
    await expectError(await update(GR, "clay", "1"), 400, "Unknown gift: clay");
    await expectError(await update("GR", CLAY, "1"), 400, "Unknown gift: GR");
    await expectError(await update(GR, GR, "1"), 400, "Input and output gift must be different");
  });

  test("bad input of every kind → 4xx { error }", async () => {
    const post = (body: unknown, headers?: Record<string, string>) => call("POST", "/api/rates/update", body, headers);
    await expectError(await post("{not json"), 400, "Malformed JSON body");
    await expectError(await post(""), 400, /.+/);
    await expectError(await post("[]"), 400, /.+/);
    await expectError(await post({ inputItem: GR, outputItem: CLAY }), 400, /rates/);
    await expectError(await post({ inputItem: GR, rates: "1" }), 400, /outputItem/);
    await expectError(await post({ inputItem: 5, outputItem: CLAY, rates: "1" }), 400, /inputItem/);
    await expectError(await post({ inputItem: GR, outputItem: CLAY, rates: true }), 400, /rates/);
    await expectError(await post({ inputItem: GR, outputItem: CLAY, rates: [] }), 400, /rates/);
    await expectError(await post({ inputItem: GR, outputItem: CLAY, rates: [{ quantity: "5", rate: "1" }] }), 400, /quantity/);
    await expectError(await post({ inputItem: GR, outputItem: CLAY, rates: [{ quantity: 5 }] }), 400, /rate/);
    await expectError(await post({ inputItem: GR, outputItem: CLAY, rates: "1" }, { "content-type": "text/plain" }), 415, /application\/json/);
    await expectError(await post(JSON.stringify({ inputItem: GR, outputItem: CLAY, rates: "1", pad: "x".repeat(MAX_JSON_BYTES) })), 413, /too large/);
    await expectError(await call("GET", "/api/rates/update"), 405, /Method not allowed/);
    expect(await getRates()).toEqual({});
  });
});

describe('spec 1 §7 "Rates" POST /rates/status {inputItem, outputItem, status}', () => {
  test("disables and enables; saving rates keeps the status", async () => {
    const { data } = await json(await update(GR, CLAY, "1/2"));
    const off = await call("POST", "/api/rates/status", { inputItem: GR, outputItem: CLAY, status: false });
    expect(await json(off)).toEqual({ success: true, data: { _id: data._id, rate: "1/2", status: false } });
    await update(GR, CLAY, "2");
    expect((await getRates())[GR][CLAY]).toEqual({ _id: data._id, rate: "2", status: false });
    await call("POST", "/api/rates/status", { inputItem: GR, outputItem: CLAY, status: true });
    expect((await getRates())[GR][CLAY].status).toBe(true);
  });

  test("unknown pair → 404, bad status → 400, unknown gift → 400", async () => {
    await expectError(await call("POST", "/api/rates/status", { inputItem: GR, outputItem: CLAY, status: false }), 404, "Exchange rate not found");
    await expectError(await call("POST", "/api/rates/status", { inputItem: GR, outputItem: CLAY, status: "false" }), 400, /status/);
    await expectError(await call("POST", "/api/rates/status", { inputItem: GR, outputItem: CLAY }), 400, /status/);
    await expectError(await call("POST", "/api/rates/status", { inputItem: "Nope", outputItem: CLAY, status: true }), 400, "Unknown gift: Nope");
  });
});

describe('spec 1 §7 "Rates" DELETE /rates/{id}', () => {
  test("deletes by _id; again → 404; not a uuid → 404", async () => {
    const { data } = await json(await update(GR, CLAY, "1"));
    await update(GR, SR, "1");
    const res = await call("DELETE", `/api/rates/${data._id}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true });
    expect(Object.keys((await getRates())[GR])).toEqual([SR]);
    await expectError(await call("DELETE", `/api/rates/${data._id}`), 404, "Exchange rate not found");
    await expectError(await call("DELETE", "/api/rates/12345"), 404, "Exchange rate not found");
    await expectError(await call("GET", `/api/rates/${data._id}`), 405, /DELETE/);
  });
});

describe('spec 1 §7 "Rates" DELETE /rates/{inputItem}/{outputItem}', () => {
  test("URL-encoded names (Fire%20Cannon%20Ball) delete exactly that pair", async () => {
    await update(FCB, GR, "1");
    await update(FCB, "Collection Hungry Tomcat", "1");
    await update(GR, FCB, "1");
    const res = await call("DELETE", "/api/rates/Fire%20Cannon%20Ball/Collection%20Hungry%20Tomcat");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true });
    expect(await getRates()).toEqual({
      [FCB]: { [GR]: expect.objectContaining({ rate: "1" }) },
      [GR]: { [FCB]: expect.objectContaining({ rate: "1" }) },
    });
    await expectError(
      await call("DELETE", `/api/rates/${encodeURIComponent(FCB)}/${encodeURIComponent("Collection Hungry Tomcat")}`),
      404,
      "Exchange rate not found",
    );
  });

  test("the last output of an input takes the input group with it", async () => {
    await update(GR, CLAY, "1");
    await call("DELETE", `/api/rates/${encodeURIComponent(GR)}/${encodeURIComponent(CLAY)}`);
    expect(await getRates()).toEqual({});
  });
});

describe("DELETE /rates/input/{inputItem}: delete all for one input (path ours; spec 1 §7 leaves it open)", () => {
  test("removes every output of that input only", async () => {
    await update(FCB, GR, "1");
    await update(FCB, CLAY, "1");
    await update(GR, FCB, "1");
    const res = await call("DELETE", "/api/rates/input/Fire%20Cannon%20Ball");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true, count: 2 });
    expect(Object.keys(await getRates())).toEqual([GR]);
    await expectError(await call("DELETE", "/api/rates/input/Fire%20Cannon%20Ball"), 404, 'No exchange rates for "Fire Cannon Ball"');
  });
});

describe('spec 1 §7 "Rates" POST /rates/batch {updates}', () => {
  test("writes every entry (new entries and imports), status included", async () => {
    const res = await call("POST", "/api/rates/batch", {
      updates: [
        { inputItem: GR, outputItem: CLAY, rates: "1/2", status: true },
        {
          inputItem: GR,
          outputItem: SR,
          rates: [
            { quantity: 0, rate: "1" },
            { quantity: 20, rate: "1.25" },
          ],
          status: false,
        },
        { inputItem: FCB, outputItem: GR, rates: 2 },
      ],
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true, count: 3 });
    expect(await getRates()).toEqual({
      [GR]: {
        [CLAY]: { _id: expect.any(String), rate: "1/2", status: true },
        [SR]: {
          _id: expect.any(String),
          rates: [
            { quantity: 0, rate: "1" },
            { quantity: 20, rate: "1.25" },
          ],
          status: false,
        },
      },
      [FCB]: { [GR]: { _id: expect.any(String), rate: 2, status: true } },
    });
  });

  test("all or nothing: one invalid entry writes none and the 400 names it", async () => {
    await update(GR, CLAY, "1/2");
    const before = await getRates();
    const good = { inputItem: FCB, outputItem: GR, rates: "1", status: true };
    await expectError(
      await call("POST", "/api/rates/batch", { updates: [good, { inputItem: GR, outputItem: CLAY, rates: [{ quantity: 0, rate: "oops" }], status: true }] }),
      400,
      `Invalid entry "Gold Ring" → "Clay": ${INVALID(1)}`,
    );
    await expectError(
      await call("POST", "/api/rates/batch", { updates: [good, { inputItem: GR, outputItem: SR, rates: [{ quantity: -3, rate: "1" }] }] }),
      400,
      'Invalid entry "Gold Ring" → "Silver Ring": Rate 1: Quantity cannot be negative',
    );
    await expectError(
      await call("POST", "/api/rates/batch", {
        updates: [
          good,
          {
            inputItem: GR,
            outputItem: SR,
            rates: [
              { quantity: 2, rate: "1" },
              { quantity: 2, rate: "3" },
            ],
          },
        ],
      }),
      400,
      'Invalid entry "Gold Ring" → "Silver Ring": Duplicate quantities found. Each tier must have a unique quantity.',
    );
    await expectError(
      await call("POST", "/api/rates/batch", { updates: [good, { inputItem: "Wood", outputItem: SR, rates: "1" }] }),
      400,
      'Invalid entry "Wood" → "Silver Ring": Unknown gift: Wood',
    );
    await expectError(await call("POST", "/api/rates/batch", { updates: [good, { outputItem: SR, rates: "1" }] }), 400, /^Invalid entry #2: inputItem/);
    expect(await getRates()).toEqual(before);
  });

  test("bad input → 400", async () => {
    await expectError(await call("POST", "/api/rates/batch", {}), 400, /updates/);
    await expectError(await call("POST", "/api/rates/batch", { updates: {} }), 400, /updates/);
    await expectError(await call("POST", "/api/rates/batch", "nope"), 400, "Malformed JSON body");
    expect(await json(await call("POST", "/api/rates/batch", { updates: [] }))).toEqual({ success: true, count: 0 });
  });

  test("export → import round trip (spec 1 §7 'Other', §5 'Import')", async () => {
    await update(GR, CLAY, "1/2");
    await update(GR, SR, [
      { quantity: 0, rate: 1 },
      { quantity: 5, rate: "3/2" },
    ]);
    await call("POST", "/api/rates/status", { inputItem: GR, outputItem: SR, status: false });
    const exported = await getRates();
    const { parseImportText } = await import("#api/rates-schemas");
    const parsed = parseImportText(JSON.stringify(exported, null, 2));
    if (!parsed.ok) throw new Error(parsed.detail);
    await deleteAllRates();
    expect(await json(await call("POST", "/api/rates/batch", { updates: parsed.updates }))).toEqual({ success: true, count: 2 });
    const imported = await listRates();
    const strip = (m: typeof imported) =>
      Object.fromEntries(Object.entries(m).map(([i, o]) => [i, Object.fromEntries(Object.entries(o).map(([k, { _id, ...d }]) => [k, d]))]));
    expect(strip(imported)).toEqual(strip(exported));
  });
});

describe("unknown /api/rates paths stay JSON", () => {
  test("three segments → 404 { error }", async () => {
    await expectError(await call("DELETE", "/api/rates/a/b/c"), 404, /No API route/);
  });
});
