import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BOWLING_ERRORS } from "#api/bowling";
import { errorBody, testApiToken } from "#tests/kit/api";
import { remixHandler } from "#tests/kit/remix";
import { getDb } from "~/db/client.server";
import { appSettings, bowlingCompanions, characterDetails, users } from "~/db/schema";
import * as companionModel from "~/models/companion.server";
import * as bowlingUserModel from "~/models/bowling-user.server";
import { upsertUser } from "~/models/user.server";

/**
 * Spec 1 §7 "Bowling users" and "Companions" through the real route table (URL ranking,
 * apiRoute, readJson) against PostgreSQL: every call, the companion rules (§3, §5), the §8
 * default texts as `{error, message}`, and bad input → 4xx with nothing changed.
 */

let handle: (request: Request) => Promise<Response>;
let token: string;

beforeAll(async () => {
  handle = await remixHandler((r) => r.file.includes("_bowling-bots+/api.bowling-users") || r.file.includes("_bowling-bots+/api.bowling-companions"));
  token = await testApiToken();
});

beforeEach(async () => {
  const db = await getDb();
  await db.delete(bowlingCompanions);
  await db.delete(characterDetails);
  await db.delete(users);
  await db.delete(appSettings);
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function call(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === "string" ? body : JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  const res = await handle(new Request(`http://localhost${path}`, { method, headers, body: payload }));
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function snapshot() {
  const db = await getDb();
  const [u, c, s, d] = await Promise.all([
    db.select().from(users),
    db.select().from(bowlingCompanions),
    db.select().from(appSettings),
    db.select().from(characterDetails),
  ]);
  const sort = (rows: object[]) => rows.map((r) => JSON.stringify(r)).sort();
  return { users: sort(u), companions: sort(c), settings: sort(s), details: sort(d) };
}

/** Bowling 101, 102; suppliers 201, 202; recipients 301, 302; a stalker 401. */
async function seed() {
  const make = (accountId: string, nick: string, type: string | null, extra: { sek?: string; iHeaders?: string } = {}) =>
    upsertUser({ accountId, nick, password: `secret-${accountId}`, type, recoveryCode: `RC${accountId}`, ...extra });
  return {
    b1: await make("101", "bravo", "bowling", { sek: "sek-secret-101" }),
    b2: await make("102", "Alpha", "bowling", { iHeaders: '{"X-Galaxy-Platform":"ios"}' }),
    s1: await make("201", "Sup One", "suppliers"),
    s2: await make("202", "Sup Two", "suppliers"),
    r1: await make("301", "Rec One", "recipients"),
    r2: await make("302", "Rec Two", "recipients"),
    st: await make("401", "Stalker", "stalker"),
  };
}

const SECRETS = /secret-|RC\d|sek-secret|X-Galaxy-Platform|password|recoveryCode|iHeaders|"sek"/;

describe("GET /api/bowling-users (spec 1 §7 'Bowling users'; §3 candidates _id, account_id, nick)", () => {
  it("lists the bowling accounts with the recipients and suppliers, by nick, never secrets", async () => {
    const { b1, b2, s1, s2, r1, r2 } = await seed();
    const { status, json } = await call("GET", "/api/bowling-users");
    expect(status).toBe(200);
    expect(json).toEqual({
      users: [
        { _id: b2._id, account_id: "102", nick: "Alpha", type: "bowling", device: "ios" },
        { _id: b1._id, account_id: "101", nick: "bravo", type: "bowling", device: "android" },
      ],
      recipients: [
        { _id: r1._id, account_id: "301", nick: "Rec One" },
        { _id: r2._id, account_id: "302", nick: "Rec Two" },
      ],
      suppliers: [
        { _id: s1._id, account_id: "201", nick: "Sup One" },
        { _id: s2._id, account_id: "202", nick: "Sup Two" },
      ],
    });
    expect(JSON.stringify(json)).not.toMatch(SECRETS);
  });

  it("answers empty lists on an empty database", async () => {
    expect(await call("GET", "/api/bowling-users")).toEqual({ status: 200, json: { users: [], recipients: [], suppliers: [] } });
  });

  it("§8: a failure answers 500 'Failed to fetch bowling users'", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(bowlingUserModel, "listBowlingUsers").mockRejectedValueOnce(new Error("db down"));
    expect(await call("GET", "/api/bowling-users")).toEqual({ status: 500, json: errorBody(BOWLING_ERRORS.fetchUsers) });
  });

  it("405 for POST", async () => {
    expect((await call("POST", "/api/bowling-users", {})).status).toBe(405);
  });
});

describe("DELETE /api/bowling-users/{id} (spec 1 §7)", () => {
  it("deletes a bowling account by account id and by _id, with its details row and its companion", async () => {
    const { b1, b2 } = await seed();
    const db = await getDb();
    await db.insert(characterDetails).values([{ accountId: "101", picUrl: "http://p/1" }, { accountId: "102" }]);
    expect((await call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "201", consumer: "301" })).status).toBe(201);

    expect(await call("DELETE", "/api/bowling-users/101")).toEqual({ status: 200, json: { success: true, user: b1 } });
    expect(await db.select().from(bowlingCompanions)).toEqual([]);
    expect(await call("DELETE", `/api/bowling-users/${b2._id}`)).toEqual({ status: 200, json: { success: true, user: b2 } });
    expect((await db.select().from(users)).map((u) => u.accountId).sort()).toEqual(["201", "202", "301", "302", "401"]);
    expect(await db.select().from(characterDetails)).toEqual([]);
  });

  it.each(["999", "201", "301", "401", "00000000-0000-4000-8000-000000000000", "not-an-id", "x".repeat(3000)])(
    "404 'Bowling user not found' for %j (unknown, or not a bowling account), nothing changed",
    async (id) => {
      await seed();
      const before = await snapshot();
      expect(await call("DELETE", `/api/bowling-users/${encodeURIComponent(id)}`)).toEqual({
        status: 404,
        json: errorBody(BOWLING_ERRORS.bowlingUserNotFound),
      });
      expect(await snapshot()).toEqual(before);
    },
  );

  it("§8: a failure answers 500 'Failed to delete bowling user'", async () => {
    await seed();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(bowlingUserModel, "removeBowlingUser").mockRejectedValueOnce(new Error("db down"));
    expect(await call("DELETE", "/api/bowling-users/101")).toEqual({ status: 500, json: errorBody(BOWLING_ERRORS.deleteUser) });
  });

  it("405 for GET and POST", async () => {
    expect((await call("GET", "/api/bowling-users/101")).status).toBe(405);
    expect((await call("POST", "/api/bowling-users/101", {})).status).toBe(405);
  });
});

