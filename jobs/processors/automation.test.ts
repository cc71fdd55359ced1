/**
 * Collections Auto mode end to end (spec 2 §4 "Automation", §9): cycles as jobs on the
 * `automation` queue run by a real worker child process (`node --import tsx jobs/worker.ts`)
 * against the Galaxy simulator, with short timings (COLLECTIONS_TIME_SCALE). Checked in the
 * simulator's request log and per-account inventories: the order of the steps and the waits
 * between them, the run counter, the end at the repeat count, Auto off, and a worker SIGKILLed
 * around a send → no gift sent twice.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { inventoryOf, resetServicesFigures, servicesState, type RequestRecord } from "#sim/services-data";
import { createTestOperator } from "#tests/kit/auth";
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { collectionsProfiles } from "~/db/schema";
import { cycleJobId, startAuto, stopAuto } from "~/models/automation.server";
import { getState, listActivity, saveProfile, updateState } from "~/models/collections.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { getQueue } from "../queues.server";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "../test-helpers";

const SCALE = 0.05; // step wait 100 ms, first cycle 25 ms, interval 5 s → 250 ms
const STEP_WAIT_MS = 2_000 * SCALE;
const FAST_STALL = { JOB_LOCK_DURATION_MS: "2000", JOB_STALLED_INTERVAL_MS: "1000", WORKER_HEARTBEAT_MS: "500" };

let sim: Simulator;
const children: WorkerChild[] = [];
function start(env: Record<string, string> = {}) {
  const w = spawnWorker({ ...FAST_STALL, COLLECTIONS_TIME_SCALE: String(SCALE), GALAXY_SERVICES_URL: sim.servicesUrl, ...env });
  children.push(w);
  return w;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
  process.env.COLLECTIONS_TIME_SCALE = String(SCALE);
  resetEnv();
});
beforeEach(() => {
  sim.world.reset();
  resetServicesFigures(sim.world);
});
afterEach(() => {
  for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
});
afterAll(async () => {
  await sim.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

const pieces = (id: string, set: number) =>
  inventoryOf(sim.world, id)
    .filter((i) => i.goodsId !== undefined && Math.floor(i.goodsId / 1000) === set)
    .map((i) => i.goodId);
const requestsOf = (id: string) => servicesState(sim.world).recent.filter((r) => r.userID === id);
const sentIds = (records: RequestRecord[]) =>
  records
    .filter((r) => r.action === "present_make")
    .flatMap((r) => Object.keys(r.params).flatMap((k) => /^checked_items\[(\d+)\]$/.exec(k)?.[1] ?? []))
    .map(Number);

/** An operator logged in to the Collections screen as `sender`, recipient set. */
async function setup(senderIndex: number, recipientIndex: number) {
  const sender = sim.world.accounts[senderIndex]!;
  const recipient = sim.world.accounts[recipientIndex]!;
  const op = await createTestOperator();
  const profile = await saveProfile(op.id, { accountId: sender.id, nick: sender.nick, password: sender.password, loginMethod: "recovery" });
  await updateState(op.id, { profileId: profile.id, collectionId: 178, recipientId: recipient.id });
  return { op, sender, recipient };
}

async function finished(operatorId: string, output: () => string) {
  await waitFor(
    `Auto to finish\n${output()}`,
    async () => {
      const s = await getState(operatorId);
      return !s.auto && s.autoChain === null;
    },
    60_000,
    100,
  );
}

