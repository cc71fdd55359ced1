/**
 * /api/stalker/* as routes (spec 2 §7 "Characters", §8 fallbacks read from `message`): the
 * answers, the errors and "nothing changed" on bad input. No worker runs in this file, so
 * a started stalker's job waits in the queue (the session itself is tested against the
 * simulator in jobs/processors/stalker.test.ts).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_ERRORS } from "#api/accounts";
import { getQueue } from "~/queue/queues.server";
import { sessionJobId } from "#jobs/session-host.server";
import { deleteKeys } from "#jobs/test-helpers";
import { apiArgs, errorBody } from "#tests/kit/api";
import { getDb } from "~/db/client.server";
import { logs, sessions, users } from "~/db/schema";
import { reportSession } from "~/models/session.server";
import { upsertUser } from "~/models/user.server";
import { getEnv } from "~/utils/env.server";
import { loader as activeLoader, action as activeAction } from "./api.stalker.active";
import { action as startAction, loader as startLoader } from "./api.stalker.start";
import { action as stopAction } from "./api.stalker.stop";

const STALKER = "51234567";
const TRADER = "51234568";

async function call(action: typeof startAction, body: unknown, init: RequestInit = {}) {
  const res = (await action(
    await apiArgs(
      new Request("http://localhost/api/stalker/x", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
        ...init,
      }),
    ),
  )) as Response;
  return { status: res.status, body: await res.json() };
}
async function active() {
  const res = (await activeLoader(await apiArgs(new Request("http://localhost/api/stalker/active")))) as Response;
  return { status: res.status, body: await res.json() };
}
async function rows() {
  return (await getDb()).select().from(sessions).where(eq(sessions.purpose, "stalker"));
}
/** A holder reporting the session as a worker does (jobs/session-host.server.ts → the store). */
const reportStalkerState = (id: string, patch: Parameters<typeof reportSession>[3], holder = "w1") => reportSession("stalker", id, holder, patch);

beforeAll(() => {
  // No worker runs here: a start answers at once what it knows (waiting for a worker).
  process.env.SESSION_START_WAIT_MS = "0";
});

