import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { loader } from "~/routes/_app+/_exchange-rates+/api.rates";
import { deleteAllRates, RateValidationError, upsertRate } from "~/models/rate.server";
import { rateWriteFailed, ratesExpressHandler } from "./rates-api.server";
import { withApiAuth, errorBody, testApiToken } from "#tests/kit/api";
import { createAuthGate } from "./auth-gate.server";

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

test("the hot path revalidates with the ETag and sees writes at once", async () => {
  const first = await get(`${base}/api/rates`);
  const etag = first.headers.get("etag")!;
  expect((await get(`${base}/api/rates`, { "if-none-match": etag })).status).toBe(304);
  await upsertRate({ inputItem: "Gold Ring", outputItem: "Clay", rates: "2" });
  const after = await get(`${base}/api/rates`, { "if-none-match": etag });
  expect(after.status).toBe(200);
  expect((await after.json())["Gold Ring"].Clay.rate).toBe("2");
});

test("rateWriteFailed: 400 for rule breaks, thrown Responses as is, 500 otherwise", async () => {
  const bad = rateWriteFailed(new RateValidationError("Rate 1: Quantity cannot be negative"), "x");
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual(errorBody("Rate 1: Quantity cannot be negative"));
  const thrown = new Response("{}", { status: 413 });
  expect(rateWriteFailed(thrown, "x")).toBe(thrown);
  const warn = console.warn;
  console.warn = () => {};
  try {
    const other = rateWriteFailed(new Error("db down"), "Failed to save exchange rate: Please try again");
    expect(other.status).toBe(500);
    expect(await other.json()).toEqual(errorBody("Failed to save exchange rate: Please try again"));
  } finally {
    console.warn = warn;
  }
});
