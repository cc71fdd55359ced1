/**
 * Issue 7, "A standing security suite", against the production build: every route the
 * app serves — the Remix route table (app/routes.manifest.ts, so new routes are covered
 * without editing this file), the routes Express answers itself (app/server-routes.ts),
 * the static mounts and the queue board — requested without credentials, with
 * path-traversal and encoding variants, by every method, with the path sent exactly as
 * written. Nothing but 401, a redirect to the login, 404 or a 400/415 refusal may come
 * back, and nothing may change.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { UNSAFE_defineRoutes } from "@remix-run/dev";
import { appRoutes } from "../../app/routes.manifest";
import { PUBLIC_PAGES, SERVER_ROUTES } from "../../app/server-routes";
import { LOG_LIST_LIMIT } from "../../api/logs";
import { E2E_BUILD_DIR, WORLD } from "./world";

test.use({ storageState: { cookies: [], origins: [] } });

type Route = { id: string; parentId?: string; path?: string };

function remixPaths(): string[] {
  const table = Object.values(appRoutes(UNSAFE_defineRoutes)) as Route[];
  const byId = new Map(table.map((r) => [r.id, r]));
  return table.map((route) => {
    const parts: string[] = [];
    for (let r: Route | undefined = route; r; r = r.parentId ? byId.get(r.parentId) : undefined) if (r.path) parts.unshift(r.path);
    return ("/" + parts.join("/")).replace(/:[A-Za-z]+/g, "x").replace(/\*/g, "anything");
  });
}

function staticPaths(): string[] {
  const assets = path.resolve(`${E2E_BUILD_DIR}/client/assets`);
  const some = fs.existsSync(assets) ? fs.readdirSync(assets).slice(0, 3) : [];
  return [...some.map((f) => `/assets/${f}`), "/favicon.ico", "/assets/", "/assets"];
}

/** The variants of one path an attacker would try. */
function variants(p: string): string[] {
  const rest = p.slice(1);
  return [
    p,
    `${p}/`,
    p.toUpperCase(),
    p.replace(/^\/(.)/, (_m, c: string) => `/${c.toUpperCase()}`),
    `/assets/..${p}`,
    `/assets/%2e%2e${p}`,
    `/assets/%2E%2E/${rest}`,
    `/assets/.%2e/${rest}`,
    `/favicon.ico/..${p}`,
    `${p}/.`,
    `${p}/..`,
    `/./${rest}`,
    `//${rest}`,
    `/${rest.replace(/\//g, "%2F")}`,
    `/${rest.replace(/\//g, "%2f")}`,
    `${p}.`,
    `${p}%2e`,
    `${p}.data`,
    `${p}?_data=routes%2F_app%2B%2F_layout`,
    `/assets\\..\\${rest.replace(/\//g, "\\")}`,
    `/%61${rest.slice(1)}`.replace(/^\/%61$/, "/%61"),
  ];
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"];

function send(base: URL, method: string, target: string, body?: { type: string; text: string }): Promise<{ status: number; location?: string; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (body) Object.assign(headers, { "Content-Type": body.type, "Content-Length": String(Buffer.byteLength(body.text)) });
    const req = http.request({ host: base.hostname, port: base.port, method, path: target, headers, agent: false });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text.length < 4096 ? (text += c) : undefined));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text }));
    });
    req.on("error", reject);
    if (body) req.write(body.text);
    req.end();
  });
}

/** Every `_id` in a JSON body, in order of appearance (a list's rows, whatever its shape). */
function ids(body: unknown): string[] {
  if (Array.isArray(body)) return body.flatMap(ids);
  if (!body || typeof body !== "object") return [];
  return Object.entries(body).flatMap(([k, v]) => (k === "_id" && typeof v === "string" ? [v] : ids(v)));
}

/** Lists only a request writes to (background sessions change their rows' state, never the rows). */
const LISTS = ["/api/users", "/api/bowling-users", "/api/categories", "/api/custom-planets", "/api/ads", "/api/gala-cord-accounts", "/api/bowling-companions"];

/**
 * What a request that got through would change: the rates, the lists above, the audit trail
 * (every write an operator or token makes), and System Logs' existing entries (Clear and Clean
 * Old Logs). New log entries are not compared: sessions an earlier file in this world left
 * running write them on their own (one CI run: three, two minutes into this journey).
 */
