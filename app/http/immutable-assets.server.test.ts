/**
 * The build's /assets from memory (app/http/immutable-assets.server.ts), mounted as server.ts
 * mounts it: behind the hygiene layer, ahead of compression, with express.static after it. Real
 * HTTP; each body is decoded and compared with the file's bytes.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressionWhereItPays, mountRequestHygiene } from "~/utils/http-security.server";
import { immutableAssets, pickEncoding } from "./immutable-assets.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-assets-"));
const css = Buffer.from(Array.from({ length: 4000 }, (_, i) => `.rt-r${i}{margin:${i % 9}px}`).join("\n"));
const js = Buffer.from(`export const words = ${JSON.stringify(Array.from({ length: 800 }, (_, i) => `word ${i}`))};\n`);
const small = Buffer.from("console.log(1)");
const png = Buffer.alloc(5000, 7);
let server: http.Server;
let base: string;

beforeAll(async () => {
  fs.mkdirSync(path.join(dir, "fonts"));
  fs.writeFileSync(path.join(dir, "styles-abc.css"), css);
  fs.writeFileSync(path.join(dir, "router-abc.js"), js);
  fs.writeFileSync(path.join(dir, "tiny-abc.js"), small);
  fs.writeFileSync(path.join(dir, "picture-abc.png"), png);
  fs.writeFileSync(path.join(dir, "fonts", "icons-abc.svg"), `<svg>${"<path d='M0 0h1'/>".repeat(200)}</svg>`);
  const app = express();
  mountRequestHygiene(app, { dev: false });
  app.use("/assets", immutableAssets(dir));
  app.use(compressionWhereItPays(compression));
  app.use("/assets", express.static(dir, { immutable: true, maxAge: "1y", fallthrough: false }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
function get(target: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // The path as written: a URL string would be normalised ("/assets/../x" → "/x") before it left.
    const { hostname, port } = new URL(base);
    const req = http.request({ hostname, port, path: target, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("pickEncoding: as the compression middleware chose", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0.1", "gzip"],
    ["*", "br"],
    ["identity", "identity"],
    ["gzip;q=0, br;q=0", "identity"],
    ["", "identity"],
  ] as const)("%j → %s", (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
  it("no header: the bytes themselves", () => expect(pickEncoding(undefined)).toBe("identity"));
});

describe("GET /assets/* from memory", () => {
  it("Brotli when the browser takes it, gzip when only that, the bytes themselves otherwise; each decodes to the file", async () => {
    const br = await get("/assets/styles-abc.css", { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).equals(css)).toBe(true);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(css.length / 5);

    const gz = await get("/assets/styles-abc.css", { "Accept-Encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).equals(css)).toBe(true);

    const plain = await get("/assets/styles-abc.css", { "Accept-Encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(css)).toBe(true);
    const none = await get("/assets/styles-abc.css");
    expect(none.body.equals(css)).toBe(true);
  });

  it("answers as express.static did: its Content-Type, a year immutable, Vary, the security headers", async () => {
    const ours = await get("/assets/router-abc.js", { "Accept-Encoding": "br" });
    expect(ours.headers["content-type"]).toMatch(/^application\/javascript; charset=utf-8$/i);
    expect(ours.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(ours.headers.vary).toBe("Accept-Encoding");
    expect(ours.headers["x-content-type-options"]).toBe("nosniff");
    expect(ours.headers["content-security-policy"]).toMatch(/default-src 'self'/);
    expect((await get("/assets/styles-abc.css")).headers["content-type"]).toMatch(/^text\/css; charset=utf-8$/i);
    expect((await get("/assets/picture-abc.png")).headers["content-type"]).toBe("image/png");
  });

  it("small files and pictures go as they are, whatever the browser takes", async () => {
    for (const [name, bytes] of [
      ["tiny-abc.js", small],
      ["picture-abc.png", png],
    ] as const) {
      const res = await get(`/assets/${name}`, { "Accept-Encoding": "gzip, br" });
      expect(res.headers["content-encoding"], name).toBeUndefined();
      expect(res.headers.vary, name).toBeUndefined();
      expect(res.body.equals(bytes), name).toBe(true);
    }
  });

  it("a file in a folder of the build is served too", async () => {
    const res = await get("/assets/fonts/icons-abc.svg", { "Accept-Encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    expect(zlib.gunzipSync(res.body).toString()).toMatch(/^<svg>/);
  });

  it("an ETag per encoding; If-None-Match gets a 304 without a body; HEAD has the length and no body", async () => {
    const br = await get("/assets/router-abc.js", { "Accept-Encoding": "br" });
    const gz = await get("/assets/router-abc.js", { "Accept-Encoding": "gzip" });
    const plain = await get("/assets/router-abc.js");
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    const again = await get("/assets/router-abc.js", { "Accept-Encoding": "br", "If-None-Match": br.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get("/assets/router-abc.js", { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(Number(head.headers["content-length"])).toBe(br.body.length);
    expect(head.body.length).toBe(0);
  });

  it("reads a file once: what the first request found is what every later one gets", async () => {
    const first = await get("/assets/tiny-abc.js");
    fs.writeFileSync(path.join(dir, "tiny-abc.js"), "console.log(2)");
    try {
      const later = await get("/assets/tiny-abc.js");
      expect(later.body.toString()).toBe(first.body.toString());
      expect(later.body.toString()).toBe("console.log(1)");
    } finally {
      fs.writeFileSync(path.join(dir, "tiny-abc.js"), small);
    }
  });

  it("what the build does not hold goes on to express.static: a name made later, a missing one, another method", async () => {
    fs.writeFileSync(path.join(dir, "later-abc.js"), "console.log(3)");
    const later = await get("/assets/later-abc.js");
    expect(later.status).toBe(200);
    // express.static's answer: its Last-Modified, which the handler in memory does not send.
    expect(later.headers["last-modified"]).toBeDefined();
    expect((await get("/assets/missing-abc.js")).status).toBe(404);
    expect((await get("/assets/styles-abc.css", {}, "POST")).status).toBe(405);
    expect((await get("/assets/%E0%A4%A")).status).toBe(400);
    expect((await get("/assets/../package.json")).status).toBe(400);
  });
});
