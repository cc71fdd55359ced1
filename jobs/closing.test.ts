/**
 * A closing worker hands its long jobs back (issue 30 A8; jobs/closing.server.ts): Ctrl-C
 * printed "active jobs did not finish within 6000 ms" while a refresh or an Auto cycle ran on.
 * A real in-process pool (startWorkers), PostgreSQL, Redis and the Galaxy simulator: close()
 * is called while the job is mid-run and must resolve with the job neither completed nor
 * failed (its natural end lies seconds ahead); a second pool then runs it to its end, and
 * nothing it did before is repeated (no gift sent twice, no mastic run twice).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Job } from "bullmq";
import { eq } from "drizzle-orm";
import { closeLive } from "~/queue/live.server";
import { closeQueues, getQueue } from "~/queue/queues.server";
import { startSimulator, type Simulator } from "#sim/server";
import { inventoryOf, resetServicesFigures, servicesState, type RequestRecord } from "#sim/services-data";
import { createTestOperator } from "#tests/kit/auth";
import { getDb } from "~/db/client.server";
import { appSettings, characterDetails, logs, users } from "~/db/schema";
import { resetGalaxyServices } from "~/platform/galaxy-services.server";
import { cycleJobId, startAuto } from "~/models/automation.server";
import { BOWLING_REFRESH_JOB_ID, getBowlingRefreshProgress, requestBowlingRefresh } from "~/models/bowling-refresh.server";
import { getLastFetched } from "~/models/bowling-user.server";
import { getCharacterDetails } from "~/models/character-details.server";
import { CHARACTERS_REFRESH_JOB_ID, getCharactersRefreshProgress, requestCharactersRefresh } from "~/models/character-refresh.server";
import { getState, listActivity, saveProfile, updateState } from "~/models/collections.server";
import { upsertUser } from "~/models/user.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { deleteKeys, waitFor } from "./test-helpers";
import { startWorkers, type WorkerPool } from "./worker";

let sim: Simulator;
const pools: WorkerPool[] = [];
function pool() {
  const p = startWorkers({ mode: "in-process" });
  pools.push(p);
  return p;
}
/** Generous: a close that waited for the job's natural end would end long before this. */
const CLOSE_LIMIT_MS = 60_000;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
  process.env.GALAXY_WS_URL = sim.wsUrl;
  // Auto's real timings: after mastic a cycle has three 2-s waits ahead, so a close that waited
  // for it would see it complete, even on a loaded machine.
  process.env.COLLECTIONS_TIME_SCALE = "1";
  resetEnv();
  resetGalaxyServices();
});
afterEach(async () => {
  // A test that failed half-way leaves no pool behind to take the next test's jobs.
  for (const p of pools.splice(0)) await p.close(5_000);
});
afterAll(async () => {
  await closeLive();
  await closeQueues();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
  resetGalaxyServices();
  await sim.close();
});
beforeEach(() => {
  sim.world.reset();
  sim.world.faults.latencyMs = 0;
  resetServicesFigures(sim.world);
  resetGalaxyServices();
});

async function stateOf(job: Job | undefined) {
  return job ? job.getState() : "missing";
}

