import { beforeEach, describe, expect, it } from "vitest";
import { apiArgs, errorBody } from "#tests/kit/api";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { logEvent } from "~/models/log.server";
import { loader as listLoader, action as listAction } from "./api.logs";
import { action as clearAction, loader as clearLoader } from "./api.logs.clear.$id";
import { action as cleanupAction, loader as cleanupLoader } from "./api.logs.cleanup";

const base = "http://localhost/api/logs";
const args = apiArgs;
const DAY = 86_400_000;

async function list(query = "") {
  const res = (await listLoader(await args(new Request(`${base}${query}`)))) as Response;
  return { status: res.status, body: await res.json() };
}

async function seed() {
  const db = await getDb();
  await db.delete(logs);
  const now = Date.now();
  const rows = await db
    .insert(logs)
    .values([
      { type: "error", source: "galaxyAuth", message: "Login failed: Invalid credentials", details: { code: 451 }, timestamp: new Date(now - 1000) },
      { type: "info", source: "system", message: "Server started on port 3000", timestamp: new Date(now - 2000) },
      { type: "disconnect", source: "discord", message: "Gateway closed", cleared: true, timestamp: new Date(now - 3000) },
      { type: "debug", source: "bot", message: "old debug line", timestamp: new Date(now - 20 * DAY) },
      { type: "error", source: "system", message: "just inside retention", timestamp: new Date(now - 13 * DAY) },
    ])
    .returning();
  return Object.fromEntries(rows.map((r) => [r.message, r]));
}

describe("GET /api/logs (spec 2 §7 Logs: optional query type, source, cleared; response logs)", () => {
  beforeEach(seed);

  it("returns every entry newest first with string _id and ISO timestamp", async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.logs.map((l: { message: string }) => l.message)).toEqual([
      "Login failed: Invalid credentials",
      "Server started on port 3000",
      "Gateway closed",
      "just inside retention",
      "old debug line",
    ]);
    const first = body.logs[0];
    expect(Object.keys(first).sort()).toEqual(["_id", "cleared", "details", "message", "source", "timestamp", "type"]);
    expect(first._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(first.timestamp).toISOString()).toBe(first.timestamp);
    expect(first).toMatchObject({ type: "error", source: "galaxyAuth", cleared: false, details: { code: 451 } });
    expect(body.logs[1].details).toBeNull();
  });

  it("filters by type, by source and by cleared, alone and combined", async () => {
    const messages = async (q: string) => (await list(q)).body.logs.map((l: { message: string }) => l.message);
    expect(await messages("?type=error")).toEqual(["Login failed: Invalid credentials", "just inside retention"]);
    expect(await messages("?source=system")).toEqual(["Server started on port 3000", "just inside retention"]);
    expect(await messages("?type=error&source=system")).toEqual(["just inside retention"]);
    expect(await messages("?cleared=true")).toEqual(["Gateway closed"]);
    expect(await messages("?cleared=false&source=discord")).toEqual([]);
    // An empty parameter means "any", as the page's "All types" option sends it.
    expect((await messages("?type=&source=")).length).toBe(5);
  });

  it.each([
    ["?type=warning", "Invalid type: use one of error, disconnect, debug, info"],
    ["?source=galaxy", "Invalid source: use one of discord, galaxyAuth, bot, system"],
    ["?cleared=yes", "Invalid cleared: use true or false"],
    ["?type=ERROR", "Invalid type: use one of error, disconnect, debug, info"],
  ])("answers 400 {error} for a bad query %s", async (query, error) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body).toEqual(errorBody(error));
  });

  it("answers 405 JSON to other methods", async () => {
    const res = await listAction(await args(new Request(base, { method: "POST" })));
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET");
    expect((await res.json()).error).toMatch(/Method not allowed/);
  });
});

describe("POST /api/logs/clear/{id} (spec 2 §7 Logs)", () => {
  it("marks the entry cleared and answers {success: true, log}", async () => {
    const rows = await seed();
    const id = rows["Server started on port 3000"].id;
    const res = (await clearAction(await args(new Request(`${base}/clear/${id}`, { method: "POST" }), { id }))) as Response;
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, log: { _id: id, cleared: true, message: "Server started on port 3000" } });
    const { body: after } = await list("?cleared=true");
    expect(after.logs.map((l: { _id: string }) => l._id)).toContain(id);
  });

  it.each([
    ["an unknown uuid", "3f1c0a52-7d7e-4c1a-9a53-2b9b7c0e8f11"],
    ["a non-uuid id", "not-a-uuid"],
  ])("answers 404 {error: 'Log entry not found'} for %s", async (_label, id) => {
    await seed();
    const res = (await clearAction(await args(new Request(`${base}/clear/${id}`, { method: "POST" }), { id }))) as Response;
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(errorBody("Log entry not found"));
  });

  it("answers 405 JSON to GET and DELETE", async () => {
    expect((await clearLoader(await args(new Request(`${base}/clear/x`)))).status).toBe(405);
    const id = "3f1c0a52-7d7e-4c1a-9a53-2b9b7c0e8f11";
    const res = (await clearAction(await args(new Request(`${base}/clear/${id}`, { method: "DELETE" }), { id }))) as Response;
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
  });
});

describe("DELETE /api/logs/cleanup (decision 0004: cleared entries + entries older than LOG_RETENTION_DAYS)", () => {
  it("removes exactly the cleared and the older-than-14-days entries", async () => {
    await seed();
    const res = (await cleanupAction(await args(new Request(`${base}/cleanup`, { method: "DELETE" })))) as Response;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Deleted 2 log entries", deletedCount: 2 });
    const { body } = await list();
    expect(body.logs.map((l: { message: string }) => l.message)).toEqual([
      "Login failed: Invalid credentials",
      "Server started on port 3000",
      "just inside retention",
    ]);
    // Nothing left to remove: a second run deletes nothing.
    const again = (await cleanupAction(await args(new Request(`${base}/cleanup`, { method: "DELETE" })))) as Response;
    expect(await again.json()).toEqual({ message: "Deleted 0 log entries", deletedCount: 0 });
  });

  it("keeps entries the logger writes now", async () => {
    const db = await getDb();
    await db.delete(logs);
    await logEvent({ type: "info", source: "bot", message: "fresh", details: { password: "hunter2", nick: "x" } });
    const res = (await cleanupAction(await args(new Request(`${base}/cleanup`, { method: "DELETE" })))) as Response;
    expect((await res.json()).deletedCount).toBe(0);
    const { body } = await list();
    // The logger redacts secrets before they reach the table.
    expect(body.logs).toMatchObject([{ message: "fresh", details: { password: "[redacted]", nick: "x" } }]);
  });

  it("answers 405 JSON to other methods", async () => {
    expect((await cleanupLoader(await args(new Request(`${base}/cleanup`)))).status).toBe(405);
    const res = (await cleanupAction(await args(new Request(`${base}/cleanup`, { method: "POST" })))) as Response;
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("DELETE");
  });
});
