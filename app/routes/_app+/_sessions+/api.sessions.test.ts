import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DrainAnswer, SessionsListAnswer, WorkersAnswer } from "#api/operations";
import { drainAnswerSchema, sessionsListAnswerSchema, workersAnswerSchema } from "#api/operations-schemas";
import { PHASE_TEXTS } from "#api/sessions";
import { producerConnection } from "~/queue/redis.server";
import { drainKey } from "~/queue/session-control.server";
import { resetJobEngineStatus } from "~/queue/status.server";
import { beatAsWorker, deleteKeys } from "#jobs/test-helpers";
import { getDb } from "~/db/client.server";
import { galacordAccounts, sessions, users } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { createTestApiToken, createTestOperator, makeRequest, remixHandler, type TestOperator } from "#tests/kit";

/**
 * Issue 31 item 1, the /api of the Sessions page: GET /api/sessions (every purpose, one page,
 * filters purpose/state/worker/q, the phase joined with real worker beats in Redis), GET
 * /api/workers (the beats: host, pid, beat age, sessions per purpose, rss, version) and
 * POST/DELETE /api/workers/{id}/drain (the drain mark the worker reads; operators only).
 * Requests go through the real route table, the auth gate's role rule and apiRoute.
 */
let handle: (request: Request) => Promise<Response>;
let operator: TestOperator;
let viewer: TestOperator;
let token: string;
let viewerToken: string;

beforeAll(async () => {
  handle = await remixHandler((r) => /api\.(sessions|workers)/.test(r.id));
  operator = await createTestOperator({ name: "olga", role: "operator" });
  viewer = await createTestOperator({ name: "vik", role: "viewer" });
  token = await createTestApiToken(operator.id, "ops");
  viewerToken = await createTestApiToken(viewer.id, "ops read");
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(sessions);
  await db.delete(users);
  await db.delete(galacordAccounts);
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
  resetJobEngineStatus();
});
afterAll(async () => {
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

const call = (path: string, opts: Parameters<typeof makeRequest>[1] = {}) => handle(makeRequest(path, { token, ...opts }));

async function list(query = ""): Promise<SessionsListAnswer> {
  const res = await call(`/api/sessions${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return sessionsListAnswerSchema.parse(await res.json()) as SessionsListAnswer;
}

type Row = typeof sessions.$inferInsert;
async function seed(rows: Row[]) {
  const db = await getDb();
  await db.insert(sessions).values(rows);
}

describe("GET /api/sessions (issue 31: every session of every purpose, one list)", () => {
  it("answers each session with its nick, desired and actual, the phase joined with its worker's beat, attempt, next try and last error", async () => {
    const db = await getDb();
    await db.insert(users).values([
      { accountId: "1001", nick: "Stalky", password: "x", type: "stalker" },
      { accountId: "1002", nick: "Trady", password: "x", type: "trading" },
    ]);
    await db
      .insert(galacordAccounts)
      .values({ accountId: "1003", nick: "Relayer", recoveryCode: "encrypted-not-read", channelId: "c1", channelName: "general", guildName: "G" });
    await beatAsWorker("w-alive", 60_000, { sessions: { stalker: 1 } });
    const retryAt = new Date(Date.now() + 60_000);
    await seed([
      { purpose: "stalker", key: "1001", accountId: "1001", desired: "run", actual: "active", holder: "w-alive" },
      { purpose: "trader", key: "1002", accountId: "1002", desired: "run", actual: "active", holder: "w-dead" },
      {
        purpose: "relay-link",
        key: "1003",
        accountId: "1003",
        desired: "run",
        actual: "reconnecting",
        holder: "w-alive",
        attempt: 2,
        nextRetryAt: retryAt,
        error: "Connection lost",
        info: { queued: 3, dropped: 1, toGalaxy: 12, toDiscord: 40, lastMessageAt: "2026-11-28T10:00:00.000Z" },
      },
      { purpose: "relay", key: "bot", accountId: null, desired: "stop", actual: "failed", error: "Invalid Discord token" },
    ]);

    const answer = await list();
    expect(answer.total).toBe(4);
    expect(answer).toMatchObject({ page: 1, page_size: 50, page_count: 1 });
    const by = Object.fromEntries(answer.sessions.map((s) => [`${s.purpose}:${s.key}`, s]));
    expect(by["stalker:1001"]).toMatchObject({
      nick: "Stalky",
      account_id: "1001",
      desired: "run",
      actual: "active",
      phase: "active",
      status: "Active",
      holder: "w-alive",
      holder_alive: true,
      logs_url: "/logs?account=1001",
      page_url: "/characters",
      relay: null,
    });
    // Its holder has no beat: whatever the row says, nobody runs it (decision 0027).
    expect(by["trader:1002"]).toMatchObject({ nick: "Trady", actual: "active", phase: "waiting", status: PHASE_TEXTS.workerLost, holder_alive: false });
    expect(by["relay-link:1003"]).toMatchObject({
      nick: "Relayer",
      phase: "retrying",
      attempt: 2,
      next_try_at: retryAt.toISOString(),
      last_error: "Connection lost",
      relay: { to_galaxy: 12, to_discord: 40, dropped: 1, queued: 3, last_message_at: "2026-11-28T10:00:00.000Z" },
    });
    expect(by["relay:bot"]).toMatchObject({ account_id: null, phase: "failed", last_error: "Invalid Discord token", logs_url: "/logs?source=discord" });
    // Problems first: waiting, failed, retrying, then active.
    expect(answer.sessions.map((s) => s.phase)).toEqual(["waiting", "failed", "retrying", "active"]);
  });

  it("filters by purpose, state (the phase), worker and a search of nick or account id", async () => {
    const db = await getDb();
    await db.insert(users).values([
      { accountId: "2001", nick: "Alpha", password: "x", type: "stalker" },
      { accountId: "2002", nick: "Bravo", password: "x", type: "stalker" },
    ]);
    await beatAsWorker("w-one");
    await seed([
      { purpose: "stalker", key: "2001", accountId: "2001", desired: "run", actual: "active", holder: "w-one" },
      { purpose: "stalker", key: "2002", accountId: "2002", desired: "stop", actual: "stopped" },
      { purpose: "collections", key: "2003", accountId: "2003", desired: "run", actual: "waiting" },
    ]);
    const keys = (a: SessionsListAnswer) => a.sessions.map((s) => s.key).sort();
    expect(keys(await list("?purpose=stalker"))).toEqual(["2001", "2002"]);
    expect(keys(await list("?state=stopped"))).toEqual(["2002"]);
    expect(keys(await list("?state=waiting"))).toEqual(["2003"]);
    expect(keys(await list("?state=active&purpose=stalker"))).toEqual(["2001"]);
    expect(keys(await list("?worker=w-one"))).toEqual(["2001"]);
    expect(keys(await list("?q=brav"))).toEqual(["2002"]);
    expect(keys(await list("?q=2003"))).toEqual(["2003"]);
    const none = await list("?q=nobody");
    expect(none).toMatchObject({ sessions: [], total: 0, page_count: 0 });
  });

  it("pages 50 at a time with the total of every match", async () => {
    await seed(Array.from({ length: 60 }, (_, i) => ({ purpose: "stalker" as const, key: String(3000 + i), accountId: String(3000 + i) })));
    const first = await list();
    const second = await list("?page=2");
    expect(first).toMatchObject({ total: 60, page: 1, page_count: 2 });
    expect(first.sessions).toHaveLength(50);
    expect(second.sessions).toHaveLength(10);
    expect(new Set([...first.sessions, ...second.sessions].map((s) => s.key)).size).toBe(60);
  });

  it("a bad filter is a 400 naming it, with error and message", async () => {
    for (const [query, text] of [
      ["?purpose=robot", "purpose must be one of: stalker, trader, collections, relay, relay-link"],
      ["?state=sleeping", "state must be one of: waiting, connecting, active, retrying, stopped, failed"],
      ["?page=0", "page must be a whole number from 1 to 10000"],
      ["?page=abc", "page must be a whole number from 1 to 10000"],
    ]) {
      const res = await call(`/api/sessions${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: text, message: text });
    }
  });

  it("a viewer reads it; a POST is refused", async () => {
    expect((await call("/api/sessions", { token: viewerToken })).status).toBe(200);
    expect((await call("/api/sessions", { method: "POST", json: {} })).status).toBe(405);
  });
});

