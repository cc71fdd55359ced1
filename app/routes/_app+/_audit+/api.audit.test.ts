import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuditListDto } from "#api/audit";
import { getDb } from "~/db/client.server";
import { auditLog, categories } from "~/db/schema";
import { cleanupAudit, recordAudit } from "~/models/audit.server";
import { openBackup } from "~/models/backup.server";
import { createTestApiToken, createTestOperator, makeRequest, remixHandler, type TestOperator } from "#tests/kit";

/**
 * Issue 21 item 2, the audit trail: every change made through an /api call or a page action
 * (and a job one of them started) is recorded — when, who (operator, or operator + token
 * name), what, on what, a summary without secrets — and GET /api/audit answers it newest
 * first, filtered by operator, action and time, paged. Requests go through the real route
 * table and the route guard, as in production.
 */
let handle: (request: Request) => Promise<Response>;
let admin: TestOperator;
let alice: TestOperator;
let viewer: TestOperator;
let aliceToken: string;
let aliceReadOnly: string;
let viewerToken: string;

beforeAll(async () => {
  handle = await remixHandler((r) => /\/api\.|characters$/.test(r.id));
  admin = await createTestOperator({ name: "boss" });
  alice = await createTestOperator({ name: "alice", role: "operator" });
  viewer = await createTestOperator({ name: "vera", role: "viewer" });
  aliceToken = await createTestApiToken(alice.id, "nightly import");
  aliceReadOnly = await createTestApiToken(alice.id, "dashboard", { readOnly: true });
  viewerToken = await createTestApiToken(viewer.id, "viewer script");
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(auditLog);
  await db.delete(categories);
});

const call = (path: string, opts: Parameters<typeof makeRequest>[1] = {}) => handle(makeRequest(path, opts));