describe("GET|POST /api/bowling-users/last-fetched (spec 1 §3 'Last-fetched: a timestamp (ISO)', §7)", () => {
  it("is null until set; POST stores it as UTC ISO and GET answers it", async () => {
    expect(await call("GET", "/api/bowling-users/last-fetched")).toEqual({ status: 200, json: { lastFetched: null } });
    expect(await call("POST", "/api/bowling-users/last-fetched", { timestamp: "2026-11-23T15:00:00.123Z" })).toEqual({
      status: 200,
      json: { lastFetched: "2026-11-23T15:00:00.123Z" },
    });
    expect(await call("POST", "/api/bowling-users/last-fetched", { timestamp: "2026-11-23T17:30:00+02:00" })).toEqual({
      status: 200,
      json: { lastFetched: "2026-11-23T15:30:00.000Z" },
    });
    expect(await call("GET", "/api/bowling-users/last-fetched")).toEqual({ status: 200, json: { lastFetched: "2026-11-23T15:30:00.000Z" } });
  });

  it.each<[string, unknown]>([
    ["no timestamp", {}],
    ["a number", { timestamp: 1700000000000 }],
    ["not a date", { timestamp: "yesterday" }],
    ["a date without a time", { timestamp: "2026-11-23" }],
    ["no zone", { timestamp: "2026-11-23T15:00:00" }],
    ["an impossible day", { timestamp: "2026-02-30T15:00:00Z" }],
    ["year 1999", { timestamp: "1999-12-31T23:59:59Z" }],
    ["an oversized string", { timestamp: "2026-11-23T15:00:00Z" + " ".repeat(100) }],
    ["null body", "null"],
    ["malformed JSON", '{"timestamp": "2026-'],
    ["an array", [{ timestamp: "2026-11-23T15:00:00Z" }]],
  ])("400 for %s, nothing stored", async (_label, body) => {
    await call("POST", "/api/bowling-users/last-fetched", { timestamp: "2026-11-01T00:00:00Z" });
    const before = await snapshot();
    const { status, json } = await call("POST", "/api/bowling-users/last-fetched", body);
    expect(status).toBe(400);
    expect(json.error).toBe(json.message);
    expect(typeof json.error).toBe("string");
    expect(await snapshot()).toEqual(before);
    expect((await call("GET", "/api/bowling-users/last-fetched")).json).toEqual({ lastFetched: "2026-11-01T00:00:00.000Z" });
  });

  it("400 carries our text for a bad timestamp", async () => {
    expect(await call("POST", "/api/bowling-users/last-fetched", { timestamp: "soon" })).toEqual({
      status: 400,
      json: errorBody(BOWLING_ERRORS.timestampInvalid),
    });
  });

  it("415 for a non-JSON body, 413 for an oversized one", async () => {
    const headers = { Authorization: `Bearer ${token}` };
    const form = await handle(
      new Request("http://localhost/api/bowling-users/last-fetched", {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
        body: "timestamp=2026-11-23T15:00:00Z",
      }),
    );
    expect(form.status).toBe(415);
    const big = await call("POST", "/api/bowling-users/last-fetched", JSON.stringify({ timestamp: "x".repeat(3 * 1024 * 1024) }));
    expect(big.status).toBe(413);
    expect((await call("GET", "/api/bowling-users/last-fetched")).json).toEqual({ lastFetched: null });
  });

  it("§8: failures answer 'Failed to get last fetched time' and 'Failed to update last fetched time'", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(bowlingUserModel, "getLastFetched").mockRejectedValueOnce(new Error("db down"));
    expect(await call("GET", "/api/bowling-users/last-fetched")).toEqual({ status: 500, json: errorBody(BOWLING_ERRORS.getLastFetched) });
    vi.spyOn(bowlingUserModel, "setLastFetched").mockRejectedValueOnce(new Error("db down"));
    expect(await call("POST", "/api/bowling-users/last-fetched", { timestamp: "2026-11-23T15:00:00Z" })).toEqual({
      status: 500,
      json: errorBody(BOWLING_ERRORS.updateLastFetched),
    });
  });

  it("405 for DELETE and PUT (not taken for a user id)", async () => {
    expect((await call("DELETE", "/api/bowling-users/last-fetched")).status).toBe(405);
    expect((await call("PUT", "/api/bowling-users/last-fetched", {})).status).toBe(405);
  });
});

