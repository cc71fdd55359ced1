/**
 * Issue 29 "Holder liveness" (decision 0027): every view of a session joins its holder's beat.
 * A holder whose beat expires is shown "Worker lost · waiting for a worker" within the window,
 * never listed by /api/stalker/active, and the beat watcher announces it on the live bus;
 * sessions beyond every live worker's capacity say "all workers are full (N of M)"; a session
 * taken by another worker says "Moving to worker …" until it is up. Real PostgreSQL and Redis.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { PHASE_TEXTS, type SessionView } from "#api/sessions";
import { closeLive, liveBusUp, onLive, type LiveMessage } from "~/queue/live.server";
import { jobEngineDetails, resetJobEngineStatus, type HeartbeatRecord } from "~/queue/status.server";
import { beatAsWorker, deleteKeys, waitFor } from "#jobs/test-helpers";
import { getDb } from "~/db/client.server";
import { sessions, users } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { watchHoldersOnce } from "./session-liveness.server";
import { listSessions } from "./sessions-list.server";
import { claimSession, getSession, releaseSession, reportSession, startSession, waitingSummary } from "./session.server";
import { getBotStatus, RELAY_SESSION_ID } from "./galacord.server";
import { activeStalkerIds, getStalkerStatus } from "./stalker.server";
import { upsertUser } from "./user.server";

const A = "72000001";
const B = "72000002";
const C = "72000003";

/** Beats as jobs/worker.ts does (jobs/test-helpers.ts). */
const beat = (id: string, ttlMs: number, load: Pick<HeartbeatRecord, "sessions" | "capacity"> = {}) => beatAsWorker(id, ttlMs, load);

