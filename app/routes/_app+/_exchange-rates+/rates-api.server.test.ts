import type { AddressInfo } from "node:net";
import http, { type Server } from "node:http";
import { gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createApiToken, revokeApiToken } from "~/models/api-token.server";
import { createOperator, createSession } from "~/models/operator.server";
import { loader } from "~/routes/_app+/_exchange-rates+/api.rates";
import { deleteAllRates, ratesSnapshot, RateValidationError, upsertRate } from "~/models/rate.server";
import { encodeRates, ratesExpressHandler, ratesHotPath } from "./rates-api.server";
import { apiErrorResponse } from "~/http/api.server";
import { AppError } from "~/utils/app-error";
import { withApiAuth, errorBody, testApiToken } from "#tests/kit/api";
import { createAuthGate } from "~/http/auth-gate.server";
import { sessionCookie } from "~/http/auth.server";
import { compressionWhereItPays, expressErrorHandler, mountRequestHygiene } from "~/utils/http-security.server";

/** GET through the gate, as the API token's operator. */
async function get(url: string, headers: Record<string, string> = {}) {
  return fetch(url, { headers: { Authorization: `Bearer ${await testApiToken()}`, ...headers } });
}

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(createAuthGate());
  app.get("/api/rates", ratesExpressHandler);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(async () => {
  await deleteAllRates();
  await upsertRate({ inputItem: "Gold Ring", outputItem: "Clay", rates: "1/2" });
  await upsertRate({
    inputItem: "Gold Ring",
    outputItem: "Silver Ring",
    rates: [
      { quantity: 0, rate: 1 },
      { quantity: 9, rate: "1.5" },
    ],
  });
});

const viaRemix = (headers: Record<string, string> = {}) =>
  withApiAuth(new Request("http://localhost/api/rates", { headers })).then((request) => loader({ request, params: {}, context: {} }));

test("the hot path answers nobody the gate did not let through (issue 7: its own guard)", async () => {
  const bare = express();
  bare.get("/api/rates", ratesExpressHandler);
  const s = await new Promise<Server>((resolve) => {
    const srv = bare.listen(0, "127.0.0.1", () => resolve(srv));
  });
  try {
    const res = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/api/rates`, {
      headers: { Authorization: `Bearer ${await testApiToken()}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(errorBody("Authentication required"));
  } finally {
    await new Promise((resolve) => s.close(resolve));
  }
});

test("GET /api/rates (spec 1 §7): the Express hot path answers byte for byte what the resource route answers", async () => {
  const remix = await viaRemix();
  const express = await get(`${base}/api/rates`, { "accept-encoding": "identity" });
  expect(express.status).toBe(200);
  expect(Buffer.from(await express.arrayBuffer())).toEqual(Buffer.from(await remix.arrayBuffer()));
  for (const name of ["content-type", "etag", "cache-control", "vary"]) expect(express.headers.get(name)).toBe(remix.headers.get(name));
  expect(await (await get(`${base}/api/rates`)).json()).toEqual({
    "Gold Ring": {
      Clay: { _id: expect.any(String), rate: "1/2", status: true },
      "Silver Ring": {
        _id: expect.any(String),
        rates: [
          { quantity: 0, rate: 1 },
          { quantity: 9, rate: "1.5" },
        ],
        status: true,
      },
    },
  });
});

test("the model hands out JSON bytes; the edge makes the gzip copy and the ETag once per snapshot (issue 30 C5)", async () => {
  const snapshot = await ratesSnapshot();
  // What HTTP makes of the map is not the model's: no gzip, no ETag on its snapshot.
  expect(Object.keys(snapshot).sort()).toEqual(["body", "signature"]);
  const encoded = await encodeRates(snapshot);
  expect(await encodeRates(snapshot)).toBe(encoded);
  expect(encoded.body).toBe(snapshot.body);
  expect(gunzipSync(encoded.gzip).equals(snapshot.body)).toBe(true);
  expect(encoded.etag).toMatch(/^"[\w-]+"$/);
  await upsertRate({ inputItem: "Gold Ring", outputItem: "Clay", rates: "2" });
  expect((await encodeRates(await ratesSnapshot())).etag).not.toBe(encoded.etag);
});