describe("GET|POST /api/bowling-companions, PUT /api/bowling-companions/{id} (spec 1 §3 Companion, §5, §7)", () => {
  it("POST assigns, GET lists, PUT changes (ids as strings or numbers)", async () => {
    await seed();
    const created = await call("POST", "/api/bowling-companions", { bowling_id: 101, supplier: "201", consumer: " 301 " });
    expect(created.status).toBe(201);
    const companion = created.json.companion as Record<string, string>;
    expect(companion).toEqual({ _id: expect.any(String), bowling_id: "101", supplier: "201", consumer: "301" });
    await call("POST", "/api/bowling-companions", { bowling_id: "102", supplier: "202", consumer: "302" });

    const listed = await call("GET", "/api/bowling-companions");
    expect(listed.status).toBe(200);
    expect(Array.isArray(listed.json)).toBe(true);
    expect((listed.json as unknown as Array<Record<string, string>>).map((c) => [c.bowling_id, c.supplier, c.consumer])).toEqual([
      ["101", "201", "301"],
      ["102", "202", "302"],
    ]);

    const updated = await call("PUT", `/api/bowling-companions/${companion._id}`, { bowling_id: "101", supplier: "202", consumer: "302" });
    expect(updated).toEqual({ status: 200, json: { companion: { _id: companion._id, bowling_id: "101", supplier: "202", consumer: "302" } } });
    const db = await getDb();
    expect(await db.select().from(bowlingCompanions)).toHaveLength(2);
  });

  it("one companion per bowling account: a second POST is 409, nothing changed", async () => {
    await seed();
    await call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "201", consumer: "301" });
    const before = await snapshot();
    expect(await call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "202", consumer: "302" })).toEqual({
      status: 409,
      json: errorBody(BOWLING_ERRORS.companionExists),
    });
    expect(await snapshot()).toEqual(before);
  });

  it("two concurrent POSTs for one bowling account: one 201, one 409", async () => {
    await seed();
    const results = await Promise.all([
      call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "201", consumer: "301" }),
      call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "202", consumer: "302" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await (await getDb()).select().from(bowlingCompanions)).toHaveLength(1);
  });

  it("PUT moving a companion onto a bowling account that has one is 409, nothing changed", async () => {
    await seed();
    const a = await call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "201", consumer: "301" });
    await call("POST", "/api/bowling-companions", { bowling_id: "102", supplier: "202", consumer: "302" });
    const before = await snapshot();
    const id = (a.json.companion as { _id: string })._id;
    expect(await call("PUT", `/api/bowling-companions/${id}`, { bowling_id: "102", supplier: "201", consumer: "301" })).toEqual({
      status: 409,
      json: errorBody(BOWLING_ERRORS.companionExists),
    });
    expect(await snapshot()).toEqual(before);
  });

  const WRONG: Array<[string, Record<string, unknown>, string]> = [
    ["bowling_id unknown", { bowling_id: "999", supplier: "201", consumer: "301" }, BOWLING_ERRORS.bowlingIdInvalid],
    ["bowling_id a supplier", { bowling_id: "201", supplier: "201", consumer: "301" }, BOWLING_ERRORS.bowlingIdInvalid],
    ["bowling_id a stalker", { bowling_id: "401", supplier: "201", consumer: "301" }, BOWLING_ERRORS.bowlingIdInvalid],
    ["supplier unknown", { bowling_id: "101", supplier: "998", consumer: "301" }, BOWLING_ERRORS.supplierInvalid],
    ["supplier a recipient", { bowling_id: "101", supplier: "301", consumer: "301" }, BOWLING_ERRORS.supplierInvalid],
    ["supplier a bowling account", { bowling_id: "101", supplier: "102", consumer: "301" }, BOWLING_ERRORS.supplierInvalid],
    ["consumer unknown", { bowling_id: "101", supplier: "201", consumer: "997" }, BOWLING_ERRORS.consumerInvalid],
    ["consumer a supplier", { bowling_id: "101", supplier: "201", consumer: "202" }, BOWLING_ERRORS.consumerInvalid],
    ["no supplier (§5)", { bowling_id: "101", consumer: "301" }, BOWLING_ERRORS.companionIncomplete],
    ["no consumer (§5)", { bowling_id: "101", supplier: "201" }, BOWLING_ERRORS.companionIncomplete],
    ["blank supplier (§5)", { bowling_id: "101", supplier: " ", consumer: "301" }, BOWLING_ERRORS.companionIncomplete],
    ["no bowling_id", { supplier: "201", consumer: "301" }, BOWLING_ERRORS.bowlingIdInvalid],
    ["supplier of a wrong type (object)", { bowling_id: "101", supplier: { $ne: 1 }, consumer: "301" }, BOWLING_ERRORS.companionIncomplete],
    ["consumer not an account id", { bowling_id: "101", supplier: "201", consumer: "30x" }, BOWLING_ERRORS.consumerInvalid],
    ["an oversized account id", { bowling_id: "1".repeat(5000), supplier: "201", consumer: "301" }, BOWLING_ERRORS.bowlingIdInvalid],
  ];

  it.each(WRONG)("POST 400 for %s, with its text, nothing changed", async (_label, body, text) => {
    await seed();
    const before = await snapshot();
    expect(await call("POST", "/api/bowling-companions", body)).toEqual({ status: 400, json: errorBody(text) });
    expect(await snapshot()).toEqual(before);
  });

  it.each(WRONG)("PUT 400 for %s, with its text, nothing changed", async (_label, body, text) => {
    await seed();
    const a = await call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "201", consumer: "301" });
    const before = await snapshot();
    expect(await call("PUT", `/api/bowling-companions/${(a.json.companion as { _id: string })._id}`, body)).toEqual({ status: 400, json: errorBody(text) });
    expect(await snapshot()).toEqual(before);
  });

  it.each<[string, string]>([
    ["malformed JSON", '{"bowling_id": "101",'],
    ["null", "null"],
    ["an array", '[{"bowling_id":"101","supplier":"201","consumer":"301"}]'],
    ["a string", '"101"'],
    ["an empty body", ""],
  ])("POST and PUT 400 for %s, nothing changed", async (_label, body) => {
    await seed();
    const a = await call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "201", consumer: "301" });
    const before = await snapshot();
    for (const [method, path] of [
      ["POST", "/api/bowling-companions"],
      ["PUT", `/api/bowling-companions/${(a.json.companion as { _id: string })._id}`],
    ] as const) {
      const res = await call(method, path, body === "" ? undefined : body);
      expect(res.status).toBe(400);
      expect(typeof res.json.error).toBe("string");
      expect(res.json.message).toBe(res.json.error);
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each(["00000000-0000-4000-8000-000000000000", "not-a-uuid", "101"])("PUT 404 'Companion not found' for %j, nothing changed", async (id) => {
    await seed();
    await call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "201", consumer: "301" });
    const before = await snapshot();
    expect(await call("PUT", `/api/bowling-companions/${id}`, { bowling_id: "102", supplier: "201", consumer: "301" })).toEqual({
      status: 404,
      json: errorBody(BOWLING_ERRORS.companionNotFound),
    });
    expect(await snapshot()).toEqual(before);
  });

  it("deleting the supplier or recipient account removes the companion (cascade)", async () => {
    await seed();
    await call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "201", consumer: "301" });
    await call("POST", "/api/bowling-companions", { bowling_id: "102", supplier: "202", consumer: "302" });
    const db = await getDb();
    const { removeUser } = await import("~/models/account.server");
    await removeUser("201");
    await removeUser("302");
    expect(await db.select().from(bowlingCompanions)).toEqual([]);
  });

  it("§8: failures answer 'Failed to fetch bowling companions', 'Failed to create bowling companion', 'Failed to update bowling companion'", async () => {
    await seed();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(companionModel, "listCompanions").mockRejectedValueOnce(new Error("db down"));
    expect(await call("GET", "/api/bowling-companions")).toEqual({ status: 500, json: errorBody(BOWLING_ERRORS.fetchCompanions) });
    vi.spyOn(companionModel, "createCompanion").mockRejectedValueOnce(new Error("db down"));
    const body = { bowling_id: "101", supplier: "201", consumer: "301" };
    expect(await call("POST", "/api/bowling-companions", body)).toEqual({ status: 500, json: errorBody(BOWLING_ERRORS.createCompanion) });
    vi.spyOn(companionModel, "updateCompanion").mockRejectedValueOnce(new Error("db down"));
    expect(await call("PUT", "/api/bowling-companions/00000000-0000-4000-8000-000000000000", body)).toEqual({
      status: 500,
      json: errorBody(BOWLING_ERRORS.updateCompanion),
    });
  });

  it("405 for PATCH on the list and GET/POST/DELETE on one companion", async () => {
    expect((await call("PATCH", "/api/bowling-companions", {})).status).toBe(405);
    for (const m of ["GET", "POST", "DELETE"]) expect((await call(m, "/api/bowling-companions/00000000-0000-4000-8000-000000000000")).status).toBe(405);
  });
});

