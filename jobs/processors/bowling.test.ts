/**
 * The Bowling Bots refresh end to end (spec 1 §4 "Refresh control": fetch users, send the
 * user-agent map, per bowling user pic, status, gifts and collection in parallel with cache
 * skipped, then last-fetched; §5 user-agent rules; §8 toasts): a real worker (in-process, and a
 * child process killed with SIGKILL), PostgreSQL, Redis and the Galaxy simulator with faults.
 */
import { and, eq, like } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeLive, liveBusUp, onLive, type LiveMessage } from "~/queue/live.server";
import { closeQueues, getQueue } from "~/queue/queues.server";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "#jobs/test-helpers";
import { startWorkers } from "#jobs/worker";
import { refreshProgressWriter } from "#jobs/processors/refresh-progress";
import { startingProgress } from "~/models/refresh-progress.server";
import { startSimulator, type Simulator } from "#sim/server";
import { collectionCounts, giftStatsOf, resetServicesFigures, servicesState } from "#sim/services-data";
import { getDb } from "~/db/client.server";
import { appSettings, characterDetails, galaxyUserAgents, logs, users } from "~/db/schema";
import { getGalaxyServices, resetGalaxyServices } from "~/platform/galaxy-services.server";
import { resetUserAgentMemory } from "~/models/user-agent.server";
import { BOWLING_REFRESH_JOB_ID, bowlingRefreshNotice, getBowlingRefreshProgress, requestBowlingRefresh } from "~/models/bowling-refresh.server";
import { getLastFetched } from "~/models/bowling-user.server";
import { getCharacterDetails } from "~/models/character-details.server";
import { dailyTotals } from "~/models/daily-totals.server";
import { upsertUser } from "~/models/user.server";
import { callRoute, createTestOperator, makeRequest } from "#tests/kit";
import { loader as giftsLoader, type BowlingRow } from "~/routes/_app+/_bowling-bots+/gifts";
import { getEnv, resetEnv } from "~/utils/env.server";

let sim: Simulator;
const N = 5;
const bowling = () => sim.world.accounts.slice(0, N);
const HEADERS = JSON.stringify({ "X-Galaxy-Platform": "web", "X-Galaxy-User-Agent": "Mozilla/5.0 test" });

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
  process.env.GALAXY_WS_URL = sim.wsUrl;
  resetEnv();
  resetGalaxyServices();
});
afterAll(async () => {
  await closeLive();
  await closeQueues();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
  resetGalaxyServices();
  await sim.close();
});
beforeEach(async () => {
  sim.world.reset();
  resetServicesFigures(sim.world);
  resetGalaxyServices();
  resetUserAgentMemory();
  await getQueue("bulk-refresh").obliterate({ force: true });
  const db = await getDb();
  await db.delete(characterDetails);
  await db.delete(galaxyUserAgents);
  await db.delete(users);
  await db.delete(appSettings);
  await db.delete(logs);
  for (const [i, a] of bowling().entries()) {
    // account 0: no iHeaders (skipped in the user-agent map); account 1: unparsable iHeaders
    const iHeaders = i === 0 ? null : i === 1 ? "{not json" : HEADERS;
    await upsertUser({ accountId: a.id, nick: `B${i} ${a.nick}`, password: a.password, type: "bowling", iHeaders });
  }
  const [r, s] = sim.world.accounts.slice(N, N + 2);
  await upsertUser({ accountId: r!.id, nick: "Recipient", password: r!.password, type: "recipients" });
  await upsertUser({ accountId: s!.id, nick: "Supplier", password: s!.password, type: "suppliers" });
});

const counts = () => servicesState(sim.world).counts;
const config = () => getGalaxyServices().config;

async function refreshedLogRows() {
  const db = await getDb();
  return db
    .select()
    .from(logs)
    .where(and(eq(logs.source, "system"), like(logs.message, "Bowling data refreshed:%")));
}

async function runInProcess() {
  const pool = startWorkers({ mode: "in-process" });
  try {
    await requestBowlingRefresh();
    return await waitFor("bowling refresh finished", async () => {
      const p = await getBowlingRefreshProgress();
      return p && !p.running ? p : undefined;
    });
  } finally {
    await pool.close(5_000);
  }
}

