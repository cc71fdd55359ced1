import { WebSocketServer } from "ws";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES, DEFAULT_CATEGORIES } from "#api/accounts";
import { startSimulator, type Simulator } from "#sim/server";
import { apiArgs, errorBody } from "#tests/kit/api";
import { getDb } from "~/db/client.server";
import { categories, characterDetails, sessions, users } from "~/db/schema";
import { GALAXY_MESSAGES } from "~/galaxy/messages";
import { getUserAgent, resetUserAgentMemory } from "~/models/user-agent.server";
import { createUserFromRecoveryCode } from "~/platform/create-creds.server";
import { getUserCredentials, upsertUser } from "~/models/user.server";
import { resetEnv } from "~/utils/env.server";
import { action as categoriesAction, loader as categoriesLoader } from "./api.categories";
import { action as categoryAction } from "./api.categories.$id";
import { action as createCredsAction } from "./api.create-creds";
import { action as usersAction, loader as usersLoader } from "./api.users";
import { action as userAction } from "./api.users.$id";

/**
 * Spec 2 §7 "Characters" (GET /api/users, DELETE /api/users/{id}, GET/POST /api/categories,
 * DELETE /api/categories/{id}, POST /api/create-creds) end to end against PostgreSQL and the
 * simulator's socket; error bodies carry the spec 2 §8 texts as `{error, message}`.
 */

type Fn = (args: { request: Request; params: Record<string, string | undefined>; context: object }) => Promise<Response> | Response;
let sim: Simulator;

async function call(fn: Fn, method: string, path: string, body?: unknown, params: Record<string, string> = {}) {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const res = await fn(await apiArgs(new Request(`http://localhost${path}`, init), params));
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function snapshot() {
  const db = await getDb();
  const [u, c, d] = await Promise.all([db.select().from(users), db.select().from(categories), db.select().from(characterDetails)]);
  const sort = (rows: object[]) => rows.map((r) => JSON.stringify(r)).sort();
  return { users: sort(u), categories: sort(c), details: sort(d) };
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_WS_URL = sim.wsUrl;
  resetEnv();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  sim.world.reset();
  const db = await getDb();
  await db.delete(characterDetails);
  await db.delete(users);
});

const secretFields = ["password", "recoveryCode", "rc", "sek", "iHeaders"];

describe("GET /api/users (spec 2 §7 Characters)", () => {
  it("lists users without passwords, recovery codes, sek or iHeaders", async () => {
    await upsertUser({
      accountId: "1001",
      nick: "Bravo",
      password: "p".repeat(32),
      type: "stalker",
      sek: "sek-secret",
      iHeaders: '{"X-Galaxy-Platform":"android"}',
    });
    await upsertUser({ accountId: "1002", nick: "alpha", password: "q".repeat(32), type: null });
    const { status, json } = await call(usersLoader as Fn, "GET", "/api/users");
    expect(status).toBe(200);
    const list = json.users as Array<Record<string, unknown>>;
    expect(list.map((u) => [u.account_id, u.nick, u.type, u.device])).toEqual([
      ["1002", "alpha", null, "web"],
      ["1001", "Bravo", "stalker", "android"],
    ]);
    for (const u of list) for (const f of secretFields) expect(u).not.toHaveProperty(f);
    expect(JSON.stringify(json)).not.toMatch(/sek-secret|pppp|qqqq/);
  });

  it("answers 405 to other methods", async () => {
    expect((await call(usersAction as Fn, "POST", "/api/users", {})).status).toBe(405);
  });
});

describe("DELETE /api/users/{id} (spec 2 §7; §8 'User deleted successfully')", () => {
  it("deletes by account id and by _id, with its character_details row", async () => {
    const a = await upsertUser({ accountId: "2001", nick: "A", password: "x", type: "trading" });
    await upsertUser({ accountId: "2002", nick: "B", password: "x", type: "trading" });
    const db = await getDb();
    await db.insert(characterDetails).values([{ accountId: "2001", picUrl: "http://p/1" }, { accountId: "2002" }]);

    const byUuid = await call(userAction as Fn, "DELETE", `/api/users/${a._id}`, undefined, { id: a._id });
    expect(byUuid).toEqual({ status: 200, json: { success: true, message: ACCOUNT_MESSAGES.userDeleted, user: a } });
    const byAccount = await call(userAction as Fn, "DELETE", "/api/users/2002", undefined, { id: "2002" });
    expect(byAccount.status).toBe(200);
    expect(await db.select().from(users)).toEqual([]);
    expect(await db.select().from(characterDetails)).toEqual([]);
  });

  it("deleting a stalker user removes its stalker session (and tells a running one to stop)", async () => {
    await upsertUser({ accountId: "2004", nick: "S", password: "x", type: "stalker" });
    const db = await getDb();
    await db.insert(sessions).values({ purpose: "stalker", key: "2004", accountId: "2004", desired: "run", actual: "active" });
    expect((await call(userAction as Fn, "DELETE", "/api/users/2004", undefined, { id: "2004" })).status).toBe(200);
    expect(await db.select().from(sessions)).toEqual([]);
  });

  it.each(["9999", "00000000-0000-4000-8000-000000000000", "not-an-id", "' or 1=1 --"])("404 'User not found' for %j, nothing changed", async (id) => {
    await upsertUser({ accountId: "2003", nick: "C", password: "x" });
    const before = await snapshot();
    expect(await call(userAction as Fn, "DELETE", `/api/users/x`, undefined, { id })).toEqual({ status: 404, json: errorBody(ACCOUNT_ERRORS.userNotFound) });
    expect(await snapshot()).toEqual(before);
  });

  it("405 for GET/POST", async () => {
    expect((await call(userAction as Fn, "POST", "/api/users/1", {}, { id: "1" })).status).toBe(405);
  });
});

