/**
 * Issue 19 item 4: the Content Security Policy lets the browser fetch the configured picture
 * hosts (the gift-image cache, ~/components/image-cache, fetches them; `connect-src` decides),
 * derived from GIFT_IMAGE_BASE_URL and GALAXY_SERVICES_URL, not hard-coded. The demo's Galaxy
 * simulator serves pictures over http from 127.0.0.1, which `https:` does not cover.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnv } from "./env.server";
import { mountRequestHygiene, pictureOrigins } from "./http-security.server";

const saved = { GIFT_IMAGE_BASE_URL: process.env.GIFT_IMAGE_BASE_URL, GALAXY_SERVICES_URL: process.env.GALAXY_SERVICES_URL };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
});

/** The CSP directives of one page response of an app mounted with the current environment. */
async function cspOf(options: { dev: boolean } = { dev: false }): Promise<Map<string, string[]>> {
  resetEnv();
  const app = express();
  mountRequestHygiene(app, options);
  app.get("/", (_req, res) => void res.send("ok"));
  const server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(res.status).toBe(200);
    const header = res.headers.get("content-security-policy") ?? "";
    return new Map(
      header
        .split(";")
        .map((d) => d.trim().split(/\s+/))
        .filter((parts) => parts[0])
        .map(([name, ...values]) => [name!, values]),
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("CSP and the configured picture hosts (issue 19 item 4)", () => {
  it("the demo's simulator (http://127.0.0.1:<port>) is allowed for images and for the cache's fetch", async () => {
    process.env.GALAXY_SERVICES_URL = "http://127.0.0.1:6680/services/";
    process.env.GIFT_IMAGE_BASE_URL = "http://127.0.0.1:6680/services/img/gifts/";
    const csp = await cspOf();
    expect(csp.get("img-src")).toContain("http://127.0.0.1:6680");
    expect(csp.get("connect-src")).toContain("http://127.0.0.1:6680");
    // Nothing else is opened up: scripts still need the nonce, connections stay self + https + the host.
    expect(csp.get("connect-src")).toEqual(["'self'", "https:", "http://127.0.0.1:6680"]);
    expect(csp.get("script-src")?.join(" ")).not.toContain("127.0.0.1");
  });

  it("follows the configuration: another image host and services host, both named (dev mode too)", async () => {
    process.env.GALAXY_SERVICES_URL = "http://galaxy.internal:8080/services/";
    process.env.GIFT_IMAGE_BASE_URL = "https://img.example.net/gifts/";
    const csp = await cspOf({ dev: true });
    for (const directive of ["img-src", "connect-src"]) {
      expect(csp.get(directive)).toContain("http://galaxy.internal:8080");
      expect(csp.get(directive)).toContain("https://img.example.net");
    }
    expect(csp.get("connect-src")).not.toContain("http://127.0.0.1:6680");
  });

  it("pictureOrigins: origins only (no paths), deduplicated; a services URL that is not http(s) adds nothing", () => {
    expect(pictureOrigins({ GIFT_IMAGE_BASE_URL: "http://127.0.0.1:1/services/img/gifts/", GALAXY_SERVICES_URL: "http://127.0.0.1:1/services/" })).toEqual([
      "http://127.0.0.1:1",
    ]);
    expect(pictureOrigins({ GIFT_IMAGE_BASE_URL: "https://galaxy.mobstudio.ru/img/gifts/", GALAXY_SERVICES_URL: "not a url" })).toEqual([
      "https://galaxy.mobstudio.ru",
    ]);
    expect(pictureOrigins({ GIFT_IMAGE_BASE_URL: "https://a.example/x/", GALAXY_SERVICES_URL: "ftp://b.example/" })).toEqual(["https://a.example"]);
  });
});

describe("the /api reference page's own policy (issue 33 item 2)", () => {
  it("GET /api/docs gets only the policy the page sends (Remix appends headers: two policies would both apply); other /api answers keep default-src 'none'", async () => {
    resetEnv();
    const app = express();
    mountRequestHygiene(app, { dev: false });
    // As @remix-run/express sends a route's headers: appended to what the middleware set.
    const page = (_req: express.Request, res: express.Response) => {
      res.append("Content-Security-Policy", "default-src 'none'; script-src 'self'");
      res.type("text/html").send("<!doctype html>");
    };
    app.get("/api/docs", page);
    app.get("/api/logs", (_req, res) => void res.json({ logs: [] }));
    const server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const docs = await fetch(`${base}/api/docs`);
      expect(docs.headers.get("content-security-policy")).toBe("default-src 'none'; script-src 'self'");
      expect(docs.headers.get("x-content-type-options")).toBe("nosniff");
      const logs = await fetch(`${base}/api/logs`);
      expect(logs.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