describe("bowling refresh job (spec 1 §4 Refresh control flow)", () => {
  it("stores pic, status, gift stats and collection 151 of every bowling user (4 calls each, cache skipped), the user agents, last-fetched once, the daily totals", async () => {
    const before = Date.now();
    const progress = await runInProcess();
    expect(progress).toMatchObject({ running: false, done: N, total: N, failed: 0, outcome: "success", finishedAt: expect.any(String) });

    const details = await getCharacterDetails();
    for (const a of bowling()) {
      const d = details.get(a.id)!;
      expect(d.giftsFailed).toBe(false);
      expect(d.gifts!.map((g) => g.amount)).toEqual(giftStatsOf(sim.world, a.id).map((g) => g.amount));
      expect(typeof d.isOnline).toBe("boolean");
      const stats = d.collection!;
      expect([...stats.firstRow, ...stats.secondRow].map((i) => Number(i.count))).toEqual(collectionCounts(sim.world, a.id, 151));
    }
    // recipients and suppliers are not refreshed
    expect(details.size).toBe(N);
    const u = config().undocumented;
    expect(counts().get(u.giftStats.action)).toBe(N);
    expect(counts().get(u.onlineStatus.action)).toBe(N);
    expect(counts().get(u.collectionStats.action)).toBe(N);
    expect(counts().get(config().documented.userPics.action)).toBe(N);
    // each bowling user acts as itself; collection stats ask for 151
    const recent = servicesState(sim.world).recent;
    for (const r of recent.filter((x) => x.action !== u.dailyStats.action)) expect(r.userID).toBe(r.usercur);
    expect(recent.filter((r) => r.action === u.collectionStats.action).every((r) => r.params[u.collectionStats.collectionParam] === "151")).toBe(true);

    // spec 1 §5: without iHeaders skipped silently; unparsable iHeaders logged and skipped
    const db = await getDb();
    const agents = await db.select({ id: galaxyUserAgents.accountId }).from(galaxyUserAgents);
    expect(agents.map((a) => a.id).sort()).toEqual(
      bowling()
        .slice(2)
        .map((a) => a.id)
        .sort(),
    );
    const skippedLogs = await db.select().from(logs).where(like(logs.message, "Bowling refresh: user agent of%"));
    expect(skippedLogs.map((l) => l.message)).toEqual([`Bowling refresh: user agent of ${bowling()[1]!.id} skipped: iHeaders is not valid JSON`]);
    expect(skippedLogs[0]!.type).toBe("error");

    const lastFetched = await getLastFetched();
    expect(new Date(lastFetched!).getTime()).toBeGreaterThanOrEqual(before);
    expect(await refreshedLogRows()).toHaveLength(1);
    expect((await dailyTotals()).length).toBeGreaterThan(0);

    // cache skipped: a second refresh reaches the platform again
    resetServicesFigures(sim.world);
    await runInProcess();
    expect(counts().get(u.giftStats.action)).toBe(N);
    expect(await refreshedLogRows()).toHaveLength(2);
  });

  it("failures for some accounts: a warning naming them, last-fetched updated; never-loaded rows say 'Failed to load gifts'", async () => {
    const failing = [bowling()[2]!, bowling()[4]!];
    for (const a of failing) servicesState(sim.world).failAccounts.add(a.id);
    const progress = await runInProcess();
    expect(progress).toMatchObject({
      running: false,
      done: N,
      total: N,
      failed: 2,
      outcome: "partial",
      reason: expect.stringContaining("Simulated service failure"),
    });
    expect(progress.failedAccounts!.map((a) => `${a.accountId} ${a.nick}`).sort()).toEqual(
      [`${failing[0]!.id} B2 ${failing[0]!.nick}`, `${failing[1]!.id} B4 ${failing[1]!.nick}`].sort(),
    );
    expect(bowlingRefreshNotice(progress)).toEqual({
      type: "warning",
      message: expect.stringMatching(new RegExp(`^Data refreshed for 3 of ${N} accounts; 2 failed: B[24] .+, B[24] .+$`)),
      description: expect.stringContaining("Simulated service failure"),
    });
    const details = await getCharacterDetails();
    for (const a of bowling()) {
      if (failing.some((f) => f.id === a.id)) expect(details.get(a.id)).toMatchObject({ giftsFailed: true, gifts: null, collection: null });
      else expect(details.get(a.id)).toMatchObject({ giftsFailed: false, gifts: expect.any(Array) });
    }
    const db = await getDb();
    const [entry] = await db.select().from(logs).where(like(logs.message, "Bowling refresh: calls failed for%"));
    expect(entry!.message).toBe(`Bowling refresh: calls failed for 2 of ${N} accounts`);
    expect(await getLastFetched()).not.toBeNull();
  });

  it("issue 18 item 5: every account fails → 'Failed to refresh data' with the platform's reason, last-fetched unchanged, rows keep their last known figures marked stale, totals agree with the rows", async () => {
    const first = await runInProcess();
    expect(first.outcome).toBe("success");
    const lastFetched = await getLastFetched();
    const before = await getCharacterDetails();

    // Some fail first: the warning names them and last-fetched moves on.
    servicesState(sim.world).failAccounts.add(bowling()[0]!.id);
    await new Promise((r) => setTimeout(r, 5));
    const partial = await runInProcess();
    expect(partial).toMatchObject({ outcome: "partial", failed: 1, failedAccounts: [{ accountId: bowling()[0]!.id, nick: `B0 ${bowling()[0]!.nick}` }] });
    const afterPartial = await getLastFetched();
    expect(Date.parse(afterPartial!)).toBeGreaterThan(Date.parse(lastFetched!));

    // Then all of them.
    for (const a of bowling()) servicesState(sim.world).failAccounts.add(a.id);
    const progress = await runInProcess();
    expect(progress).toMatchObject({
      running: false,
      done: N,
      total: N,
      failed: N,
      outcome: "failure",
      reason: expect.stringContaining("Simulated service failure"),
    });
    expect(progress.failedAccounts).toHaveLength(N);
    expect(bowlingRefreshNotice(progress)).toEqual({
      type: "error",
      message: "Failed to refresh data",
      description: expect.stringMatching(new RegExp(`^All ${N} accounts failed: .*Simulated service failure`)),
    });
    expect(await getLastFetched()).toBe(afterPartial);
    const db = await getDb();
    expect(await db.select().from(logs).where(like(logs.message, "Bowling refresh failed: all 5 accounts failed%"))).toHaveLength(1);

    // The rows keep what they had (gifts, status, picture, collection), each part marked with its failure.
    const after = await getCharacterDetails();
    for (const a of bowling()) {
      const was = before.get(a.id)!;
      const now = after.get(a.id)!;
      expect(now).toMatchObject({ gifts: was.gifts, isOnline: was.isOnline, picUrl: was.picUrl, collection: was.collection, giftsFailed: true });
      // The age shown is that of the last success: account 0 also failed in the partial run.
      if (a.id === bowling()[0]!.id) expect(now.fetchedAt.gifts).toBe(was.fetchedAt.gifts);
      else expect(Date.parse(now.fetchedAt.gifts!)).toBeGreaterThan(Date.parse(was.fetchedAt.gifts!));
      expect(Object.keys(now.lastErrors).sort()).toEqual(["collection", "gifts", "pic", "status"]);
      expect(now.lastErrors.gifts!.reason).toContain("Simulated service failure");
    }

    // The page: every row shows its last known gifts with a stale mark and its age; totals are the rows' sums.
    const op = await createTestOperator({ name: `bowl-${Date.now()}` });
    const page = await callRoute<{ rows: BowlingRow[]; totals: { gifts: Array<{ type: number; amount: number }> } }>(
      giftsLoader,
      makeRequest("/gifts", { cookie: op.cookie }),
    );
    for (const row of page.data.rows) {
      expect(row.gifts).not.toBeNull();
      expect(row.stale).toMatchObject({ since: expect.any(String), reason: expect.stringContaining("Simulated service failure") });
      expect(row.stale!.parts.sort()).toEqual(["collection", "gifts", "pic", "status"]);
    }
    const summed = new Map<number, number>();
    for (const row of page.data.rows) for (const g of row.gifts!) summed.set(g.type, (summed.get(g.type) ?? 0) + g.amount);
    expect(new Map(page.data.totals.gifts.map((g) => [g.type, g.amount]))).toEqual(summed);

    // A later success clears the stale marks.
    servicesState(sim.world).failAccounts.clear();
    expect((await runInProcess()).outcome).toBe("success");
    expect([...(await getCharacterDetails()).values()].every((d) => Object.keys(d.lastErrors).length === 0 && !d.giftsFailed)).toBe(true);
  });

  it("while the platform has not answered, the progress is stored as running (n of N); then finished", async () => {
    // The platform holds its answers until the running state has been read (a 400 ms latency
    // left a window a loaded machine could miss).
    sim.world.setFaults({ hold: true });
    const pool = startWorkers({ mode: "in-process" });
    try {
      await requestBowlingRefresh();
      const mid = await waitFor("progress with a total while running", async () => {
        const p = await getBowlingRefreshProgress();
        return p?.running && p.total === N ? p : undefined;
      });
      expect(mid.done).toBeLessThan(N);
      expect(mid.outcome).toBeNull();
      // a click while refreshing is ignored: the same job, not a second one
      expect(await requestBowlingRefresh()).toEqual({ jobId: BOWLING_REFRESH_JOB_ID, started: false });
      sim.world.setFaults({ hold: false });
      const end = await waitFor("finished", async () => {
        const p = await getBowlingRefreshProgress();
        return p && !p.running ? p : undefined;
      });
      expect(end).toMatchObject({ done: N, total: N, outcome: "success" });
    } finally {
      await pool.close(5_000);
    }
  });

  it("two clicks (two tabs at once) start one job", async () => {
    const [a, b] = await Promise.all([requestBowlingRefresh(), requestBowlingRefresh()]);
    expect(a.jobId).toBe(BOWLING_REFRESH_JOB_ID);
    expect(b.jobId).toBe(BOWLING_REFRESH_JOB_ID);
    const counts = await getQueue("bulk-refresh").getJobCounts("waiting", "active", "delayed");
    expect(counts.waiting + counts.active + counts.delayed).toBe(1);
    expect(await getBowlingRefreshProgress()).toMatchObject({ running: true, done: 0, outcome: null });
    const job = await getQueue("bulk-refresh").getJob(BOWLING_REFRESH_JOB_ID);
    expect(job!.data).toMatchObject({ kind: "refresh", section: "bowling", skipCache: true });
    // no secrets in the job data
    for (const acc of bowling()) expect(JSON.stringify(job!.data)).not.toContain(acc.password);
  });
});