async function state(api: APIRequestContext) {
  const json = async (url: string) => {
    const res = await api.get(url);
    expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
    return res.json() as Promise<unknown>;
  };
  const lists: Record<string, string[]> = {};
  for (const url of LISTS) lists[url] = ids(await json(url)).sort();
  const { entries } = (await json("/api/audit?limit=200")) as { entries: Array<{ _id: string; action: string; target: string }> };
  const logs = ((await json("/api/logs")) as { logs: Array<{ _id: string; message: string; timestamp: string }> }).logs;
  return {
    rates: await (await api.get("/api/rates")).text(),
    lists,
    audit: entries.map((e) => `${e._id} ${e.action} ${e.target}`),
    // Failed logins are summed into one entry per window (docs/decisions/0012): that one may grow.
    logs: new Map(logs.filter((l) => !/^Failed logins:/.test(l.message)).map((l) => [l._id, { text: `${l._id} ${l.message}`, at: Date.parse(l.timestamp) }])),
    // The list is the newest LOG_LIST_LIMIT: when full, what is older than its last entry is out of sight, not gone.
    seenFrom: logs.length >= LOG_LIST_LIMIT ? Date.parse(logs.at(-1)!.timestamp) : -Infinity,
  };
}

test("no route, by any path variant or method, answers without credentials", async ({ playwright }, testInfo) => {
  test.setTimeout(600_000);
  const baseURL = testInfo.project.use.baseURL!;
  const base = new URL(baseURL);
  const operator = await playwright.request.newContext({ baseURL, storageState: WORLD.storageState });
  const before = await state(operator);

  const publicPages = new Set<string>(PUBLIC_PAGES);
  const routes = [...new Set([...remixPaths(), ...SERVER_ROUTES.map((r) => r.path), ...staticPaths()])];
  // What a public page or file may be reached as: Express and Remix match paths
  // case-insensitively, Remix serves `<page>.data`, static files decode `%2F` and tolerate
  // a trailing slash or dot. Those only need to stay free of 5xx; everything else is private.
  const publicForm = (target: string) => {
    let p = target.split("?")[0]!;
    try {
      p = decodeURIComponent(p);
    } catch {
      // left as written
    }
    p = p.toLowerCase();
    p = p.replace(/\.data$/, "").replace(/[/.]+$/, "") || "/";
    return p;
  };
  const isPublicTarget = (target: string) => {
    const p = publicForm(target);
    return publicPages.has(p) || /^\/assets\/[^/]+\.[a-z0-9]+$/.test(p) || p === "/assets";
  };

  const leaks: string[] = [];
  let requests = 0;
  for (const route of routes) {
    for (const target of variants(route)) {
      for (const method of METHODS) {
        const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method)
          ? target.toLowerCase().includes("api")
            ? { type: "application/json", text: '{"inputItem":"Gold Ring","outputItem":"Clay","rates":"1/9","status":"disabled"}' }
            : { type: "application/x-www-form-urlencoded", text: "intent=delete-all&inputItem=Gold%20Ring" }
          : undefined;
        const res = await send(base, method, target, body);
        requests++;
        if (isPublicTarget(target) && res.status < 500) continue;
        const toLogin = (res.status === 302 || res.status === 303) && /^(\/login|\/setup)(\?|$)/.test(res.location ?? "");
        const refused = [400, 401, 404, 415].includes(res.status) || toLogin;
        if (!refused) leaks.push(`${method} ${target} → ${res.status} ${res.location ?? ""} ${res.text.slice(0, 80).replace(/\s+/g, " ")}`);
        if (res.status === 401 && target.toLowerCase().startsWith("/api")) {
          // Nothing but the refusal itself in the body.
          if (!/Authentication required|^$/.test(res.text)) leaks.push(`${method} ${target} → 401 with body ${res.text.slice(0, 80)}`);
        }
      }
    }
  }
  expect(leaks).toEqual([]);
  const after = await state(operator);
  expect({ ...after, logs: undefined, seenFrom: undefined }).toEqual({ ...before, logs: undefined, seenFrom: undefined });
  // No entry that was there has gone (of those still within the list's reach); new ones are listed with their words.
  const gone = [...before.logs].filter(([id, l]) => l.at > after.seenFrom && !after.logs.has(id)).map(([, l]) => l.text);
  expect(gone).toEqual([]);
  const written = [...after.logs].filter(([id]) => !before.logs.has(id)).map(([, l]) => l.text);
  if (written.length) console.log(`[security] written meanwhile by the world's own work: ${written.join(" | ")}`);
  await operator.dispose();
  console.log(
    `[security] ${routes.length} routes × ${variants("/x").length} variants × ${METHODS.length} methods: ${requests} requests, nothing answered, nothing changed`,
  );
});