test("the hot path revalidates with the ETag and sees writes at once", async () => {
  const first = await get(`${base}/api/rates`);
  const etag = first.headers.get("etag")!;
  expect((await get(`${base}/api/rates`, { "if-none-match": etag })).status).toBe(304);
  await upsertRate({ inputItem: "Gold Ring", outputItem: "Clay", rates: "2" });
  const after = await get(`${base}/api/rates`, { "if-none-match": etag });
  expect(after.status).toBe(200);
  expect((await after.json())["Gold Ring"].Clay.rate).toBe("2");
});

test("apiErrorResponse: an AppError (a broken rate rule) is 400 with its text, thrown Responses as is, anything else 500 with the route's text", async () => {
  const request = new Request("http://localhost/api/rates/update", { method: "POST" });
  const bad = apiErrorResponse(new RateValidationError("Rate 1: Quantity cannot be negative"), request);
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual(errorBody("Rate 1: Quantity cannot be negative"));
  const thrown = new Response("{}", { status: 413 });
  expect(apiErrorResponse(thrown, request)).toBe(thrown);
  const offline = apiErrorResponse(new AppError(503, "Job engine offline: Redis is not reachable", { headers: { "Retry-After": "5" } }), request);
  expect(offline.status).toBe(503);
  expect(offline.headers.get("Retry-After")).toBe("5");
  expect(await offline.json()).toEqual(errorBody("Job engine offline: Redis is not reachable"));
  const warn = console.warn;
  console.warn = () => {};
  try {
    const other = apiErrorResponse(new Error("db down"), request, { POST: "Failed to save exchange rate: Please try again" });
    expect(other.status).toBe(500);
    expect(await other.json()).toEqual(errorBody("Failed to save exchange rate: Please try again"));
    const unnamed = apiErrorResponse(new Error("db down"), new Request("http://localhost/api/rates/update", { method: "PUT" }), { POST: "x" });
    expect(await unnamed.json()).toEqual(errorBody("Internal server error"));
  } finally {
    console.warn = warn;
  }
});