// Short locks so a killed worker's job counts as stalled within seconds (as jobs/worker.test.ts).
const FAST_STALL = { JOB_LOCK_DURATION_MS: "2000", JOB_STALLED_INTERVAL_MS: "1000", WORKER_HEARTBEAT_MS: "500" };

describe("bowling refresh with a worker killed mid-refresh (issue 10 Proof)", () => {
  const children: WorkerChild[] = [];
  const start = (env: Record<string, string> = {}) => {
    const w = spawnWorker({ ...FAST_STALL, GALAXY_SERVICES_URL: sim.servicesUrl, ...env });
    children.push(w);
    return w;
  };
  afterEach(() => {
    for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
  });
  const state = async () => (await (await getQueue("bulk-refresh").getJob(BOWLING_REFRESH_JOB_ID))?.getState()) ?? "missing";

  it("SIGKILL while the per-user calls run: a second worker finishes the job once, last-fetched set once", async () => {
    // The platform holds its answers, so the first worker is killed with its calls in flight
    // however slowly it got there (a 1.5 s latency left a window a loaded machine could miss).
    sim.world.setFaults({ hold: true });
    await requestBowlingRefresh();
    const first = start();
    await waitFor(`calls in flight on the first worker\n${first.output()}`, () => servicesState(sim.world).inFlight > 0, 30_000, 50);
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    expect(await getLastFetched()).toBeNull();
    expect(await getBowlingRefreshProgress()).toMatchObject({ running: true });
    sim.world.setFaults({ hold: false });

    const second = start();
    await waitFor(`job finished on the second worker\n${second.output()}`, async () => ["completed", "failed"].includes(await state()), 60_000, 200);
    const job = (await getQueue("bulk-refresh").getJob(BOWLING_REFRESH_JOB_ID))!;
    expect(await job.getState(), job.failedReason).toBe("completed");
    expect(job.attemptsStarted).toBe(2);
    expect(job.stalledCounter).toBe(1);
    expect(await refreshedLogRows()).toHaveLength(1);
    expect(await getLastFetched()).toBe(job.returnvalue.lastFetched);
    expect(await getBowlingRefreshProgress()).toMatchObject({ running: false, done: N, total: N, outcome: "success" });
    expect((await getCharacterDetails()).size).toBe(N);
    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);
  }, 120_000);

  it("SIGKILL right after last-fetched committed: the re-run does not set it again", async () => {
    await requestBowlingRefresh();
    // Test-only fault injection (app/models/once.server.ts): the worker kills itself after a step's effect committed.
    const first = start({ JOB_TEST_CRASH_AFTER_EFFECT: "1" });
    await waitFor(`the first worker to kill itself\n${first.output()}`, () => first.child.signalCode !== null || first.child.exitCode !== null, 60_000);
    expect(first.child.signalCode, first.output()).toBe("SIGKILL");
    const setByFirst = await getLastFetched();
    expect(setByFirst).not.toBeNull();
    expect(await state()).toBe("active");

    const second = start();
    await waitFor(`job finished on the second worker\n${second.output()}`, async () => ["completed", "failed"].includes(await state()), 60_000, 200);
    const job = (await getQueue("bulk-refresh").getJob(BOWLING_REFRESH_JOB_ID))!;
    expect(await job.getState(), job.failedReason).toBe("completed");
    expect(job.attemptsStarted).toBe(2);
    expect(await getLastFetched()).toBe(setByFirst);
    expect(job.returnvalue.lastFetched).toBe(setByFirst);
    expect(await refreshedLogRows()).toHaveLength(1);
    expect(await getBowlingRefreshProgress()).toMatchObject({ running: false, outcome: "success" });
    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);
  }, 120_000);
});