describe("GET/POST /api/categories, DELETE /api/categories/{id} (spec 2 §7; §8 texts)", () => {
  it("a fresh database offers the five default categories", async () => {
    const { status, json } = await call(categoriesLoader as Fn, "GET", "/api/categories");
    expect(status).toBe(200);
    const values = (json.categories as Array<{ value: string }>).map((c) => c.value);
    for (const v of DEFAULT_CATEGORIES) expect(values).toContain(v);
  });

  it("creates a trimmed category, refuses duplicates in any case (409) and blanks (400)", async () => {
    const created = await call(categoriesAction as Fn, "POST", "/api/categories", { value: "  Farmers  " });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ message: ACCOUNT_MESSAGES.categoryCreated, category: { value: "Farmers" } });
    const before = await snapshot();
    expect(await call(categoriesAction as Fn, "POST", "/api/categories", { value: "farmers" })).toEqual({
      status: 409,
      json: errorBody(ACCOUNT_ERRORS.categoryExists),
    });
    expect(await call(categoriesAction as Fn, "POST", "/api/categories", { value: "   " })).toEqual({
      status: 400,
      json: errorBody(ACCOUNT_ERRORS.categoryRequired),
    });
    expect(await call(categoriesAction as Fn, "POST", "/api/categories", { value: "x".repeat(41) })).toEqual({
      status: 400,
      json: errorBody(ACCOUNT_ERRORS.categoryTooLong),
    });
    expect(await snapshot()).toEqual(before);

    const id = (created.json.category as { _id: string })._id;
    expect(await call(categoryAction as Fn, "DELETE", `/api/categories/${id}`, undefined, { id })).toEqual({
      status: 200,
      json: { success: true, message: ACCOUNT_MESSAGES.categoryDeleted, category: { _id: id, value: "Farmers" } },
    });
    expect(await call(categoryAction as Fn, "DELETE", `/api/categories/${id}`, undefined, { id })).toEqual({
      status: 404,
      json: errorBody(ACCOUNT_ERRORS.categoryNotFound),
    });
    expect((await call(categoryAction as Fn, "DELETE", "/api/categories/zzz", undefined, { id: "zzz" })).status).toBe(404);
  });

  it.each([
    ["malformed JSON", "{value:"],
    ["wrong type", { value: 42 }],
    ["missing field", {}],
    ["array body", ["stalker"]],
    ["oversized", { value: "x".repeat(3 * 1024 * 1024) }],
  ])("bad input (%s) → 4xx {error, message}, nothing changed", async (_name, body) => {
    const before = await snapshot();
    const { status, json } = await call(categoriesAction as Fn, "POST", "/api/categories", body);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(typeof json.error).toBe("string");
    expect(json.message).toBe(json.error);
    expect(await snapshot()).toEqual(before);
  });
});