describe("Auto cycles as jobs (spec 2 §4 'Automation')", () => {
  it("runs mastic → 2 s → status → 2 s → send gifts in stock → 2 s → status → 'cycle completed', counts runs and stops at the repeat count", async () => {
    const { op, sender, recipient } = await setup(0, 1);
    const stock = pieces(sender.id, 178);
    const recipientBefore = pieces(recipient.id, 178);
    const w = start();
    await startAuto(op.id, { repeat: 2, intervalSeconds: 5 });
    await finished(op.id, w.output);

    const state = await getState(op.id);
    expect(state.runCount).toBe(2);
    const log = await listActivity(op.id, 50);
    const texts = log.map((e) => e.message);
    expect(texts.filter((m) => m.endsWith("cycle completed"))).toEqual(["Cycle 2 of 2: cycle completed", "Cycle 1 of 2: cycle completed"]);
    expect(texts[0]).toBe("Auto finished: 2 of 2 cycles");
    expect(log.filter((e) => e.message.endsWith("cycle completed")).every((e) => e.status === "success")).toBe(true);

    // Order and waits, per cycle, in the simulator's request log.
    const reqs = requestsOf(sender.id).filter((r) => ["collection_mastic_ajax", "collection_stats_ajax", "present_make"].includes(r.action));
    const phases: Array<{ action: string; first: number; last: number }> = [];
    for (const r of reqs) {
      const top = phases.at(-1);
      if (top && top.action === r.action) top.last = r.at;
      else phases.push({ action: r.action, first: r.at, last: r.at });
    }
    // Cycle 1: mastic, status, (the send plan reads the set's definition: a status), send, status; cycle 2: the same (nothing
    // left to send but the 16 new pieces).
    const names = phases.map((ph) => ph.action.replace("collection_", "").replace("_ajax", ""));
    expect(names).toEqual(["mastic", "stats", "present_make", "stats", "mastic", "stats", "present_make", "stats"]);
    expect(reqs.filter((r) => r.action === "collection_mastic_ajax")).toHaveLength(32); // 16 per run (spec 2 §9)
    for (const c of [0, 4]) {
      expect(phases[c + 1]!.first - phases[c]!.last).toBeGreaterThanOrEqual(STEP_WAIT_MS); // mastic → 2 s → status
      expect(phases[c + 2]!.first - phases[c + 1]!.first).toBeGreaterThanOrEqual(STEP_WAIT_MS); // status → 2 s → send
      expect(phases[c + 3]!.last - phases[c + 2]!.last).toBeGreaterThanOrEqual(STEP_WAIT_MS); // send → 2 s → status
    }
    expect(phases[4]!.first - phases[3]!.last).toBeGreaterThanOrEqual(5 * 1000 * SCALE - 50); // the interval

    // Items moved, each exactly once: the sender's stock and its 32 mastic pieces are now the recipient's.
    const sent = sentIds(requestsOf(sender.id));
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent).toHaveLength(stock.length + 32);
    expect(pieces(sender.id, 178)).toEqual([]);
    expect(pieces(recipient.id, 178).sort()).toEqual([...recipientBefore, ...sent].sort());
    expect(state.items).toHaveLength(16);
    expect(state.items!.every((i) => i.count === 0)).toBe(true);

    w.child.kill("SIGTERM");
    await w.exited;
  }, 90_000);

  it("Auto off stops after the current step: no send and no further cycle", async () => {
    process.env.COLLECTIONS_TIME_SCALE = "0.25"; // step wait 500 ms
    try {
      const { op, sender } = await setup(2, 3);
      const w = start({ COLLECTIONS_TIME_SCALE: "0.25" });
      await startAuto(op.id, { repeat: 0, intervalSeconds: 5 });
      await waitFor(`the cycle to reach the status step\n${w.output()}`, async () => (await getState(op.id)).autoStep === "status", 30_000, 20);
      await stopAuto(op.id);
      await waitFor("the cycle to stop", async () => (await listActivity(op.id, 20)).find((e) => /stopped after/.test(e.message)), 30_000);
      const stoppedAt = (await listActivity(op.id, 20)).find((e) => /stopped after/.test(e.message))!;
      expect(stoppedAt.message).toMatch(/^Cycle 1 stopped after (mastic|status) \(Auto off\)$/);
      await new Promise((r) => setTimeout(r, 1_500));
      const reqs = requestsOf(sender.id);
      expect(reqs.filter((r) => r.action === "present_make")).toHaveLength(0);
      expect(reqs.filter((r) => r.action === "collection_mastic_ajax")).toHaveLength(16);
      const s = await getState(op.id);
      expect(s.auto).toBe(false);
      expect(s.runCount).toBe(1);
      w.child.kill("SIGTERM");
      await w.exited;
    } finally {
      process.env.COLLECTIONS_TIME_SCALE = String(SCALE);
    }
  }, 90_000);
});