describe("live events of the refresh (issue 18 'Live pages')", () => {
  const children: WorkerChild[] = [];
  afterEach(() => {
    for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
  });

  it("a refresh run by a worker process publishes its progress and its end: onLive listeners here get `refresh:bowling`, the last one after the outcome is stored", async () => {
    const events: Array<{ message: LiveMessage; progress: Awaited<ReturnType<typeof getBowlingRefreshProgress>> }> = [];
    const off = onLive((message) => {
      if (message.topic !== "refresh" || message.scope !== "bowling") return;
      // What a page re-reading on this event would see.
      void getBowlingRefreshProgress().then((progress) => events.push({ message, progress }));
    });
    try {
      await waitFor("the live subscriber", () => liveBusUp(), 5_000, 20);
      sim.world.faults.latencyMs = 300;
      servicesState(sim.world).failAccounts.add(bowling()[1]!.id);
      const worker = spawnWorker({ GALAXY_SERVICES_URL: sim.servicesUrl });
      children.push(worker);
      await requestBowlingRefresh();
      const last = await waitFor(`the end's event\n${worker.output()}`, () => events.find((e) => e.progress && !e.progress.running), 60_000, 50);
      expect(last.progress).toMatchObject({ outcome: "partial", failed: 1, done: N });
      // The click (web side), running figures and the end: several events, each after its write.
      expect(events.length).toBeGreaterThanOrEqual(3);
      expect(events.some((e) => e.progress?.running && e.progress.total === N)).toBe(true);
      worker.child.kill("SIGTERM");
      expect((await worker.exited).code).toBe(0);
    } finally {
      off();
    }
  }, 90_000);

  it("the progress writer throttles: 200 accounts finishing at once make a few writes and events, the last figures always stored", async () => {
    let count = 0;
    const off = onLive((m) => void (m.topic === "refresh" && m.scope === "bowling" && count++));
    try {
      await waitFor("the live subscriber", () => liveBusUp(), 5_000, 20);
      const writer = refreshProgressWriter("bowling", startingProgress(new Date().toISOString()));
      for (let done = 1; done <= 200; done++) writer.update({ done, total: 200 });
      // The trailing write stores the latest figures without an end.
      await waitFor("the trailing write", async () => (await getBowlingRefreshProgress())?.done === 200, 10_000, 20);
      expect(await getBowlingRefreshProgress()).toMatchObject({ running: true, done: 200, total: 200 });
      await writer.end({ running: false, outcome: "success", finishedAt: new Date().toISOString() });
      await waitFor("the end's event", () => count >= 3, 10_000, 10);
      await new Promise((r) => setTimeout(r, 200));
      expect(count).toBe(3); // the first, the trailing one, the end
    } finally {
      off();
    }
  });
});