describe("GET /api/workers (issue 31: the Workers panel's data)", () => {
  it("lists each live worker from its beat: host, pid, beat age, sessions per purpose, memory, version", async () => {
    await beatAsWorker("w-a", 60_000, {
      host: "box-1",
      pid: 111,
      sessions: { stalker: 3, relay: 1 },
      capacity: { stalker: 1000 },
      rss: 123_456_789,
      version: "1.2.3",
    });
    const res = await call("/api/workers");
    expect(res.status).toBe(200);
    const body = workersAnswerSchema.parse(await res.json()) as WorkersAnswer;
    expect(body.workers).toHaveLength(1);
    expect(body.workers[0]).toMatchObject({
      id: "w-a",
      host: "box-1",
      pid: 111,
      state: "alive",
      sessions: { stalker: 3, relay: 1 },
      capacity: { stalker: 1000 },
      rss_bytes: 123_456_789,
      version: "1.2.3",
      drained_at: null,
      lost_at: null,
    });
    expect(body.workers[0]!.beat_age_seconds).toBeLessThan(5);
    expect(Date.parse(body.workers[0]!.beat_at)).toBeGreaterThan(Date.now() - 10_000);
  });
});

describe("POST /api/workers/{id}/drain (issue 31)", () => {
  it("marks a live worker drained (202), DELETE undrains it (200); unknown ids are 404; viewers are refused", async () => {
    await beatAsWorker("w-d");
    const res = await call("/api/workers/w-d/drain", { method: "POST" });
    expect(res.status, await res.clone().text()).toBe(202);
    const body = drainAnswerSchema.parse(await res.json()) as DrainAnswer;
    expect(body.message).toBe("Worker w-d is draining: its sessions move to other workers, and it takes no new ones until it is undrained or restarted");
    expect(body.worker.id).toBe("w-d");
    expect(body.worker.drained_at).not.toBeNull();
    // The mark the worker's host beat reads (jobs/session-host.server.ts).
    const since = await producerConnection().hget(drainKey(), "w-d");
    expect(Date.parse(since!)).toBeGreaterThan(Date.now() - 10_000);
    // Again: nothing changes (the first time stays).
    expect((await call("/api/workers/w-d/drain", { method: "POST" })).status).toBe(202);
    expect(await producerConnection().hget(drainKey(), "w-d")).toBe(since);

    const undo = await call("/api/workers/w-d/drain", { method: "DELETE" });
    expect(undo.status).toBe(200);
    expect(((await undo.json()) as DrainAnswer).message).toBe("Worker w-d takes sessions again");
    expect(await producerConnection().hget(drainKey(), "w-d")).toBeNull();

    const missing = await call("/api/workers/nobody-1/drain", { method: "POST" });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "No running worker has the id nobody-1", message: "No running worker has the id nobody-1" });
    expect(await producerConnection().hget(drainKey(), "nobody-1")).toBeNull();

    const refused = await call("/api/workers/w-d/drain", { method: "POST", token: viewerToken });
    expect(refused.status).toBe(403);
    expect(await producerConnection().hget(drainKey(), "w-d")).toBeNull();
  });
});
