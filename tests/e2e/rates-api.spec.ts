import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The /api/rates contract (spec 1 §7 "Rates") through the whole production server: Express,
 * helmet, compression, the operator gate (session cookie of the e2e operator), Remix.
 * The table is shared with the other e2e specs, so each test starts by emptying it and ends
 * with it empty.
 */

const FCB = "Fire Cannon Ball";
const GR = "Gold Ring";
const TOMCAT = "Collection Hungry Tomcat";

type RatesMap = Record<string, Record<string, { _id: string; rate?: unknown; rates?: unknown; status: boolean }>>;

async function rates(request: APIRequestContext): Promise<RatesMap> {
  const res = await request.get("/api/rates");
  expect(res.status()).toBe(200);
  return res.json();
}

async function empty(request: APIRequestContext) {
  for (const input of Object.keys(await rates(request))) {
    expect((await request.delete(`/api/rates/input/${encodeURIComponent(input)}`)).status()).toBe(200);
  }
}

test.describe("as the logged-in operator", () => {
  test.beforeEach(async ({ request }) => empty(request));

  test('spec 1 §7 "Rates": batch, update, status and the three deletes over HTTP', async ({ request }) => {
    const batch = await request.post("/api/rates/batch", {
      data: {
        updates: [
          { inputItem: FCB, outputItem: TOMCAT, rates: "1/2", status: true },
          {
            inputItem: FCB,
            outputItem: GR,
            rates: [
              { quantity: 0, rate: 1 },
              { quantity: 10, rate: "1.5" },
            ],
            status: false,
          },
          { inputItem: GR, outputItem: FCB, rates: 2, status: true },
        ],
      },
    });
    expect(batch.status()).toBe(200);
    expect(await batch.json()).toEqual({ success: true, count: 3 });

    const map = await rates(request);
    expect(map).toEqual({
      [FCB]: {
        [TOMCAT]: { _id: expect.any(String), rate: "1/2", status: true },
        [GR]: {
          _id: expect.any(String),
          rates: [
            { quantity: 0, rate: 1 },
            { quantity: 10, rate: "1.5" },
          ],
          status: false,
        },
      },
      [GR]: { [FCB]: { _id: expect.any(String), rate: 2, status: true } },
    });

    const saved = await request.post("/api/rates/update", {
      data: {
        inputItem: FCB,
        outputItem: TOMCAT,
        rates: [{ quantity: 5, rate: "3/4" }],
      },
    });
    expect(await saved.json()).toEqual({
      success: true,
      data: {
        _id: map[FCB][TOMCAT]._id,
        rates: [{ quantity: 5, rate: "3/4" }],
        status: true,
      },
    });

    const status = await request.post("/api/rates/status", {
      data: { inputItem: FCB, outputItem: TOMCAT, status: false },
    });
    expect((await status.json()).data.status).toBe(false);

    // URL-encoded names, decoded once by the server.
    const byNames = await request.delete("/api/rates/Fire%20Cannon%20Ball/Collection%20Hungry%20Tomcat");
    expect(byNames.status()).toBe(200);
    expect(await byNames.json()).toEqual({ success: true });
    expect(Object.keys((await rates(request))[FCB])).toEqual([GR]);

    const byId = await request.delete(`/api/rates/${map[GR][FCB]._id}`);
    expect(await byId.json()).toEqual({ success: true });
    expect((await request.delete(`/api/rates/${map[GR][FCB]._id}`)).status()).toBe(404);

    const all = await request.delete(`/api/rates/input/${encodeURIComponent(FCB)}`);
    expect(await all.json()).toEqual({ success: true, count: 1 });
    expect(await rates(request)).toEqual({});
  });

  test("spec 1 §5 through the server: 400 { error } with the spec's text, and an atomic batch", async ({ request }) => {
    const bad = await request.post("/api/rates/update", {
      data: {
        inputItem: GR,
        outputItem: FCB,
        rates: [
          { quantity: 0, rate: "1/2" },
          { quantity: 0, rate: "x" },
        ],
      },
    });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toEqual({
      error: 'Rate 2: Invalid format. Use "1/2" or "1.5"',
      message: 'Rate 2: Invalid format. Use "1/2" or "1.5"',
    });

    const batch = await request.post("/api/rates/batch", {
      data: {
        updates: [
          { inputItem: GR, outputItem: FCB, rates: "1", status: true },
          {
            inputItem: GR,
            outputItem: TOMCAT,
            rates: [
              { quantity: 3, rate: "1" },
              { quantity: 3, rate: "2" },
            ],
            status: true,
          },
        ],
      },
    });
    expect(batch.status()).toBe(400);
    expect(await batch.json()).toEqual({
      error: 'Invalid entry "Gold Ring" → "Collection Hungry Tomcat": Duplicate quantities found. Each tier must have a unique quantity.',
      message: 'Invalid entry "Gold Ring" → "Collection Hungry Tomcat": Duplicate quantities found. Each tier must have a unique quantity.',
    });

    const unknown = await request.post("/api/rates/update", {
      data: { inputItem: "GR", outputItem: FCB, rates: "1" },
    });
    expect(await unknown.json()).toEqual({ error: "Unknown gift: GR", message: "Unknown gift: GR" });

    const malformed = await request.post("/api/rates/update", {
      headers: { "content-type": "application/json" },
      data: Buffer.from("{oops"),
    });
    expect(malformed.status()).toBe(400);
    expect(await malformed.json()).toEqual({ error: "Malformed JSON body", message: "Malformed JSON body" });

    expect(await rates(request)).toEqual({});
  });

  test("GET /api/rates: gzip for clients that accept it, 304 on a matching ETag", async ({ request }) => {
    await request.post("/api/rates/update", {
      data: { inputItem: GR, outputItem: FCB, rates: "1/2" },
    });
    const zipped = await request.get("/api/rates", {
      headers: { "accept-encoding": "gzip" },
    });
    expect(zipped.headers()["content-encoding"]).toBe("gzip");
    expect(await zipped.json()).toEqual({
      [GR]: { [FCB]: { _id: expect.any(String), rate: "1/2", status: true } },
    });
    const etag = zipped.headers()["etag"];
    expect((await request.get("/api/rates", { headers: { "if-none-match": etag } })).status()).toBe(304);
    await empty(request);
  });
});

test.describe("without a session", () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  test("the operator gate answers 401 JSON", async ({ request }) => {
    const res = await request.get("/api/rates");
    expect(res.status()).toBe(401);
    expect(await res.json()).toEqual({ error: "Authentication required", message: "Authentication required" });
  });
});
