/**
 * Issue 28 items 1, 3 (part) and 4, the standing write-rule suite (docs/decisions/0024):
 *
 * 1. Every route with an action (the Remix route table) and every intent of every page action
 *    (read from the route modules, route-walk.ts), and every write of the queue board
 *    (bull-board's own route table), with an admin's read-only token, a viewer's cookie
 *    session and a viewer's token: each write is a 403, nothing changes in any table or in
 *    Redis. A viewer's cookie keeps its personal writes (own tokens, password, theme, logout),
 *    and those are proved open, not skipped.
 * 2. Two layers ask the one rule: the walk runs over real HTTP through the Express gate, and
 *    again against the Remix handler alone (the route guard, and apiRoute for /api).
 * 3. Each refusal in the script form (no `Accept: text/html`: JSON `{ error, message }`, 4xx)
 *    and the browser forms (a no-JS form: an HTML page that says the reason; a page fetch:
 *    a 403 that carries the reason and the toast), never "Unexpected Server Error".
 * 4. The escalation stays closed: a read-only token cannot mint or revoke a token on /settings.
 * 5. A write the gate refuses closes its connection (a raw socket trickling a body).
 * 6. No route answers 200 with an error body.
 */
import type { AddressInfo } from "node:net";
import net from "node:net";
import type { Server } from "node:http";
import crypto from "node:crypto";
import { createRequestHandler } from "@remix-run/express";
import { createRequestHandler as createFetchHandler } from "@remix-run/node";
import express from "express";
import { Redis } from "ioredis";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getQueue, QUEUE_NAMES } from "~/queue/queues.server";
import { mountQueueBoard } from "#jobs/runtime.server";
import { createTestApiToken, createTestOperator, makeRequest, toastOf, type TestOperator } from "#tests/kit";
import { remixBuild } from "#tests/kit/remix";
import { getDb } from "~/db/client.server";
import * as entry from "~/entry.server";
import { createApiToken, listApiTokens } from "~/models/api-token.server";
import { writeRuleFor } from "~/http/access.server";
import { createAuthGate } from "~/http/auth-gate.server";
import { getEnv } from "~/utils/env.server";
import { ADMIN_ONLY, READ_ONLY_TOKEN_REFUSAL, VIEWER_REFUSAL } from "~/utils/roles";
import { concrete, queueBoardWrites, walkRoutes, type WalkedRoute } from "./route-walk";

let server: Server;
let base: string;
let origin: string;
let guardOnly: (request: Request) => Promise<Response>;
let routes: WalkedRoute[] = [];
let unreadable: string[] = [];
let admin: TestOperator;
let viewer: TestOperator;
let operatorRole: TestOperator;
let adminReadOnly: string;
let adminFull: string;
let viewerToken: string;
let operatorToken: string;

const BOARD = "/admin/queues";