async function audit(query = "", token = aliceToken): Promise<AuditListDto> {
  const res = await call(`/api/audit${query}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as AuditListDto;
}

describe("recording", () => {
  it("an /api write with a token: operator, token name, action, target, summary", async () => {
    const res = await call("/api/categories", { token: aliceToken, json: { value: "farmers" } });
    expect(res.status).toBe(201);
    const { entries } = await audit();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operator: "alice",
      token: "nightly import",
      action: "POST /api/categories",
      details: { value: "farmers", status: 201, via: 'API token "nightly import"' },
    });
    expect(entries[0]!._id).toMatch(/^\d+$/);
    expect(Date.parse(entries[0]!.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("a page action with a session: the route and its intent, the id as target, no token", async () => {
    const res = await call("/characters", { cookie: alice.cookie, form: { intent: "add-category", value: "miners", redirectTo: "/characters" } });
    expect(res.status).toBeLessThan(400);
    const { entries } = await audit();
    expect(entries[0]).toMatchObject({
      operator: "alice",
      token: null,
      action: "POST /characters add-category",
      target: "miners",
      details: { value: "miners" },
    });
    expect(entries[0]!.details).not.toHaveProperty("redirectTo");
  });

  it("never records secrets: secret-looking fields are blanked, also inside JSON texts", async () => {
    const res = await call("/api/user-agent", {
      token: aliceToken,
      json: { "12345678": { headers: JSON.stringify({ "X-Galaxy-Platform": "android", "X-Galaxy-Sek": "SEK-MARKER-1" }), sek: "SEK-MARKER-2" } },
    });
    expect(res.status).toBeLessThan(400);
    const { entries } = await audit();
    const text = JSON.stringify(entries);
    expect(text).not.toContain("SEK-MARKER");
    expect(text).toContain("[redacted]");
  });

  it("a job started by an action is named in the action's one entry (issue 28: one write, one entry)", async () => {
    const res = await call("/api/jobs/probe", { token: aliceToken, json: { ms: 0, key: "audit-test" } });
    expect(res.status).toBe(202);
    const { entries } = await audit();
    expect(entries.map((e) => e.action)).toEqual(["POST /api/jobs/probe"]);
    expect(entries[0]).toMatchObject({
      operator: "alice",
      token: "nightly import",
      details: { jobs: ["system probe probe-audit-test"] },
    });
    expect(entries[0]!.target).not.toBe("");
  });

  it("records nothing for reads and for refused writes", async () => {
    await call("/api/categories", { token: aliceToken });
    await call("/api/categories", { token: aliceToken, json: { value: "" } }); // 400
    await call("/api/categories", { token: viewerToken, json: { value: "x" } }); // 403
    expect((await audit()).entries).toEqual([]);
  });
});

describe("roles on the API", () => {
  it("a viewer's token and a read-only token read, and every write is a 403 {error, message}", async () => {
    for (const token of [viewerToken, aliceReadOnly]) {
      expect((await call("/api/categories", { token })).status).toBe(200);
      expect((await call("/api/audit", { token })).status).toBe(200);
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const res = await call("/api/categories", { token, method, json: { value: "nope" } });
        expect(res.status, `${method} with ${token === viewerToken ? "viewer" : "read-only"} token`).toBe(403);
        const body = (await res.json()) as { error: string; message: string };
        expect(body.message).toBe(body.error);
        expect(body.error).toMatch(token === viewerToken ? /Viewers/ : /read-only/);
      }
    }
    const db = await getDb();
    expect(await db.select().from(categories)).toEqual([]);
  });

  it("a viewer's page action is refused too (the route guard, behind the gate)", async () => {
    // The `.data` form (a fetcher's post): the kit renders no documents.
    const res = await call("/characters.data", { cookie: viewer.cookie, form: { intent: "add-category", value: "nope" } });
    expect(res.status).toBe(403);
    const db = await getDb();
    expect(await db.select().from(categories)).toEqual([]);
  });
});

describe("GET /api/audit", () => {
  beforeEach(async () => {
    const t0 = Date.parse("2026-03-01T12:00:00Z");
    for (let i = 0; i < 5; i++) {
      await recordAudit(
        { operatorId: alice.id, operator: "alice", token: null },
        { action: `POST /api/rates`, target: `r${i}`, details: { i } },
        new Date(t0 + i * 86_400_000),
      );
    }
    await recordAudit(
      { operatorId: admin.id, operator: "boss", token: null },
      { action: "operator.create", target: "vera", details: { role: "viewer" } },
      new Date(t0),
    );
  });

  it("answers newest first in the contract's shape", async () => {
    const { entries, page, hasMore } = await audit();
    expect(page).toBe(1);
    expect(hasMore).toBe(false);
    // By time, then id: "vera" was recorded at r0's time, after it.
    expect(entries.map((e) => e.target)).toEqual(["r4", "r3", "r2", "r1", "vera", "r0"]);
    for (const e of entries) expect(Object.keys(e).sort()).toEqual(["_id", "action", "at", "details", "operator", "target", "token"]);
  });

  it("filters by operator, action and time, and pages", async () => {
    expect((await audit("?operator=ALICE")).entries).toHaveLength(5);
    expect((await audit(`?operator=${alice.id}`)).entries).toHaveLength(5);
    expect((await audit("?since=2026-03-04T12:00:00Z&until=2026-03-05")).entries.map((e) => e.target)).toEqual(["r4", "r3"]);
    expect((await audit("?operator=boss")).entries.map((e) => e.action)).toEqual(["operator.create"]);
    expect((await audit("?action=operator.")).entries).toHaveLength(1);
    expect((await audit("?action=%2Fapi%2Frates")).entries).toHaveLength(5);
    expect((await audit("?from=2026-03-03&to=2026-03-04")).entries.map((e) => e.target)).toEqual(["r3", "r2"]);
    expect((await audit("?from=2026-03-04T12:00:00Z")).entries.map((e) => e.target)).toEqual(["r4", "r3"]);
    const first = await audit("?operator=alice&limit=2");
    expect(first).toMatchObject({ page: 1, limit: 2, hasMore: true });
    expect(first.entries.map((e) => e.target)).toEqual(["r4", "r3"]);
    const last = await audit("?operator=alice&limit=2&page=3");
    expect(last.entries.map((e) => e.target)).toEqual(["r0"]);
    expect(last.hasMore).toBe(false);
  });

  it("filters by target text (any case, part of it), with the other filters", async () => {
    expect((await audit("?target=R3")).entries.map((e) => e.target)).toEqual(["r3"]);
    expect((await audit("?target=ver&operator=boss")).entries.map((e) => e.target)).toEqual(["vera"]);
    expect((await audit("?target=ver&operator=alice")).entries).toEqual([]);
    // % and _ are the text itself, not wildcards.
    expect((await audit("?target=%25")).entries).toEqual([]);
  });

  it("pages by cursor on (at, id): next to older, prev to newer, the same entries both ways, at any depth", async () => {
    // Equal times too: the id breaks the tie, nothing is skipped or shown twice.
    const t = new Date("2026-03-10T00:00:00Z");
    for (let i = 0; i < 7; i++) await recordAudit({ operatorId: alice.id, operator: "alice", token: null }, { action: "tie", target: `t${i}` }, t);
    const seen: string[] = [];
    let page = await audit("?action=tie&limit=3");
    expect(page.prev).toBeNull();
    const cursors: string[] = [];
    for (;;) {
      seen.push(...page.entries.map((e) => e.target));
      if (!page.next) break;
      cursors.push(page.next);
      page = await audit(`?action=tie&limit=3&before=${encodeURIComponent(page.next)}`);
    }
    expect(seen).toEqual(["t6", "t5", "t4", "t3", "t2", "t1", "t0"]);
    expect(page.hasMore).toBe(false);
    // Back from the last page: the page before it, then the first.
    const back = await audit(`?action=tie&limit=3&after=${encodeURIComponent(page.prev!)}`);
    expect(back.entries.map((e) => e.target)).toEqual(["t3", "t2", "t1"]);
    const first = await audit(`?action=tie&limit=3&after=${encodeURIComponent(back.prev!)}`);
    expect(first.entries.map((e) => e.target)).toEqual(["t6", "t5", "t4"]);
    expect(first.prev).toBeNull();
    expect(first.next).toBe(cursors[0]);
  });

  it("refuses bad filters with 400 {error, message}", async () => {
    for (const q of [
      "?from=yesterday",
      "?page=0",
      "?limit=abc",
      "?operator=%00",
      "?before=yesterday",
      "?before=2026-01-01T00:00:00.000Z~1&after=2026-01-01T00:00:00.000Z~2",
      "?page=1000&limit=200",
    ]) {
      const res = await call(`/api/audit${q}`, { token: aliceToken });
      expect(res.status, q).toBe(400);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error).toBe(body.message);
    }
  });

  it("keeps AUDIT_RETENTION_DAYS (90 by default)", async () => {
    const removed = await cleanupAudit(new Date("2026-06-01T12:00:00Z"));
    // 2026-03-01 … 03-05 are more than 90 days before 06-01 only for 03-01 and 03-02.
    expect(removed).toBe(3);
    expect((await audit()).entries.map((e) => e.target)).toEqual(["r4", "r3", "r2"]);
  });
});

describe("page actions that fail with an error toast", () => {
  it("are not recorded: they changed nothing", async () => {
    const db = await getDb();
    await db.delete(auditLog);
    // Deleting a category that does not exist: a redirect back with an error toast.
    const res = await call("/characters.data", {
      cookie: alice.cookie,
      form: { intent: "delete-category", id: "00000000-0000-0000-0000-000000000000", redirectTo: "/characters" },
    });
    expect(res.headers.get("set-cookie")).toMatch(/toast-session=/);
    await res.arrayBuffer();
    expect((await audit()).entries).toEqual([]);
  });
});

describe("POST /api/backup (admins' scripts)", () => {
  it("answers the encrypted file to an admin, on the trail; 403 to others and to a read-only token", async () => {
    const adminToken = await createTestApiToken(admin.id, "backups");
    const res = await call("/api/backup", { token: adminToken, json: { passphrase: "api backup pass" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="galaxy-toolbox-.*\.gtbackup"$/);
    const { header } = await openBackup(await res.text(), "api backup pass");
    expect(header.tables.operators).toBeGreaterThanOrEqual(3);
    expect((await audit()).entries[0]).toMatchObject({ operator: "boss", token: "backups", action: "backup.download" });

    for (const token of [aliceToken, viewerToken, await createTestApiToken(admin.id, "ro backups", { readOnly: true })]) {
      const refused = await call("/api/backup", { token, json: { passphrase: "api backup pass" } });
      expect(refused.status).toBe(403);
      await refused.arrayBuffer();
    }
    const short = await call("/api/backup", { token: adminToken, json: { passphrase: "short" } });
    expect(short.status).toBe(400);
  });
});