describe("DELETE /api/bowling-companions (spec 1 §7 → {message, deleted count}; §8 'Deleted N companions')", () => {
  it("deletes every companion and says how many", async () => {
    await seed();
    await call("POST", "/api/bowling-companions", { bowling_id: "101", supplier: "201", consumer: "301" });
    await call("POST", "/api/bowling-companions", { bowling_id: "102", supplier: "202", consumer: "302" });
    expect(await call("DELETE", "/api/bowling-companions")).toEqual({ status: 200, json: { message: "Deleted 2 companions", deletedCount: 2 } });
    expect(await call("GET", "/api/bowling-companions")).toEqual({ status: 200, json: [] });
    expect(await call("DELETE", "/api/bowling-companions")).toEqual({ status: 200, json: { message: "Deleted 0 companions", deletedCount: 0 } });
    expect(await (await getDb()).select().from(users)).toHaveLength(7);
  });

  it("§8: a failure answers 500 'Failed to delete all bowling companions'", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(companionModel, "deleteAllCompanions").mockRejectedValueOnce(new Error("db down"));
    expect(await call("DELETE", "/api/bowling-companions")).toEqual({ status: 500, json: errorBody(BOWLING_ERRORS.deleteCompanions) });
  });
});

describe("authentication", () => {
  it("401 without a credential, nothing changed", async () => {
    await seed();
    const before = await snapshot();
    const res = await handle(new Request("http://localhost/api/bowling-companions", { method: "DELETE" }));
    expect(res.status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });
});