describe("a cycle that keeps failing for an unexpected reason (spec 2 §4 'Automation'; docs/collections.md)", () => {
  it("is retried with Auto still on; on the last attempt Auto is switched off and the failure is logged once", async () => {
    const { op, sender } = await setup(7, 8);
    const chain = await startAuto(op.id, { repeat: 0, intervalSeconds: 5 });
    // Not a platform error: the stored password cannot be decrypted (the worker throws on every attempt).
    await (await getDb()).update(collectionsProfiles).set({ password: "v1:AAAA:BBBB:CCCC" }).where(eq(collectionsProfiles.accountId, sender.id));
    const w = start();
    const attempts = getQueue("automation").defaultJobOptions.attempts ?? 1;
    expect(attempts).toBeGreaterThan(1);
    const job = async () => (await getQueue("automation").getJob(cycleJobId(chain, 1)))!;

    // After the first failed attempt the job waits for its retry and Auto stays on.
    await waitFor(`the first attempt to fail\n${w.output()}`, async () => (await job()).attemptsMade >= 1, 30_000, 50);
    expect((await job()).attemptsMade).toBeLessThan(attempts); // its retry waits 2 s (the queue's backoff)
    expect(await getState(op.id)).toMatchObject({ auto: true, autoChain: chain });
    expect((await listActivity(op.id, 20)).map((e) => e.message).filter((m) => m.startsWith("Auto stopped"))).toEqual([]);

    await waitFor(`the job to fail for good\n${w.output()}`, async () => (await (await job()).getState()) === "failed", 60_000, 100);
    const failed = await job();
    expect(failed.attemptsMade).toBe(attempts);
    const s = await getState(op.id);
    expect(s).toMatchObject({ auto: false, autoChain: null, autoStep: null });
    const stopped = (await listActivity(op.id, 20)).filter((e) => e.message.startsWith("Auto stopped"));
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatchObject({ status: "error" });
    expect(stopped[0]!.message).toMatch(/^Auto stopped: cycle 1 failed \(.+\)$/);
    // Nothing reached the platform, and no further cycle was queued.
    expect(requestsOf(sender.id).filter((r) => ["collection_mastic_ajax", "present_make"].includes(r.action))).toEqual([]);
    expect(await getQueue("automation").getJob(cycleJobId(chain, 2))).toBeUndefined();
    w.child.kill("SIGTERM");
    await w.exited;
  }, 90_000);
});

describe("a gift is never sent twice (issue 12: a worker SIGKILLed mid-cycle)", () => {
  it.each([
    ["after-send", "right after the platform accepted the send, before it was recorded"],
    ["before-send", "after the intent was recorded, before the send call"],
  ])(
    "worker killed %s (%s): the next worker finishes the cycle, each gift moved exactly once",
    async (crash) => {
      const { op, sender, recipient } = await setup(crash === "after-send" ? 4 : 5, 6);
      const stock = pieces(sender.id, 178);
      const recipientBefore = pieces(recipient.id, 178);
      const first = start({ COLLECTIONS_TEST_CRASH: crash });
      await startAuto(op.id, { repeat: 1, intervalSeconds: 5 });
      const exit = await first.exited;
      expect(exit.signal, first.output()).toBe("SIGKILL");
      const sentByFirst = sentIds(requestsOf(sender.id));
      expect(sentByFirst).toHaveLength(crash === "after-send" ? Math.min(stock.length + 16, 50) : 0);

      const second = start();
      await finished(op.id, second.output);
      const all = sentIds(requestsOf(sender.id));
      expect(new Set(all).size).toBe(all.length); // no id in two sends
      expect(requestsOf(sender.id).filter((r) => r.action === "present_make")).toHaveLength(Math.ceil((stock.length + 16) / 50));
      expect(all).toHaveLength(stock.length + 16);
      expect(pieces(sender.id, 178)).toEqual([]);
      const got = pieces(recipient.id, 178);
      expect(new Set(got).size).toBe(got.length);
      expect(got.sort()).toEqual([...recipientBefore, ...all].sort());
      // Mastic ran once: the re-run did not repeat it.
      expect(requestsOf(sender.id).filter((r) => r.action === "collection_mastic_ajax")).toHaveLength(16);

      const s = await getState(op.id);
      expect(s.runCount).toBe(1);
      expect((await listActivity(op.id, 20)).map((e) => e.message)).toContain("Cycle 1 of 1: cycle completed");
      const jobs = await getQueue("automation").getJobs(["completed"]);
      const job = jobs.find((j) => j.data.operatorId === op.id)!;
      expect(job.attemptsStarted).toBe(2);
      expect(job.stalledCounter).toBe(1);
      second.child.kill("SIGTERM");
      await second.exited;
    },
    90_000,
  );
});
