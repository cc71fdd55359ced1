/**
 * Issue 7 findings 1, 3, 6 and 7 against a real Express app: the hygiene layer, static
 * files and the auth gate exactly as server.ts mounts them, spoken to over raw HTTP (no
 * client-side URL normalisation: the paths arrive as written, like `curl --path-as-is`).
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { createOperator, createSession } from "~/models/operator.server";
import { createAuthGate } from "../http/auth-gate.server";
import { getOperator, sessionCookie } from "../http/auth.server";
import { expressErrorHandler, mountRequestHygiene, refusePath } from "./http-security.server";

let server: http.Server;
let port: number;
let cookie: string;
let token: string;
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-static-"));

beforeAll(async () => {
  fs.mkdirSync(path.join(staticDir, "assets"));
  fs.writeFileSync(path.join(staticDir, "assets", "app.js"), "console.log(1)");
  const operator = await createOperator("sec-tests", "sec-tests-password");
  cookie = (await sessionCookie().serialize((await createSession(operator.id)).token)).split(";")[0]!;
  token = (await createApiToken(operator.id, "sec-tests")).token;

  const app = express();
  app.set("trust proxy", "loopback");
  mountRequestHygiene(app, { dev: false });
  app.use("/assets", express.static(path.join(staticDir, "assets"), { fallthrough: false }));
  app.use(createAuthGate());
  // Stands in for Remix: what a route would run, and as whom.
  app.all("*", (req, res, next) => {
    getOperator(new Request(`http://x${req.originalUrl}`))
      .then((op) => {
        res.append("Set-Cookie", "probe=1; Path=/; HttpOnly");
        res.json({ ran: req.path, method: req.method, operator: op?.name ?? null, nonce: res.locals.cspNonce });
      })
      .catch(next);
  });
  app.use(expressErrorHandler);
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(staticDir, { recursive: true, force: true });
});

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request with the path exactly as written. */
function raw(method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      method,
      path: target,
      headers: { ...headers, ...(body ? { "Content-Length": String(Buffer.byteLength(body)) } : {}) },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

const origin = () => `http://127.0.0.1:${port}`;

describe("finding 1: every layer decides on the path the router runs", () => {
  it.each([
    "/assets/%2e%2e/api/logs",
    "/assets/%2E%2E/api/logs",
    "/assets/../api/logs",
    "/assets/./../api/logs",
    "/assets/.%2e/api/logs",
    "/ASSETS/%2e%2e/api/logs",
    "/assets\\..\\api\\logs",
    "/assets%5c..%5capi%5clogs",
    "/assets/%2e%2e%2fapi/logs",
    "//api/logs",
    "/api//logs",
    "/api/logs/.",
    "/api/%00logs",
    "/api/rates/%E0%A4%A",
    "/api/rates/%",
  ])("%s is refused before any route or static file (400)", async (target) => {
    const res = await raw("GET", target);
    expect([400, 404]).toContain(res.status);
    expect(res.body).not.toMatch(/"ran"/);
  });

  it("refusals of /api paths answer the contract's JSON {error, message} (issue 21), pages plain text", async () => {
    for (const target of ["/api//logs", "/api/logs/.", "/api/%00logs", "/api/rates/%", "/API/../logs", "/api\\logs"]) {
      const res = await raw("GET", target);
      expect(res.status, target).toBe(400);
      expect(res.headers["content-type"], target).toMatch(/application\/json/);
      const body = JSON.parse(res.body) as { error: string; message: string };
      expect(body.error).toMatch(/^Bad request: /);
      expect(body.message).toBe(body.error);
    }
    const page = await raw("GET", "/assets/%2e%2e/logs");
    expect(page.headers["content-type"]).toMatch(/text\/plain/);
  });

  it("a POST through /assets/../api never reaches a handler", async () => {
    const res = await raw("POST", "/assets/../api/rates/update", { "Content-Type": "application/json" }, "{}");
    expect(res.status).toBe(400);
    expect(res.body).not.toMatch(/"ran"/);
  });

  it("plain static files and ordinary paths are untouched", async () => {
    expect((await raw("GET", "/assets/app.js")).status).toBe(200);
    expect((await raw("GET", "/assets/missing.js")).status).toBe(404);
    expect((await raw("GET", "/api/logs")).status).toBe(401);
    const page = await raw("GET", "/logs?type=error");
    expect(page.status).toBe(302);
    expect(page.headers.location).toMatch(/^\/(login|setup)/);
  });

  it("refusePath: what the WHATWG URL parser would rewrite is refused, the rest passes", () => {
    expect(refusePath("/exchange-rates?x=../..")).toBeNull();
    expect(refusePath("/api/rates/Fire%20Cannon%20Ball/Clay")).toBeNull();
    expect(refusePath("/api/rates/a.b")).toBeNull();
    expect(refusePath("/a/%2e%2e/b")).not.toBeNull();
    expect(refusePath("http://evil.example/api/logs")).not.toBeNull();
    expect(refusePath("*")).not.toBeNull();
  });
});

describe("finding 3: cross-site writes to /api with the session cookie", () => {
  const json = (extra: Record<string, string> = {}) => ({ Cookie: cookie, "Content-Type": "application/json", ...extra });

  it("a hostile Origin is refused with 403 {error, message}, for /api and pages alike", async () => {
    for (const target of ["/api/rates/update", "/exchange-rates"]) {
      const headers = target.startsWith("/api")
        ? json({ Origin: "https://evil.example" })
        : { Cookie: cookie, Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" };
      const res = await raw("POST", target, headers, target.startsWith("/api") ? "{}" : "a=1");
      expect(res.status).toBe(403);
      expect(res.body).not.toMatch(/"ran"/);
    }
    const api = await raw("DELETE", "/api/rates/x", { Cookie: cookie, Origin: "null" });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body)).toEqual({ error: "Cross-site request refused", message: "Cross-site request refused" });
  });

  it("Sec-Fetch-Site cross-site or same-site is refused; an /api write without Origin or Sec-Fetch-Site is refused", async () => {
    expect((await raw("POST", "/api/x", json({ "Sec-Fetch-Site": "cross-site" }), "{}")).status).toBe(403);
    expect((await raw("POST", "/api/x", json({ "Sec-Fetch-Site": "same-site" }), "{}")).status).toBe(403);
    expect((await raw("POST", "/api/x", json(), "{}")).status).toBe(403);
  });

  it("a same-origin write must send exactly application/json", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "text/json", "application/jsonp", "application/json-patch+json"]) {
      const res = await raw("POST", "/api/x", { Cookie: cookie, Origin: origin(), "Content-Type": type }, "{}");
      expect(res.status, type).toBe(415);
    }
    const ok = await raw("POST", "/api/x", json({ Origin: origin() }), "{}");
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ran: "/api/x", operator: "sec-tests" });
    expect((await raw("POST", "/api/x", json({ "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json; charset=utf-8" }), "{}")).status).toBe(200);
  });

  it("bearer-token calls are exempt (no ambient credential)", async () => {
    const res = await raw("POST", "/api/x", { Authorization: `Bearer ${token}`, Origin: "https://evil.example", "Content-Type": "application/json" }, "{}");
    expect(res.status).toBe(200);
  });

  it("a same-origin form post to a page passes", async () => {
    const res = await raw("POST", "/exchange-rates", { Cookie: cookie, Origin: origin(), "Content-Type": "application/x-www-form-urlencoded" }, "a=1");
    expect(res.status).toBe(200);
  });
});