describe("a closing worker hands its long jobs back (issue 30 A8)", () => {
  it("the characters Refresh: close() ends while its calls wait; the job goes back to the queue and the next worker completes it", async () => {
    const db = await getDb();
    await db.delete(characterDetails);
    await db.delete(users);
    await db.delete(appSettings);
    const accounts = sim.world.accounts.slice(0, 4);
    for (const [i, a] of accounts.entries()) await upsertUser({ accountId: a.id, nick: `C${i} ${a.nick}`, password: a.password, type: "bowling" });
    const op = await createTestOperator({ name: "closing-refresh" });
    // Every platform answer takes 10 s: the refresh's natural end is far away when the close comes.
    sim.world.faults.latencyMs = 10_000;
    const first = pool();
    await requestCharactersRefresh({ operatorId: op.id, force: true });
    const queue = getQueue("bulk-refresh");
    await waitFor("the refresh running, its calls sent", async () => {
      const p = await getCharactersRefreshProgress();
      return p?.running && p.total === 4 && (await stateOf(await queue.getJob(CHARACTERS_REFRESH_JOB_ID))) === "active";
    });

    await first.close(CLOSE_LIMIT_MS);
    const job = await queue.getJob(CHARACTERS_REFRESH_JOB_ID);
    // Back in the queue, neither completed nor failed, and nothing written with an "aborted" reason.
    expect(["delayed", "waiting"]).toContain(await stateOf(job));
    expect(job!.attemptsMade).toBe(0);
    expect((await getCharactersRefreshProgress())?.running).toBe(true);
    expect((await getCharacterDetails()).size).toBe(0);

    sim.world.faults.latencyMs = 0;
    pool();
    const end = await waitFor("the refresh finished on the next worker", async () => {
      const p = await getCharactersRefreshProgress();
      return p && !p.running ? p : undefined;
    });
    expect(end).toMatchObject({ outcome: "success", done: 4, total: 4, failed: 0 });
    // The job is marked completed once its handler has returned, a Redis round trip after the progress it wrote.
    await waitFor("the refresh job completed", async () => (await stateOf(await queue.getJob(CHARACTERS_REFRESH_JOB_ID))) === "completed", 10_000);
    const details = await getCharacterDetails();
    for (const a of accounts) expect(details.get(a.id)).toMatchObject({ gifts: expect.any(Array), giftsFailed: false });
  }, 120_000);

  it("the Bowling Bots refresh: close() ends while its calls wait; no failure logged, last-fetched untouched; the next worker completes it", async () => {
    const db = await getDb();
    await db.delete(characterDetails);
    await db.delete(users);
    await db.delete(appSettings);
    await db.delete(logs);
    const accounts = sim.world.accounts.slice(0, 3);
    for (const [i, a] of accounts.entries()) await upsertUser({ accountId: a.id, nick: `B${i} ${a.nick}`, password: a.password, type: "bowling" });
    sim.world.faults.latencyMs = 10_000;
    const first = pool();
    await requestBowlingRefresh();
    const queue = getQueue("bulk-refresh");
    await waitFor("the bowling refresh running", async () => {
      const p = await getBowlingRefreshProgress();
      return p?.running && p.total === 3 && (await stateOf(await queue.getJob(BOWLING_REFRESH_JOB_ID))) === "active";
    });

    await first.close(CLOSE_LIMIT_MS);
    expect(["delayed", "waiting"]).toContain(await stateOf(await queue.getJob(BOWLING_REFRESH_JOB_ID)));
    expect((await getBowlingRefreshProgress())?.running).toBe(true);
    expect(await getLastFetched()).toBeNull();
    const errors = await db.select().from(logs).where(eq(logs.type, "error"));
    expect(errors.map((r) => r.message)).toEqual([]);

    sim.world.faults.latencyMs = 0;
    pool();
    const end = await waitFor("the bowling refresh finished on the next worker", async () => {
      const p = await getBowlingRefreshProgress();
      return p && !p.running ? p : undefined;
    });
    expect(end).toMatchObject({ outcome: "success", done: 3, total: 3, failed: 0 });
    expect(await getLastFetched()).not.toBeNull();
  }, 120_000);

  it("an Auto cycle: close() ends in the wait after mastic; the next worker continues the cycle without running mastic or sending a gift again", async () => {
    const sender = sim.world.accounts[0]!;
    const recipient = sim.world.accounts[1]!;
    const op = await createTestOperator({ name: "closing-auto" });
    const profile = await saveProfile(op.id, { accountId: sender.id, nick: sender.nick, password: sender.password, loginMethod: "recovery" });
    await updateState(op.id, { profileId: profile.id, collectionId: 178, recipientId: recipient.id });
    const seen = new Set<RequestRecord>();
    const collect = () => servicesState(sim.world).recent.forEach((r) => seen.add(r));
    const mine = (action: string) => {
      collect();
      return [...seen].filter((r) => r.userID === sender.id && r.action === action);
    };
    const pieces = (id: string) =>
      inventoryOf(sim.world, id)
        .filter((i) => i.goodsId !== undefined && Math.floor(i.goodsId / 1000) === 178)
        .map((i) => i.goodId);
    const stock = pieces(sender.id);

    const first = pool();
    const chain = await startAuto(op.id, { repeat: 1, intervalSeconds: 5 });
    const queue = getQueue("automation");
    const jobId = cycleJobId(chain, 1);
    // The 16th mastic request answered: the cycle is in (or about to start) its 2-s wait before status.
    await waitFor("mastic done", () => mine("collection_mastic_ajax").length === 16, 30_000, 20);

    await first.close(CLOSE_LIMIT_MS);
    const job = await queue.getJob(jobId);
    expect(["delayed", "waiting"]).toContain(await stateOf(job));
    expect(job!.attemptsMade).toBe(0);
    const texts = async () => (await listActivity(op.id, 50)).map((e) => e.message);
    expect((await texts()).some((m) => m.endsWith("cycle completed"))).toBe(false);
    expect(mine("present_make")).toEqual([]);
    expect((await getState(op.id)).auto).toBe(true);

    pool();
    await waitFor(
      "the cycle finished on the next worker",
      async () => {
        collect();
        const s = await getState(op.id);
        return !s.auto && s.autoChain === null;
      },
      60_000,
      100,
    );
    const log = await texts();
    expect(log.filter((m) => m.endsWith("cycle completed"))).toEqual(["Cycle 1 of 1: cycle completed"]);
    // Not a lost worker: a hand-back says nothing on the Activity Log.
    expect(log.filter((m) => /worker lost/i.test(m))).toEqual([]);
    expect(mine("collection_mastic_ajax")).toHaveLength(16);
    const sent = mine("present_make")
      .flatMap((r) => Object.keys(r.params).flatMap((k) => /^checked_items\[(\d+)\]$/.exec(k)?.[1] ?? []))
      .map(Number);
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent).toHaveLength(stock.length + 16);
    expect(pieces(sender.id)).toEqual([]);
    // Marked completed once the handler has returned, after the state it wrote (a profiled run at load 10 read "active").
    await waitFor("the cycle's job completed", async () => (await stateOf(await queue.getJob(jobId))) === "completed", 10_000);
  }, 120_000);
});