describe("POST /api/create-creds {rc, type} (spec 2 §7; RECOVER → REGISTER → QUIT :ds)", () => {
  it("signs in with the recovery code, stores the user encrypted, registers its user-agent, logs out", async () => {
    const acc = sim.world.accounts[0]!;
    resetUserAgentMemory();
    const { status, json } = await call(createCredsAction as Fn, "POST", "/api/create-creds", { rc: acc.recoveryCode, type: "bowling" });
    expect(status).toBe(200);
    expect(json).toMatchObject({ message: ACCOUNT_MESSAGES.userCreated, user: { account_id: acc.id, nick: acc.nick, type: "bowling", device: "web" } });
    expect(JSON.stringify(json)).not.toContain(acc.password);
    const db = await getDb();
    const [row] = await db.select().from(users);
    expect(row!.password).not.toContain(acc.password); // encrypted at rest
    expect(row!.recoveryCode).toBeNull(); // decision: the code is not stored (docs/accounts.md)
    expect((await getUserCredentials(acc.id))!.password).toBe(acc.password);
    expect(await getUserAgent(acc.id)).not.toBeNull();
    // logged out again (QUIT :ds): no open session of that account
    const res = await fetch(`${sim.url}/__sim/whereis/${acc.id}`);
    expect(((await res.json()) as { online: boolean }).online).toBe(false);
  });

  it("a second create of the same account updates it (type and password) instead of adding a row", async () => {
    const acc = sim.world.accounts[1]!;
    await upsertUser({ accountId: acc.id, nick: "old", password: "stale", type: "trading" });
    const { status } = await call(createCredsAction as Fn, "POST", "/api/create-creds", { rc: acc.recoveryCode, type: "stalker" });
    expect(status).toBe(200);
    const creds = await getUserCredentials(acc.id);
    expect(creds).toMatchObject({ nick: acc.nick, password: acc.password, type: "stalker" });
    expect((await (await getDb()).select().from(users)).length).toBe(1);
  });

  it("a wrong code (451) → 400 'Login failed: Invalid credentials', nothing stored", async () => {
    const before = await snapshot();
    const { status, json } = await call(createCredsAction as Fn, "POST", "/api/create-creds", { rc: "ZZZZZZZZZZ", type: "bowling" });
    expect({ status, json }).toEqual({ status: 400, json: errorBody(GALAXY_MESSAGES.invalidCredentials) });
    expect(await snapshot()).toEqual(before);
  });

  it("a platform refusal (452) → 403 with its text, nothing stored", async () => {
    const acc = sim.world.accounts[2]!;
    sim.world.faults.loginCode = 452;
    const before = await snapshot();
    const { status, json } = await call(createCredsAction as Fn, "POST", "/api/create-creds", { rc: acc.recoveryCode, type: "bowling" });
    expect({ status, json }).toEqual({ status: 403, json: errorBody(GALAXY_MESSAGES.onlineOrBanned) });
    expect(await snapshot()).toEqual(before);
  });

  it("a server that never answers → 504 with the connection-failure text; unreachable → 502; nothing stored", async () => {
    const silent = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((r) => silent.once("listening", r));
    const port = (silent.address() as { port: number }).port;
    const before = await snapshot();
    process.env.GALAXY_WS_URL = `ws://127.0.0.1:${port}/`;
    resetEnv();
    try {
      const rc = sim.world.accounts[3]!.recoveryCode;
      await expect(createUserFromRecoveryCode({ rc, type: "bowling" }, { loginTimeoutMs: 300, retries: 0 })).rejects.toMatchObject({
        status: 504,
        message: GALAXY_MESSAGES.connectionFailed,
      });
      await new Promise<void>((r) => silent.close(() => r()));
      await expect(createUserFromRecoveryCode({ rc, type: "bowling" }, { connectTimeoutMs: 500, retries: 0 })).rejects.toMatchObject({
        status: 502,
        message: GALAXY_MESSAGES.connectionFailed,
      });
    } finally {
      process.env.GALAXY_WS_URL = sim.wsUrl;
      resetEnv();
      silent.close();
    }
    expect(await snapshot()).toEqual(before);
  });

  it("names what is wrong with the exact texts of api/accounts.ts", async () => {
    const post = (body: unknown) => call(createCredsAction as Fn, "POST", "/api/create-creds", body);
    expect(await post({ type: "bowling" })).toEqual({ status: 400, json: errorBody(ACCOUNT_ERRORS.rcRequired) });
    expect(await post({ rc: "ab", type: "bowling" })).toEqual({ status: 400, json: errorBody(ACCOUNT_ERRORS.rcFormat) });
    expect(await post({ rc: "ABCDEFGHIJ" })).toEqual({ status: 400, json: errorBody(ACCOUNT_ERRORS.typeRequired) });
  });

  it.each([
    ["malformed JSON", "{rc:", 400],
    ["missing rc", { type: "bowling" }, 400],
    ["rc of wrong type", { rc: 1234567890, type: "bowling" }, 400],
    ["rc with symbols", { rc: "abc$%^&*()", type: "bowling" }, 400],
    ["blank type", { rc: "ABCDEFGHIJ", type: "  " }, 400],
    ["oversized", { rc: "A".repeat(3 * 1024 * 1024), type: "x" }, 413],
  ])("bad input (%s) → 4xx {error, message}, nothing changed, no login attempted", async (_n, body, expected) => {
    const before = await snapshot();
    const { status, json } = await call(createCredsAction as Fn, "POST", "/api/create-creds", body);
    expect(status).toBe(expected);
    expect(json.message).toBe(json.error);
    expect(await snapshot()).toEqual(before);
  });
});
