import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { decode } from "turbo-stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { operators, operatorSessions } from "~/db/schema";
import { createApiToken, revokeApiToken } from "~/models/api-token.server";
import { createOperator, createSession, resetOperatorExistsCache, SESSION_REFRESH_AFTER_MS } from "~/models/operator.server";
import { eq } from "drizzle-orm";
import { createAuthGate } from "./auth-gate.server";
import { CLIENT_IP_HEADER, getOperator, sessionCookie } from "./auth.server";
import { errorBody } from "#tests/kit/api";

/**
 * Issue "Foundation" item 3: "Every page and every /api route requires a session or an API
 * token … Unauthenticated /api calls get 401 JSON; pages redirect to login and back."
 * A real Express app with the gate, on an ephemeral port, spoken to over real HTTP.
 */
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.set("trust proxy", "loopback");
  app.get("/healthz", (_req, res) => void res.send("ok"));
  app.use(createAuthGate());
  // Stands in for Remix: reports what a loader would see. The inner Request carries no
  // credentials, so an operator here can only come from the gate's context.
  app.all("*", (req, res, next) => {
    getOperator(new Request(`http://x${req.originalUrl}`))
      .then((operator) => res.json({ path: req.path, operator, ip: req.headers[CLIENT_IP_HEADER] }))
      .catch(next);
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string, init: RequestInit = {}) => fetch(base + path, { redirect: "manual", ...init });

async function sessionCookieFor(operatorId: string, now?: Date) {
  const session = await createSession(operatorId, now);
  const setCookie = await sessionCookie().serialize(session.token);
  return { session, cookie: setCookie.split(";")[0]! };
}

/** Decodes a `.data` answer the way Remix's browser client does. */
async function decodeData(res: Response): Promise<unknown> {
  const decoded = await decode(res.body!, {
    plugins: [(type: string, ...rest: unknown[]) => (type === "SingleFetchRedirect" ? { value: { singleFetchRedirect: rest[0] } } : undefined)],
  });
  await decoded.done;
  return decoded.value;
}

describe("with no operator yet", () => {
  beforeAll(async () => {
    const db = await getDb();
    await db.delete(operators);
    resetOperatorExistsCache();
  });

  it("sends pages to /setup and lets /setup through", async () => {
    const res = await get("/exchange-rates");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/setup");
    const setup = await get("/setup");
    expect(setup.status).toBe(200);
    expect(await setup.json()).toMatchObject({ path: "/setup", operator: null });
  });

  it("still answers /api with 401 JSON", async () => {
    const res = await get("/api/rates");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(errorBody("Authentication required"));
  });
});

describe("with an operator", () => {
  let op: { id: string; name: string };
  beforeAll(async () => {
    op = await createOperator("gatekeeper", "correct horse");
  });
  beforeEach(() => resetOperatorExistsCache());

  it("lets public paths through without a session", async () => {
    for (const path of ["/healthz", "/login", "/login.data", "/logout", "/favicon.ico", "/assets/entry.client-abc.js", "/__manifest"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
    }
  });

  it("redirects a page to /login and back (path and query kept)", async () => {
    const res = await get("/exchange-rates?q=gold&page=2");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fexchange-rates%3Fq%3Dgold%26page%3D2");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers a plain form POST without a session with 303 to the login", async () => {
    const res = await get("/settings", { method: "POST", body: new URLSearchParams({ intent: "x" }) });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fsettings");
  });

  it("closes /setup once an operator exists", async () => {
    const res = await get("/setup");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
  });

  it("answers /api without credentials with 401 JSON { error }", async () => {
    for (const [method, path] of [
      ["GET", "/api/rates"],
      ["POST", "/api/rates"],
      ["DELETE", "/api/logs/cleanup"],
      ["GET", "/api"],
    ] as const) {
      const res = await get(path, { method });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await res.json()).toEqual(errorBody("Authentication required"));
    }
  });

  it("answers Remix data requests with 401 that the client follows to the login (loader form)", async () => {
    const res = await get("/exchange-rates.data?_routes=routes%2F_app");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-auth-error")).toBe("Authentication required");
    expect(await decodeData(res)).toEqual({
      singleFetchRedirect: { redirect: "/login?redirectTo=%2Fexchange-rates", status: 302, revalidate: false, reload: true, replace: false },
    });
    const root = await get("/_root.data");
    expect(root.status).toBe(401);
    expect(await decodeData(root)).toMatchObject({ singleFetchRedirect: { redirect: "/login" } });
  });

  it("answers Remix action data requests with 401 in the action form", async () => {
    const res = await get("/settings.data", { method: "POST", body: new URLSearchParams({ intent: "create-token" }) });
    expect(res.status).toBe(401);
    expect(await decodeData(res)).toEqual({
      redirect: "/login?redirectTo=%2Fsettings",
      status: 302,
      revalidate: false,
      reload: true,
      replace: false,
    });
  });

  it("lets a valid session through and hands the operator to the loaders without a second lookup", async () => {
    const { cookie } = await sessionCookieFor(op.id);
    const res = await get("/exchange-rates", { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ operator: { id: op.id, name: "gatekeeper" } });
    const api = await get("/api/rates", { headers: { cookie } });
    expect(api.status).toBe(200);
  });

  it("refuses forged, tampered and revoked session cookies", async () => {
    const { session, cookie } = await sessionCookieFor(op.id);
    const [name, value] = cookie.split("=");
    const forged = `${name}=${Buffer.from(JSON.stringify(session.token)).toString("base64")}`; // unsigned
    const tampered = `${name}=${value!.slice(0, -2)}${value!.endsWith("AA") ? "BB" : "AA"}`;
    for (const c of [forged, tampered]) {
      const res = await get("/api/rates", { headers: { cookie: c } });
      expect(res.status).toBe(401);
    }
    const db = await getDb();
    await db.delete(operatorSessions).where(eq(operatorSessions.id, session.id));
    expect((await get("/api/rates", { headers: { cookie } })).status).toBe(401);
  });

  it("re-sends the cookie when it pushes a day-old session's expiry ahead", async () => {
    const { cookie } = await sessionCookieFor(op.id, new Date(Date.now() - SESSION_REFRESH_AFTER_MS - 60_000));
    const res = await get("/exchange-rates", { headers: { cookie } });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toContain("gt_session=");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=2592000/);
    // Fresh session: nothing to re-send.
    const fresh = await sessionCookieFor(op.id);
    expect((await get("/exchange-rates", { headers: { cookie: fresh.cookie } })).headers.get("set-cookie")).toBeNull();
  });

  it("accepts a bearer token, and refuses it from the moment it is revoked", async () => {
    const { token, row } = await createApiToken(op.id, "gate test");
    const ok = await get("/api/rates", { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ operator: { name: "gatekeeper" } });
    await revokeApiToken(op.id, row.id);
    const res = await get("/api/rates", { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(errorBody("Authentication required"));
  });

  it("judges a request by its Authorization header alone when it sends one", async () => {
    const { cookie } = await sessionCookieFor(op.id);
    for (const authorization of ["Bearer gtk_wrong", "Basic Zm9vOmJhcg==", "Bearer"]) {
      const res = await get("/api/rates", { headers: { cookie, authorization } });
      expect(res.status, authorization).toBe(401);
    }
  });

  it("tells the routes the client IP, ignoring a client-sent value, honouring a loopback proxy", async () => {
    const res = await get("/login", { headers: { [CLIENT_IP_HEADER]: "6.6.6.6" } });
    expect((await res.json()).ip).toMatch(/127\.0\.0\.1/);
    const proxied = await get("/login", { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect((await proxied.json()).ip).toBe("203.0.113.9");
  });
});

/**
 * Issue 21: roles in the gate (every present and future route), the public writes' CSRF
 * check, body limits per route, and the queue board's own API.
 */
describe("roles, public writes, body limits", () => {
  let viewer: { cookie: string };
  let operator: { cookie: string };
  let admin: { cookie: string };
  let readOnly: string;
  beforeAll(async () => {
    const db = await getDb();
    const [first] = await db.select().from(operators).orderBy(operators.createdAt).limit(1);
    admin = await sessionCookieFor(first!.id);
    const o = await createOperator("gate-operator", "correct horse", { role: "operator" });
    operator = await sessionCookieFor(o.id);
    viewer = await sessionCookieFor((await createOperator("gate-viewer", "correct horse", { role: "viewer" })).id);
    readOnly = (await createApiToken(o.id, "ro", { readOnly: true })).token;
  });
  const form = (cookie: string, extra: Record<string, string> = {}) => ({
    method: "POST",
    headers: { cookie, origin: base, "content-type": "application/x-www-form-urlencoded", ...extra },
    body: "intent=add-category&value=x",
  });

  it("a viewer's /api write: 403 {error, message}; reads pass", async () => {
    const res = await get("/api/categories", {
      method: "POST",
      headers: { cookie: viewer.cookie, origin: base, "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.error).toMatch(/Viewers/);
    expect(body.message).toBe(body.error);
    expect((await get("/api/categories", { headers: { cookie: viewer.cookie } })).status).toBe(200);
  });

  it("a read-only token's write: 403; its reads pass", async () => {
    const res = await get("/api/categories", { method: "DELETE", headers: { authorization: `Bearer ${readOnly}` } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(errorBody("This API token is read-only"));
    expect((await get("/api/categories", { headers: { authorization: `Bearer ${readOnly}` } })).status).toBe(200);
  });

  it("a viewer's plain form post: a 403 page with the reason and a way back (no JavaScript); a script gets {error, message}", async () => {
    const script = await get("/characters", form(viewer.cookie));
    expect(script.status).toBe(403);
    expect((await script.json()).error).toMatch(/Viewers/);
    const res = await get(
      "/characters",
      form(viewer.cookie, { referer: `${base}/characters?dialog=category`, accept: "text/html,application/xhtml+xml,*/*;q=0.8" }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("Viewers can look but not change anything");
    expect(html).toContain('href="/characters?dialog=category"');
    expect(html).not.toMatch(/<script/i);
  });

  it("a viewer's fetcher post (.data): 403 carrying 'back to the page' and a flash toast with the reason", async () => {
    const res = await get("/characters.data", form(viewer.cookie, { referer: `${base}/characters` }));
    expect(res.status).toBe(403);
    expect(await decodeData(res)).toEqual({ redirect: "/characters", status: 302, revalidate: true, reload: false, replace: false });
    expect(res.headers.get("set-cookie")).toMatch(/toast-session=/);
  });

  it("lets a viewer make their personal writes: password, tokens, theme, logout", async () => {
    for (const path of ["/settings", "/resources/theme", "/logout"]) {
      const res = await get(path, form(viewer.cookie));
      expect(res.status, path).toBe(200); // the stand-in for Remix answered
    }
  });

  it("operators write; the queue board's writes are for admins only, with JSON or no body", async () => {
    expect((await get("/characters", form(operator.cookie))).status).toBe(200);
    const board = (cookie: string) =>
      get("/admin/queues/api/queues/system/add", {
        method: "POST",
        headers: { cookie, origin: base, "content-type": "application/json" },
        body: JSON.stringify({ name: "probe", data: {} }),
      });
    const refused = await board(operator.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual(errorBody("Only admins can do this"));
    expect((await board(admin.cookie)).status).toBe(200);
    const retry = await get("/admin/queues/api/queues/system/retry/failed", { method: "PUT", headers: { cookie: admin.cookie, origin: base } });
    expect(retry.status).toBe(200);
    // Reading the board is for everyone logged in.
    expect((await get("/admin/queues/api/queues", { headers: { cookie: viewer.cookie } })).status).toBe(200);
  });

  it("/logout and /login refuse cross-site posts: a foreign Origin, and for logout no Origin at all", async () => {
    const hostile = await get("/logout", form(operator.cookie, { origin: "https://evil.example" }));
    expect(hostile.status).toBe(403);
    const bare = await get("/logout", { method: "POST", headers: { cookie: operator.cookie, "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(bare.status).toBe(403);
    const crossSite = await get("/login", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      body: "name=a&password=b",
    });
    expect(crossSite.status).toBe(403);
    const evilLogin = await get("/login", {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(evilLogin.status).toBe(403);
    // Our own pages (and scripts that log in without an Origin) pass.
    expect((await get("/logout", form(operator.cookie))).status).toBe(200);
    expect((await get("/login", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "name=a&password=b" })).status).toBe(
      200,
    );
  });

  it("refuses a body larger than the route takes before reading it: 413", async () => {
    const big = JSON.stringify({ value: "x".repeat(70 * 1024) });
    const res = await get("/api/categories", {
      method: "POST",
      headers: { cookie: operator.cookie, origin: base, "content-type": "application/json" },
      body: big,
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/too large/);
    // The rates import takes up to 2 MB.
    const batch = await get("/api/rates/batch", {
      method: "POST",
      headers: { cookie: operator.cookie, origin: base, "content-type": "application/json" },
      body: big,
    });
    expect(batch.status).toBe(200);
  });
});