beforeEach(async () => {
  const db = await getDb();
  await db.delete(sessions);
  await db.delete(users);
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
  resetJobEngineStatus();
  for (const id of [A, B, C]) await upsertUser({ accountId: id, nick: `Nick${id}`, password: "pw", type: "stalker" });
});
afterAll(async () => {
  await closeLive();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

async function activeOn(key: string, worker: string) {
  await startSession("stalker", key);
  await claimSession("stalker", key, worker);
  await reportSession("stalker", key, worker, { actual: "active", planet: "Sirius" });
}

describe("holder liveness (issue 29)", () => {
  it("a holder whose beat expires: every view says worker lost within the window, /api/stalker/active drops it, the watcher publishes it", async () => {
    await beat("w-alive", 60_000);
    await beat("w-doomed", 1_500);
    await activeOn(A, "w-doomed");
    await activeOn(B, "w-alive");
    expect(await getStalkerStatus(A)).toMatchObject({ phase: "active", status: "Active", state: "active", holderAlive: true });
    expect(await activeStalkerIds()).toEqual([A, B]);

    const events: LiveMessage[] = [];
    const off = onLive((m) => events.push(m));
    try {
      await waitFor("the bus subscribed", () => liveBusUp(), 5_000, 20);
      const died = Date.now() + 1_500; // the beat's TTL: the worker "dies" now and its key lapses then
      // The watcher (every web process and worker runs it each second) notices the death.
      const lost = await waitFor("the watcher notices", async () => ((await watchHoldersOnce()).length ? true : undefined), 8_000, 200);
      expect(lost).toBe(true);
      // Within 6 s of its last beat, the views say so (the engine's cache is 1 s).
      await waitFor("the view says worker lost", async () => (await getStalkerStatus(A))?.phase === "waiting", Math.max(500, died + 6_000 - Date.now()), 100);
      expect(await getStalkerStatus(A)).toMatchObject({
        desired: "run",
        actual: "active", // as its dead holder last wrote it …
        phase: "waiting", // … but what every screen shows is the truth
        status: PHASE_TEXTS.workerLost,
        state: "connecting",
        holder: "w-doomed",
        holderAlive: false,
      });
      expect(await getStalkerStatus(B)).toMatchObject({ phase: "active" });
      expect(await activeStalkerIds()).toEqual([B]);
      // The watcher published A's view with the truth, so open pages change without a reload.
      const view = await waitFor(
        "the session event",
        () => events.find((e) => e.topic === "session" && e.key === A && (e.data as SessionView).phase === "waiting")?.data as SessionView | undefined,
        5_000,
        20,
      );
      expect(view).toMatchObject({ status: PHASE_TEXTS.workerLost, holderAlive: false });
      expect(events.some((e) => e.topic === "workers" && (e.data as { lost: string[] }).lost.includes("w-doomed"))).toBe(true);
      // Announced once: a second sweep (another process) finds nothing new.
      expect(await watchHoldersOnce()).toEqual([]);
      // The engine lists it as lost (for /api/health).
      resetJobEngineStatus();
      const jobs = await jobEngineDetails();
      expect(jobs.workers.map((w) => w.id)).toEqual(["w-alive"]);
      expect(jobs.lost).toMatchObject([{ id: "w-doomed", state: "lost", host: "test-host", pid: 4242 }]);
    } finally {
      off();
    }

    // Another worker takes it: "Moving to worker …" until it is up there.
    await claimSession("stalker", A, "w-alive");
    expect(await getStalkerStatus(A)).toMatchObject({ phase: "connecting", status: PHASE_TEXTS.moving("w-alive"), holderAlive: true });
    await reportSession("stalker", A, "w-alive", { actual: "active" });
    const up = await getSession("stalker", A);
    expect(up).toMatchObject({ phase: "active", status: "Active" });
    expect(up!.info.movedFrom).toBeUndefined();
  }, 30_000);

  it("sessions beyond every live worker's capacity say 'all workers are full (N of M)', never active; with no worker, that none runs", async () => {
    await startSession("stalker", C);
    expect(await getStalkerStatus(C)).toMatchObject({ phase: "waiting", status: PHASE_TEXTS.noWorker });
    expect(await waitingSummary()).toEqual({ keys: [`stalker:${C}`], text: PHASE_TEXTS.noWorker });

    await beat("w-full-1", 60_000, { sessions: { stalker: 1 }, capacity: { stalker: 1 } });
    await beat("w-full-2", 60_000, { sessions: { stalker: 1 }, capacity: { stalker: 1 } });
    await activeOn(A, "w-full-1");
    await activeOn(B, "w-full-2");
    resetJobEngineStatus();
    const full = "Waiting for a worker: all workers are full (2 of 2)";
    expect(await getStalkerStatus(C)).toMatchObject({ phase: "waiting", status: full, state: "connecting" });
    expect(await waitingSummary()).toEqual({ keys: [`stalker:${C}`], text: full });
    expect(await activeStalkerIds()).toEqual([A, B]);

    // Room on one of them: plain "Waiting for a worker" (it is about to be taken).
    await beat("w-full-2", 60_000, { sessions: { stalker: 1 }, capacity: { stalker: 5 } });
    resetJobEngineStatus();
    expect(await getStalkerStatus(C)).toMatchObject({ phase: "waiting", status: PHASE_TEXTS.waiting });
  });

  it("a session its runner let go of while it was still wanted waits for a worker: not 'Connecting' with nobody connecting", async () => {
    await beat("w-full-1", 60_000, { sessions: { stalker: 1 }, capacity: { stalker: 1 } });
    await activeOn(A, "w-full-1");
    await startSession("stalker", C);
    await claimSession("stalker", C, "w-full-1");
    expect(await getStalkerStatus(C)).toMatchObject({ phase: "connecting", status: PHASE_TEXTS.connecting });
    // The runner returned (the session still wanted): the holder is cleared, the row keeps "connecting".
    await releaseSession("stalker", C, "w-full-1", "stopped");
    resetJobEngineStatus();
    const full = "Waiting for a worker: all workers are full (1 of 1)";
    expect(await getStalkerStatus(C)).toMatchObject({ phase: "waiting", status: full });
    expect(await waitingSummary()).toEqual({ keys: [`stalker:${C}`], text: full });
    expect(await activeStalkerIds()).toEqual([A]);
    // The Sessions page's filter agrees (its phase is computed in SQL by the same rules).
    const waiting = await listSessions({ state: "waiting", page: 1 });
    expect(waiting.sessions.map((x) => [x.key, x.status])).toEqual([[C, full]]);
  });

  it("a reconnect wait is 'retrying' with its time, not 'connecting'", async () => {
    await beat("w-r", 60_000);
    await startSession("stalker", A);
    await claimSession("stalker", A, "w-r");
    const at = new Date(Date.now() + 12_000);
    await reportSession("stalker", A, "w-r", { actual: "reconnecting", attempt: 2, nextRetryAt: at, error: "Connection lost" });
    expect(await getStalkerStatus(A)).toMatchObject({ phase: "retrying", status: PHASE_TEXTS.retrying(at.toISOString()) });
    await reportSession("stalker", A, "w-r", { actual: "reconnecting", attempt: 3, nextRetryAt: null });
    expect(await getStalkerStatus(A)).toMatchObject({ phase: "connecting", status: "Connecting" });
  });

  it("GET /api/bot/status: a bot whose worker is lost is 'waiting' at the top level, with the words every screen shows (not 'starting')", async () => {
    await beat("w-bot", 60_000);
    await startSession("relay", RELAY_SESSION_ID);
    await claimSession("relay", RELAY_SESSION_ID, "w-bot");
    await reportSession("relay", RELAY_SESSION_ID, "w-bot", { actual: "active" });
    expect(await getBotStatus()).toMatchObject({ isRunning: true, state: "running", stateText: "Running" });

    await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX); // its beat is gone: the worker died
    resetJobEngineStatus();
    expect(await getBotStatus()).toMatchObject({ isRunning: false, state: "waiting", stateText: PHASE_TEXTS.workerLost, session: { phase: "waiting" } });

    await beat("w-bot", 60_000);
    const at = new Date(Date.now() + 12_000);
    await reportSession("relay", RELAY_SESSION_ID, "w-bot", { actual: "reconnecting", attempt: 2, nextRetryAt: at, error: "Connection lost" });
    resetJobEngineStatus();
    expect(await getBotStatus()).toMatchObject({ isRunning: false, state: "retrying", stateText: PHASE_TEXTS.retrying(at.toISOString()) });
  });
});