describe("the hot path ahead of Express (issue 20 §4)", () => {
  let full: Server;
  let fullPort: number;
  /** Requests Express answered (the hot path declined them). */
  let throughExpress = 0;
  let operatorId: string;
  let cookie: string;

  beforeAll(async () => {
    const operator = await createOperator("hot-path", "hot-path-password");
    operatorId = operator.id;
    cookie = (await sessionCookie().serialize((await createSession(operator.id)).token)).split(";")[0]!;
    // The layers server.ts mounts in front of the route, in its order.
    const app = express();
    app.disable("x-powered-by");
    app.set("trust proxy", "loopback");
    mountRequestHygiene(app, { dev: false });
    app.use(compressionWhereItPays(compression));
    app.use(createAuthGate());
    app.get("/api/rates", ratesExpressHandler);
    app.use(expressErrorHandler);
    const hot = ratesHotPath(app.get("trust proxy fn") as Parameters<typeof ratesHotPath>[0]);
    full = http.createServer((req, res) => {
      if (hot(req, res)) return;
      throughExpress++;
      app(req, res);
    });
    await new Promise<void>((resolve) => full.listen(0, "127.0.0.1", () => resolve()));
    fullPort = (full.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => full.close(() => resolve())));

  type Raw = { status: number; rawHeaders: string[]; body: Buffer };
  const raw = (target: string, headers: Record<string, string>) =>
    new Promise<Raw>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: fullPort, path: target, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });
  /** Header names and values in order, without Date (the only one that may differ). */
  const named = (r: Raw) => {
    const out: string[] = [];
    for (let i = 0; i < r.rawHeaders.length; i += 2)
      if (r.rawHeaders[i]!.toLowerCase() !== "date") out.push(`${r.rawHeaders[i]!.toLowerCase()}: ${r.rawHeaders[i + 1]}`);
    return out.sort();
  };
  /** The same request once through the hot path (`target`) and once through Express ("/API/rates" routes there too). */
  async function both(headers: Record<string, string>, target = "/api/rates") {
    await raw("/api/rates", headers); // fills the gate's token cache and the snapshot
    const before = throughExpress;
    const hot = await raw(target, headers);
    const hotTook = throughExpress - before;
    const slow = await raw("/API/rates", headers);
    expect(throughExpress - before - hotTook).toBe(1);
    return { hot, slow, hotTook };
  }

  test("answers exactly what the whole stack answers: headers, body, gzip, 304, HSTS behind a trusted proxy", async () => {
    const token = (await createApiToken(operatorId, "hot-equal")).token;
    const auth = { authorization: `Bearer ${token}` };
    const first = await raw("/api/rates", auth);
    const etag = first.rawHeaders[first.rawHeaders.findIndex((h) => h.toLowerCase() === "etag") + 1]!;
    for (const headers of [
      auth,
      { ...auth, "accept-encoding": "gzip, deflate" },
      { ...auth, "if-none-match": etag },
      { ...auth, "x-forwarded-proto": "https" },
    ]) {
      const { hot, slow, hotTook } = await both(headers);
      expect(hotTook).toBe(0);
      expect(hot.status).toBe(slow.status);
      expect(named(hot)).toEqual(named(slow));
      expect(hot.body.equals(slow.body)).toBe(true);
    }
    const secure = (await both({ ...auth, "x-forwarded-proto": "https" })).hot;
    expect(named(secure)).toContain("strict-transport-security: max-age=31536000; includeSubDomains");
    expect(named(secure)).toContain("content-security-policy: default-src 'none'; frame-ancestors 'none'");
    expect(gunzipSync((await both({ ...auth, "accept-encoding": "gzip" })).hot.body).equals(first.body)).toBe(true);
    expect((await both({ ...auth, "if-none-match": etag })).hot.status).toBe(304);
  });

  test("a query string stays on the hot path (issue 32 item 5: `?v=1` cost 63 % of the bare handler through Express)", async () => {
    const token = (await createApiToken(operatorId, "hot-query")).token;
    const auth = { authorization: `Bearer ${token}` };
    for (const target of ["/api/rates?", "/api/rates?v=1", "/api/rates?v=1&cache=no%20thanks", "/api/rates?_=1700000000000"]) {
      for (const headers of [auth, { ...auth, "accept-encoding": "gzip" }]) {
        const { hot, slow, hotTook } = await both(headers, target);
        expect(hotTook).toBe(0);
        expect(hot.status).toBe(200);
        expect(named(hot)).toEqual(named(slow));
        expect(hot.body.equals(slow.body)).toBe(true);
      }
    }
    // Odd queries still go through the whole stack, which answers them as before.
    for (const target of ["/api/rates?x=%00", "/api/rates?q=<b>", "/api/rates?%zz"]) {
      const n = throughExpress;
      expect((await raw(target, auth)).status).toBe(200);
      expect(throughExpress - n).toBe(1);
    }
  });

  test("a revoked token is refused on the very next request; cookies, unknown tokens and odd spellings go through the gate", async () => {
    const { token, row } = await createApiToken(operatorId, "hot-revoke");
    const auth = { authorization: `Bearer ${token}` };
    const other = { authorization: `Bearer ${(await createApiToken(operatorId, "hot-other")).token}` };
    await raw("/api/rates", other);
    expect((await both(auth)).hotTook).toBe(0);
    await revokeApiToken(operatorId, row.id);
    const before = throughExpress;
    const refused = await raw("/api/rates", auth);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString())).toEqual(errorBody("Authentication required"));
    expect(throughExpress - before).toBe(1);

    for (const [target, headers, status] of [
      ["/api/rates", { cookie }, 200],
      ["/api/rates", { authorization: "Bearer gtk_nobody" }, 401],
      ["/api/rates", {}, 401],
      ["/API/rates", other, 200],
      ["/api/rates?x=1", { cookie }, 200],
      ["/api/./rates", { cookie }, 400],
    ] as const) {
      const n = throughExpress;
      expect((await raw(target, headers)).status).toBe(status);
      expect(throughExpress - n).toBe(1);
    }
  });

  test("a write elsewhere is seen at once: the stale snapshot goes through Express, which rebuilds it", async () => {
    const token = (await createApiToken(operatorId, "hot-fresh")).token;
    const auth = { authorization: `Bearer ${token}` };
    await both(auth);
    await upsertRate({ inputItem: "Gold Ring", outputItem: "Clay", rates: "3" });
    const n = throughExpress;
    const after = await raw("/api/rates", auth);
    expect(throughExpress - n).toBe(1);
    expect(JSON.parse(after.body.toString())["Gold Ring"].Clay.rate).toBe("3");
    const again = await raw("/api/rates", auth);
    expect(throughExpress - n).toBe(1);
    expect(again.body.equals(after.body)).toBe(true);
  });
});