beforeAll(async () => {
  ({ routes, unreadable } = await walkRoutes());
  const build = await remixBuild(() => true, { entry: entry as never });
  guardOnly = createFetchHandler(build, "production");
  const app = express();
  app.set("trust proxy", "loopback");
  app.use(createAuthGate());
  await mountQueueBoard(app, BOARD);
  app.all("*", createRequestHandler({ build, mode: "production" }));
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin = base;
  admin = await createTestOperator({ name: "chief" });
  viewer = await createTestOperator({ name: "watcher", role: "viewer" });
  operatorRole = await createTestOperator({ name: "worker", role: "operator" });
  adminReadOnly = await createTestApiToken(admin.id, "read-only dashboard", { readOnly: true });
  adminFull = await createTestApiToken(admin.id, "admin script");
  // A viewer's token that is not flagged read-only (as tokens made before issue 28 may be).
  viewerToken = await createTestApiToken(viewer.id, "viewer script");
  operatorToken = await createTestApiToken(operatorRole.id, "operator script");
  // Something on the board a write could change: a delayed job in every queue.
  for (const name of QUEUE_NAMES) await getQueue(name).add("probe" as never, { kind: "probe" } as never, { delay: 3_600_000, jobId: `walk-${name}` });
}, 120_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Every table's rows, hashed, except System Logs (a refusal may be logged) and the columns a read touches (tokens' and sessions' last use). */
async function snapshot(): Promise<Record<string, string>> {
  const db = await getDb();
  const tables = (await db.execute(sql`select tablename from pg_tables where schemaname = 'public' and tablename <> 'logs' order by 1`)) as unknown as {
    rows: { tablename: string }[];
  };
  const out: Record<string, string> = {};
  for (const { tablename } of tables.rows) {
    const select =
      tablename === "api_tokens"
        ? `select id, operator_id, name, read_only from "api_tokens"`
        : tablename === "operator_sessions"
          ? `select id, operator_id from "operator_sessions"`
          : `select * from "${tablename}"`;
    const res = (await db.execute(
      sql.raw(`select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from (${select}) t`),
    )) as unknown as {
      rows: { n: number; h: string }[];
    };
    out[tablename] = `${res.rows[0]!.n}:${res.rows[0]!.h}`;
  }
  return out;
}

/** Every Redis key of this test's prefix and its value (DUMP), hashed. */
async function redisSnapshot(): Promise<Record<string, string>> {
  const redis = new Redis(getEnv().REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const out: Record<string, string> = {};
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${getEnv().QUEUE_PREFIX}:*`, "COUNT", 1000);
      cursor = next;
      for (const key of keys) {
        // Rate-limiter and heartbeat keys expire on their own; the queues' keys are what a board write changes.
        if (/:(login-limit|failed-logins|heartbeat|workers?|live|events?)[:]/.test(key)) continue;
        const dumped = await redis.dumpBuffer(key);
        out[key] = dumped ? crypto.createHash("md5").update(dumped).digest("hex") : "gone";
      }
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return out;
}

type Who = { label: string; cookie?: string; token?: string; text: string };
const WHO = (): Who[] => [
  { label: "admin's read-only token", token: adminReadOnly, text: READ_ONLY_TOKEN_REFUSAL },
  { label: "viewer's cookie session", cookie: viewer.cookie, text: VIEWER_REFUSAL },
  { label: "viewer's token", token: viewerToken, text: VIEWER_REFUSAL },
];

type Write = { method: string; path: string; intent?: string; json: boolean; route: string };

/** Every write of every route: each method of each action, each intent of each page action (and none), each write of the board. */
async function allWrites(): Promise<Write[]> {
  const out: Write[] = [];
  for (const r of routes.filter((x) => x.hasAction)) {
    const url = concrete(r.path);
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) out.push({ method, path: url, json: r.api, route: r.file });
    for (const intent of r.intents) out.push({ method: "POST", path: url, intent, json: false, route: r.file });
  }
  for (const w of await queueBoardWrites(BOARD, QUEUE_NAMES[0])) out.push({ ...w, json: true, route: "bull-board" });
  return out;
}

/** A write the viewer's own cookie session may make (their tokens, password, theme, logout, login). */
const personal = (w: Write) => !w.json && writeRuleFor(w.path, w.intent) === "personal";

function headersFor(who: Pick<Who, "cookie" | "token">, extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = { ...extra };
  if (who.cookie) {
    h.Cookie = who.cookie;
    h.Origin = origin;
    h["Sec-Fetch-Site"] = "same-origin";
  }
  if (who.token) h.Authorization = `Bearer ${who.token}`;
  return h;
}

function bodyFor(w: Write): { body: string; type: string } {
  if (w.json) return { body: JSON.stringify({ name: "x", userID: "12345678", password: "p", data: {} }), type: "application/json" };
  const form = new URLSearchParams({ name: "x", value: "x", theme: "light", tokenId: crypto.randomUUID() });
  if (w.intent) form.set("intent", w.intent);
  return { body: form.toString(), type: "application/x-www-form-urlencoded" };
}

const http = (path: string, init: RequestInit) => fetch(base + path, { redirect: "manual", ...init });

describe("the routes, intents and board writes are found", () => {
  it("every action's intents could be read, and the walk is not empty", async () => {
    expect(unreadable).toEqual([]);
    const withActions = routes.filter((r) => r.hasAction);
    expect(withActions.length).toBeGreaterThanOrEqual(40);
    const settings = routes.find((r) => r.path === "/settings")!;
    expect(settings.intents).toEqual(expect.arrayContaining(["create-token", "revoke-token", "change-password", "create-operator"]));
    expect((await queueBoardWrites(BOARD, "system")).map((w) => `${w.method} ${w.path}`)).toEqual(
      expect.arrayContaining(["PUT /admin/queues/api/queues/pause", "POST /admin/queues/api/queues/system/add"]),
    );
  });
});

describe("a read-only token, a viewer's session and a viewer's token write nothing, anywhere", () => {
  it("over HTTP (the gate): every write is a 403 {error, message} for a script; nothing changes in PostgreSQL or Redis", { timeout: 600_000 }, async () => {
    const writes = await allWrites();
    const before = await snapshot();
    const redisBefore = await redisSnapshot();
    const failures: string[] = [];
    let checked = 0;
    for (const w of writes) {
      for (const who of WHO()) {
        if (who.cookie && personal(w)) continue; // proved open below
        const { body, type } = bodyFor(w);
        const res = await http(w.path, { method: w.method, body, headers: headersFor(who, { "Content-Type": type, Accept: "application/json" }) });
        checked++;
        const text = await res.text();
        const where = `${w.method} ${w.path}${w.intent ? ` intent=${w.intent}` : ""} (${who.label})`;
        if (res.status !== 403) {
          failures.push(`${where}: ${res.status} ${text.slice(0, 100)}`);
          continue;
        }
        let parsed: { error?: string; message?: string } = {};
        try {
          parsed = JSON.parse(text) as typeof parsed;
        } catch {
          failures.push(`${where}: not JSON: ${text.slice(0, 80)}`);
          continue;
        }
        if (!parsed.error || parsed.message !== parsed.error) failures.push(`${where}: body ${text.slice(0, 100)}`);
        else if (parsed.error !== who.text && parsed.error !== ADMIN_ONLY) failures.push(`${where}: says "${parsed.error}"`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(600);
    expect(await snapshot()).toEqual(before);
    expect(await redisSnapshot()).toEqual(redisBefore);
  });

  it(
    "without the gate (the route guard and apiRoute): every write of every route and intent is a 403 {error, message}; nothing changes",
    { timeout: 600_000 },
    async () => {
      const writes = (await allWrites()).filter((w) => w.route !== "bull-board");
      const before = await snapshot();
      const failures: string[] = [];
      for (const w of writes) {
        for (const who of WHO()) {
          if (who.cookie && personal(w)) continue;
          const { body, type } = bodyFor(w);
          // A script: JSON back from pages too (app/entry.server.tsx); a page fetch (.data) for the pages.
          for (const path of w.json ? [w.path] : [w.path, `${w.path}.data`]) {
            const headers = {
              ...headersFor(who, { "Content-Type": type }),
              ...(who.cookie ? { Origin: "http://localhost", "X-Forwarded-Host": "localhost" } : {}),
            };
            const res = await guardOnly(new Request(`http://localhost${path}`, { method: w.method, body, headers }));
            const where = `${w.method} ${path}${w.intent ? ` intent=${w.intent}` : ""} (${who.label})`;
            if (res.status !== 403) {
              failures.push(`${where}: ${res.status} ${(await res.text()).slice(0, 100)}`);
              continue;
            }
            const text = await res.text();
            if (/Unexpected Server Error/i.test(text)) failures.push(`${where}: says "Unexpected Server Error"`);
            if (path.endsWith(".data")) {
              if (!text.includes(who.text) && !text.includes(ADMIN_ONLY)) failures.push(`${where}: the reason is missing: ${text.slice(0, 100)}`);
              continue;
            }
            const parsed = JSON.parse(text) as { error?: string; message?: string };
            if (!parsed.error || parsed.message !== parsed.error) failures.push(`${where}: body ${text.slice(0, 100)}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(await snapshot()).toEqual(before);
    },
  );

  it(
    "a browser gets the reason: a no-JS form an HTML page that says it, a page fetch a 403 with the toast; never 'Unexpected Server Error'",
    { timeout: 300_000 },
    async () => {
      const failures: string[] = [];
      for (const w of (await allWrites()).filter((x) => !x.json && x.method === "POST")) {
        for (const who of WHO()) {
          if (who.cookie && personal(w)) continue;
          const { body, type } = bodyFor(w);
          const where = `POST ${w.path}${w.intent ? ` intent=${w.intent}` : ""} (${who.label})`;
          const reasons = [who.text, ADMIN_ONLY];
          const page = await http(w.path, {
            method: "POST",
            body,
            headers: headersFor(who, { "Content-Type": type, Accept: "text/html,application/xhtml+xml" }),
          });
          const html = await page.text();
          if (page.status === 302 || page.status === 303) {
            // The route guard's answer to a no-JS form: back to the page, the reason as the toast.
            if (!reasons.includes(toastOf(page)?.message ?? "")) failures.push(`${where} (no-JS form): redirect without the reason's toast`);
          } else if (page.status !== 403 || !/text\/html/.test(page.headers.get("content-type") ?? ""))
            failures.push(`${where} (no-JS form): ${page.status} ${html.slice(0, 80)}`);
          else if (!reasons.some((r) => html.includes(escapeHtml(r)))) failures.push(`${where} (no-JS form): the reason is missing`);
          if (/Unexpected Server Error/i.test(html)) failures.push(`${where} (no-JS form): says "Unexpected Server Error"`);
          const fetcher = await http(`${w.path}.data`, { method: "POST", body, headers: headersFor(who, { "Content-Type": type }) });
          const data = await fetcher.text();
          if (fetcher.status !== 403) failures.push(`${where} (.data): ${fetcher.status}`);
          // The gate: the reason in X-Auth-Error and a toast; the route guard: the reason in the error data.
          const reason = fetcher.headers.get("x-auth-error");
          if (reason !== null ? !reasons.includes(reason) || !toastOf(fetcher) : !reasons.some((r) => data.includes(r)))
            failures.push(`${where} (.data): the reason is missing`);
          if (/Unexpected Server Error/i.test(data)) failures.push(`${where} (.data): says "Unexpected Server Error"`);
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it("a viewer's own cookie session keeps its personal writes; a token it mints is read-only whatever the form says", async () => {
    const theme = await http("/resources/theme", {
      method: "POST",
      body: "theme=light",
      headers: headersFor(viewer, { "Content-Type": "application/x-www-form-urlencoded" }),
    });
    expect(theme.status).toBe(200);
    const made = await http("/settings", {
      method: "POST",
      body: "intent=create-token&name=viewer+dashboard",
      headers: headersFor(viewer, { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" }),
    });
    expect(made.status).toBe(302);
    const mine = (await listApiTokens(viewer.id)).find((t) => t.name === "viewer dashboard");
    expect(mine?.readOnly).toBe(true);
    const revoke = await http("/settings", {
      method: "POST",
      body: `intent=revoke-token&tokenId=${mine!.id}`,
      headers: headersFor(viewer, { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" }),
    });
    expect(revoke.status).toBe(302);
    expect((await listApiTokens(viewer.id)).some((t) => t.id === mine!.id)).toBe(false);
  });
});

describe("the escalation is closed (issue 28)", () => {
  const post = (token: string, form: Record<string, string>, path = "/settings") =>
    http(path, {
      method: "POST",
      body: new URLSearchParams(form).toString(),
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-www-form-urlencoded" },
    });

  it("a read-only token cannot mint a token or revoke one, over HTTP or past the gate; a writing admin token still can", async () => {
    const victim = await createApiToken(admin.id, "nightly import");
    const count = async () => (await listApiTokens(admin.id)).length;
    const before = await count();
    for (const path of ["/settings", "/settings.data", "/SETTINGS", "/settings/"]) {
      const mint = await post(adminReadOnly, { intent: "create-token", name: `escalated ${path}` }, path);
      expect(mint.status, path).toBe(403);
      expect(mint.headers.getSetCookie().some((c) => c.startsWith("gt_new_token="))).toBe(false);
      const revoke = await post(adminReadOnly, { intent: "revoke-token", tokenId: victim.row.id }, path);
      expect(revoke.status, path).toBe(403);
      await Promise.all([mint.arrayBuffer(), revoke.arrayBuffer()]);
    }
    const direct = await guardOnly(makeRequest("/settings", { token: adminReadOnly, form: { intent: "create-token", name: "escalated" } }));
    expect(direct.status).toBe(403);
    expect(await direct.json()).toEqual({ error: READ_ONLY_TOKEN_REFUSAL, message: READ_ONLY_TOKEN_REFUSAL });
    expect(await count()).toBe(before);
    expect((await listApiTokens(admin.id)).some((t) => t.id === victim.row.id)).toBe(true);

    // The control: the same request with a token that may write does what it says.
    const ok = await post(adminFull, { intent: "create-token", name: "made by a script" });
    expect(ok.status).toBe(302);
    expect(await count()).toBe(before + 1);
  });

  it("a viewer's token cannot mint one either; logging out needs a cookie session", async () => {
    const res = await post(viewerToken, { intent: "create-token", name: "viewer escalated" });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: VIEWER_REFUSAL, message: VIEWER_REFUSAL });
    expect((await listApiTokens(viewer.id)).some((t) => t.name === "viewer escalated")).toBe(false);
    for (const token of [adminReadOnly, adminFull]) {
      const out = await http("/logout", { method: "POST", headers: { Authorization: `Bearer ${token}`, Origin: origin } });
      expect(out.status).toBe(403);
      expect(await out.json()).toMatchObject({ error: expect.any(String) });
    }
  });

  it("a script whose admin write on /settings is refused gets {error, message}, not the 403 page", async () => {
    const res = await post(operatorToken, { intent: "create-operator", name: "sneaky", password: "long enough pass", role: "admin" });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toMatch(/json/);
    expect(await res.json()).toEqual({ error: ADMIN_ONLY, message: ADMIN_ONLY });
  });
});

describe("a refused write closes its connection (issue 28 item 3)", () => {
  /** Headers with a large declared body and a few bytes of it; resolves with what came back once the server closed. */
  function trickle(head: string[]): Promise<{ answer: string; closed: boolean }> {
    return new Promise((resolve, reject) => {
      const url = new URL(base);
      const socket = net.connect(Number(url.port), url.hostname);
      let answer = "";
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ answer, closed: false });
      }, 20_000);
      socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
      socket.on("error", () => {});
      socket.on("close", () => {
        clearTimeout(timer);
        resolve({ answer, closed: true });
      });
      socket.on("connect", () => {
        socket.write([...head, `Host: ${url.host}`, "", ""].join("\r\n"));
        socket.write('{"name":"');
      });
      socket.on("timeout", reject);
    });
  }

  it("a read-only token's write (403), a write without credentials (401), an oversized one (413): answered, Connection: close, socket closed", async () => {
    const cases = [
      { head: ["POST /api/rates HTTP/1.1", `Authorization: Bearer ${adminReadOnly}`, "Content-Type: application/json", "Content-Length: 60000"], status: 403 },
      { head: ["POST /api/rates HTTP/1.1", "Content-Type: application/json", "Content-Length: 60000"], status: 401 },
      { head: ["POST /api/rates HTTP/1.1", `Authorization: Bearer ${adminFull}`, "Content-Type: application/json", "Content-Length: 99999999"], status: 413 },
      {
        head: ["POST /settings HTTP/1.1", `Authorization: Bearer ${adminReadOnly}`, "Content-Type: application/x-www-form-urlencoded", "Content-Length: 60000"],
        status: 403,
      },
    ];
    for (const c of cases) {
      const { answer, closed } = await trickle(c.head);
      expect(answer.split("\r\n")[0], c.head[0]).toBe(`HTTP/1.1 ${c.status} ${{ 401: "Unauthorized", 403: "Forbidden", 413: "Payload Too Large" }[c.status]}`);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(closed, `${c.head[0]} → ${c.status}: the socket stayed open`).toBe(true);
    }
  });
});

describe("no 200 with an error body (issue 28 item 4)", () => {
  it(
    "every page and resource route's action, posted an unknown intent by a writing admin script, answers a 4xx {error, message}, or a redirect",
    { timeout: 120_000 },
    async () => {
      const failures: string[] = [];
      for (const r of routes.filter((x) => x.hasAction && !x.api && !["/logout", "/login", "/setup"].includes(x.path))) {
        const url = concrete(r.path);
        const res = await http(url, {
          method: "POST",
          body: "intent=__no-such-intent__&theme=sepia",
          headers: { Authorization: `Bearer ${adminFull}`, "Content-Type": "application/x-www-form-urlencoded" },
        });
        const text = await res.text();
        if (res.status === 200 && /"error"|"ok":false/.test(text)) failures.push(`POST ${url}: 200 ${text.slice(0, 100)}`);
        if (res.status >= 400 && res.status < 500) {
          const body = (() => {
            try {
              return JSON.parse(text) as { error?: string; message?: string };
            } catch {
              return null;
            }
          })();
          if (!body?.error || body.message !== body.error) failures.push(`POST ${url}: ${res.status} not {error, message}: ${text.slice(0, 100)}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );
});

const escapeHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