beforeEach(async () => {
  const db = await getDb();
  await db.delete(sessions);
  await db.delete(users);
  await upsertUser({ accountId: STALKER, nick: "Watcher", password: "a".repeat(32), type: "stalker" });
  await upsertUser({ accountId: TRADER, nick: "Seller", password: "b".repeat(32), type: "trading" });
  await getQueue("stalker").obliterate({ force: true });
});
afterAll(async () => {
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

describe("GET /api/stalker/active (spec 2 §7: {connections: account ids})", () => {
  it("lists stalkers started and connecting or active, not stopped or failed ones", async () => {
    expect(await active()).toEqual({ status: 200, body: { connections: [] } });
    const db = await getDb();
    await upsertUser({ accountId: "51234569", nick: "Other", password: "c".repeat(32), type: "stalker" });
    await upsertUser({ accountId: "51234570", nick: "Failed", password: "d".repeat(32), type: "stalker" });
    await db.insert(sessions).values([
      { purpose: "stalker", key: STALKER, accountId: STALKER, desired: "run", actual: "active" },
      { purpose: "stalker", key: "51234569", accountId: "51234569", desired: "run", actual: "reconnecting" },
      { purpose: "stalker", key: "51234570", accountId: "51234570", desired: "stop", actual: "failed", error: "Login failed: Invalid credentials" },
    ]);
    expect((await active()).body).toEqual({ connections: [STALKER, "51234569"] });
    const post = (await activeAction(await apiArgs(new Request("http://localhost/api/stalker/active", { method: "POST" })))) as Response;
    expect(post.status).toBe(405);
  });
});

describe("POST /api/stalker/start {account_id} (spec 2 §7, §4 Stalker)", () => {
  it("202 'Stalker is connecting' while no worker took it (waiting); the session job stalker-<id> waits for a worker; a second start is a no-op", async () => {
    const first = await call(startAction, { account_id: STALKER });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      success: true,
      message: "Stalker is connecting",
      stalker: { accountId: STALKER, desired: "run", actual: "waiting", state: "connecting", planet: null, error: null, holder: null },
    });
    const job = await getQueue("stalker").getJob(sessionJobId("stalker", STALKER));
    expect(job?.data).toEqual({ kind: "session", accountId: STALKER, reason: "start" });
    expect(await job!.getState()).toBe("waiting");
    // Issue 29: a session no live worker holds is not an active connection (decision 0027).
    expect((await active()).body).toEqual({ connections: [] });

    const again = await call(startAction, { account_id: Number(STALKER) });
    expect(again.status).toBe(202);
    expect(again.body.stalker.since).toBe(first.body.stalker.since);
    expect(await getQueue("stalker").getJobCounts("waiting", "active")).toEqual({ waiting: 1, active: 0 });
  });

  it("errors carry message (spec 2 §8): unknown 404, not a stalker 400, bad bodies 400/415; nothing changes", async () => {
    expect(await call(startAction, { account_id: "99999999" })).toEqual({ status: 404, body: errorBody(ACCOUNT_ERRORS.userNotFound) });
    expect(await call(startAction, { account_id: TRADER })).toEqual({ status: 400, body: errorBody(ACCOUNT_ERRORS.notStalker) });
    for (const bad of [{}, { account_id: "" }, { account_id: "12a" }, { account_id: null }, { account_id: ["1"] }, { account_id: "1".repeat(13) }]) {
      const r = await call(startAction, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.message).toContain(ACCOUNT_ERRORS.accountIdRequired);
    }
    expect((await call(startAction, "{not json")).status).toBe(400);
    expect((await call(startAction, { account_id: STALKER }, { headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await call(startAction, JSON.stringify({ account_id: STALKER, pad: "x".repeat(3 * 1024 * 1024) }))).status).toBe(413);
    expect(await rows()).toEqual([]);
    expect(await getQueue("stalker").getJobCounts("waiting", "active")).toEqual({ waiting: 0, active: 0 });
    const get = (await startLoader(await apiArgs(new Request("http://localhost/api/stalker/start")))) as Response;
    expect(get.status).toBe(405);
  });
});

describe("issue 30 B5: a start or stop through /api writes a System Logs entry, like the page's", () => {
  it("one info entry per change, with the account (found by /logs?account=); a repeated start or stop writes none", async () => {
    const db = await getDb();
    await db.delete(logs);
    const entries = async () =>
      (await db.select().from(logs).orderBy(logs.timestamp)).map((l) => ({ type: l.type, source: l.source, message: l.message, details: l.details }));
    await call(startAction, { account_id: STALKER });
    await call(startAction, { account_id: STALKER });
    await call(stopAction, { account_id: STALKER });
    await call(stopAction, { account_id: STALKER });
    expect(await entries()).toEqual([
      { type: "info", source: "bot", message: `Stalker Watcher (${STALKER}) started`, details: { accountId: STALKER, purpose: "stalker" } },
      { type: "info", source: "bot", message: `Stalker Watcher (${STALKER}) stopped`, details: { accountId: STALKER, purpose: "stalker" } },
    ]);
  });
});

describe("POST /api/stalker/stop {account_id} (spec 2 §7, §4 Stalker)", () => {
  it("200 'Stalker stopped successfully': stopped and inactive at once, off /active, the waiting job removed; a second stop is a no-op", async () => {
    await call(startAction, { account_id: STALKER });
    expect(await reportStalkerState(STALKER, { actual: "active", planet: "Orion" })).toBe(true);
    const res = await call(stopAction, { account_id: STALKER });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: "Stalker stopped successfully",
      stalker: { desired: "stop", actual: "stopped", state: "inactive" },
    });
    expect((await active()).body).toEqual({ connections: [] });
    expect(await getQueue("stalker").getJob(sessionJobId("stalker", STALKER))).toBeUndefined();
    // A holder that still reports after the stop changes nothing (the stop wins).
    expect(await reportStalkerState(STALKER, { actual: "active", planet: "Orion" })).toBe(false);
    expect((await rows())[0]).toMatchObject({ desired: "stop", actual: "stopped" });
    const again = await call(stopAction, { account_id: STALKER });
    expect(again.status).toBe(200);
    expect(again.body.stalker).toMatchObject({ desired: "stop", state: "inactive" });
  });

  it("a stalker that never ran: 200 with stalker null; unknown 404; a non-stalker without a session 400", async () => {
    expect(await call(stopAction, { account_id: STALKER })).toEqual({
      status: 200,
      body: { success: true, message: "Stalker stopped successfully", stalker: null },
    });
    expect(await call(stopAction, { account_id: "99999999" })).toEqual({ status: 404, body: errorBody(ACCOUNT_ERRORS.userNotFound) });
    expect(await call(stopAction, { account_id: TRADER })).toEqual({ status: 400, body: errorBody(ACCOUNT_ERRORS.notStalker) });
    expect((await call(stopAction, { account_id: "x" })).status).toBe(400);
    expect(await rows()).toEqual([]);
  });

  it("an error stays visible after a stop (451 text), and a new start clears it", async () => {
    await (
      await getDb()
    )
      .insert(sessions)
      .values({ purpose: "stalker", key: STALKER, accountId: STALKER, desired: "stop", actual: "failed", error: "Login failed: Invalid credentials" });
    expect((await call(stopAction, { account_id: STALKER })).body.stalker).toMatchObject({ state: "error", error: "Login failed: Invalid credentials" });
    expect((await call(startAction, { account_id: STALKER })).body.stalker).toMatchObject({ desired: "run", state: "connecting", error: null });
    expect(await rows()).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ actual: "waiting" });
  });
});