describe("finding 6: bad input is a 4xx, never a 500", () => {
  it("TRACE and other methods no route serves: 405 once authenticated, the login wall before", async () => {
    expect((await raw("TRACE", "/api/logs", { Cookie: cookie })).status).toBe(405);
    expect((await raw("PROPFIND", "/exchange-rates", { Cookie: cookie })).status).toBe(405);
    expect((await raw("TRACE", "/api/logs")).status).toBe(401);
  });

  it("non-form bodies posted to pages (/login included) → 415 before any action parses them", async () => {
    for (const target of ["/login", "/setup", "/exchange-rates"]) {
      const res = await raw("POST", target, { Cookie: cookie, Origin: origin(), "Content-Type": "application/json" }, '{"name":"x"}');
      expect(res.status, target).toBe(415);
    }
    expect((await raw("POST", "/login", { "Content-Type": "text/xml" }, "<a/>")).status).toBe(415);
  });
});

describe("finding 7: headers", () => {
  it("CSP scripts need this response's nonce (no 'unsafe-inline' scripts); Permissions-Policy; no-store", async () => {
    const a = await raw("GET", "/exchange-rates", { Cookie: cookie });
    const b = await raw("GET", "/exchange-rates", { Cookie: cookie });
    const csp = String(a.headers["content-security-policy"]);
    const scriptSrc = /script-src ([^;]+)/.exec(csp)![1]!;
    expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval/);
    const nonce = JSON.parse(a.body).nonce as string;
    expect(scriptSrc).toContain(`'nonce-${nonce}'`);
    expect(JSON.parse(b.body).nonce).not.toBe(nonce);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(a.headers["permissions-policy"]).toMatch(/camera=\(\)/);
    expect(a.headers["cache-control"]).toBe("no-store");
    expect((await raw("GET", "/api/logs", { Cookie: cookie })).headers["cache-control"]).toBe("no-store");
    expect((await raw("GET", "/settings", { Cookie: cookie })).headers["cache-control"]).toBe("no-store");
  });

  it("/api answers (JSON) carry a fixed short header set: no nonce, no document headers (issue 20 §4)", async () => {
    const a = await raw("GET", "/api/logs", { Cookie: cookie });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body).nonce).toBeUndefined();
    expect(a.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(a.headers["x-content-type-options"]).toBe("nosniff");
    expect(a.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(a.headers["cache-control"]).toBe("no-store");
    for (const pageOnly of ["permissions-policy", "x-frame-options", "x-dns-prefetch-control", "origin-agent-cluster", "cross-origin-opener-policy"]) {
      expect(a.headers[pageOnly], pageOnly).toBeUndefined();
    }
    // The same for any spelling the router accepts, and HSTS still over https.
    expect((await raw("GET", "/API/logs", { Cookie: cookie })).headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    const tls = await raw("GET", "/api/logs", { Cookie: cookie, "X-Forwarded-Proto": "https" });
    expect(tls.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    for (const c of tls.headers["set-cookie"] ?? []) expect(c).toMatch(/; Secure/);
    // Pages keep theirs.
    const page = await raw("GET", "/settings", { Cookie: cookie });
    expect(page.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(page.headers["permissions-policy"]).toMatch(/camera=\(\)/);
  });

  it("over http: no HSTS, cookies as set; over https (from a trusted proxy): HSTS and every cookie Secure", async () => {
    const plain = await raw("GET", "/settings", { Cookie: cookie });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    expect(String(plain.headers["set-cookie"])).not.toMatch(/Secure/);
    const tls = await raw("GET", "/settings", { Cookie: cookie, "X-Forwarded-Proto": "https" });
    expect(tls.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    for (const c of tls.headers["set-cookie"] ?? []) expect(c).toMatch(/; Secure/);
  });
});
