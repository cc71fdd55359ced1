/**
 * Queues, producers, schedulers and the system processor (issue "Foundation", item 6;
 * CONVENTIONS rule 10). Real Redis under this file's own QUEUE_PREFIX, real database.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { jobSteps, logs } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { runStepOnce, stepKey } from "../models/once.server";
import { PROCESSED_QUEUES } from "../../jobs/processors";
import { SESSION_QUEUES } from "../../jobs/session-host.server";
import { probeCompletedMessage } from "../../jobs/processors/system";
import { DEFAULT_JOB_OPTIONS, QUEUE_NAMES, SCHEDULERS, enqueue, getQueue, upsertSchedulers, type QueuePayloads } from "./queues.server";
import { deleteKeys, waitFor } from "../../jobs/test-helpers";
import { startWorkers, type WorkerPool } from "../../jobs/worker";

afterAll(async () => {
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

async function finished(queue: keyof QueuePayloads, jobId: string) {
  await waitFor(`job ${jobId} to finish`, async () => {
    const state = await getQueue(queue).getJobState(jobId);
    return state === "completed" || state === "failed";
  });
  // Read the job only now: a copy read before it finished lacks its return value.
  return (await getQueue(queue).getJob(jobId))!;
}

describe("queue names and payload types (one module names every queue)", () => {
  it("names the nine queues of the product (alerts since issue 31)", () => {
    expect([...QUEUE_NAMES].sort()).toEqual(["alerts", "automation", "bulk-refresh", "collections", "relay", "stalker", "status-refresh", "system", "trader"]);
  });

  it("only queues with a processor get a worker (system; status-refresh, bulk-refresh and the stalker sessions since issue 9; trader, automation, collections and relay since issues 11–13; alerts since issue 31)", () => {
    expect([...PROCESSED_QUEUES].sort()).toEqual([
      "alerts",
      "automation",
      "bulk-refresh",
      "collections",
      "relay",
      "stalker",
      "status-refresh",
      "system",
      "trader",
    ]);
  });

  it("every queue retries with backoff and keeps finished jobs for a bounded time and count", () => {
    for (const name of QUEUE_NAMES) {
      if ((SESSION_QUEUES as readonly string[]).includes(name)) continue; // session queues: see the next test
      const o = DEFAULT_JOB_OPTIONS[name];
      expect(o.attempts, name).toBeGreaterThan(1);
      expect(o.backoff, name).toMatchObject({ type: "exponential" });
      expect(o.removeOnComplete, name).toMatchObject({ age: expect.any(Number), count: expect.any(Number) });
      expect(o.removeOnFail, name).toMatchObject({ age: expect.any(Number), count: expect.any(Number) });
    }
  });
});

describe("session queues (jobs/session-host.server.ts)", () => {
  it("keep no finished job, so the idempotent id <purpose>-<accountId> is free again as soon as a session ends", () => {
    expect([...SESSION_QUEUES].sort()).toEqual(["collections", "relay", "stalker", "trader"]);
    for (const q of SESSION_QUEUES) expect(DEFAULT_JOB_OPTIONS[q], q).toEqual({ attempts: 1, removeOnComplete: true, removeOnFail: true });
  });
});

describe("enqueue()", () => {
  beforeEach(async () => {
    for (const name of QUEUE_NAMES) await getQueue(name).obliterate({ force: true });
  });

  it("adds a job named by the payload's kind, with the queue's default options", async () => {
    const payload: QueuePayloads["status-refresh"] = { kind: "statuses", actingAccountId: "12345678", force: true };
    const job = await enqueue("status-refresh", payload);
    expect(job.name).toBe("statuses");
    expect(job.data).toEqual(payload);
    expect(job.opts).toMatchObject({ attempts: 2, backoff: { type: "exponential", delay: 10_000 } });
    // No processor for this queue yet: the job waits instead of pretending to run.
    expect(await job.getState()).toBe("waiting");
  });

  it("idempotent job ids: adding the same jobId twice yields one job", async () => {
    const payload: QueuePayloads["stalker"] = { kind: "session", accountId: "87654321", reason: "start" };
    const a = await enqueue("stalker", payload, { jobId: "stalker-87654321" });
    const b = await enqueue("stalker", { ...payload, reason: "restore" }, { jobId: "stalker-87654321" });
    expect(b.id).toBe(a.id);
    expect(b.data).toMatchObject({ reason: "start" }); // enqueue() answers with the stored job
    const counts = await getQueue("stalker").getJobCounts("waiting", "active", "delayed");
    expect(counts).toEqual({ waiting: 1, active: 0, delayed: 0 });
    // The first add wins; the duplicate changed nothing.
    expect((await getQueue("stalker").getJob("stalker-87654321"))!.data).toMatchObject({ reason: "start" });
  });

  it("rejects job ids BullMQ cannot use (integers, ':')", async () => {
    const payload: QueuePayloads["system"] = { kind: "probe", ms: 0 };
    await expect(enqueue("system", payload, { jobId: "42" })).rejects.toThrow(/Invalid job id/);
    await expect(enqueue("system", payload, { jobId: "a:b" })).rejects.toThrow(/Invalid job id/);
    expect(await getQueue("system").count()).toBe(0);
  });
});

describe("job schedulers are upserted with stable ids", () => {
  it("upserting twice keeps one scheduler per id, with one next job", async () => {
    await upsertSchedulers();
    await upsertSchedulers();
    const schedulers = await getQueue("system").getJobSchedulers();
    // Redis lists them by next run, not in our order.
    expect(schedulers.map((s) => s.key).sort()).toEqual(SCHEDULERS.map((s) => s.id).sort());
    expect(schedulers.find((s) => s.key === "logs-cleanup-daily")).toMatchObject({ pattern: "30 3 * * *", name: "logs-cleanup" });
    expect(schedulers.find((s) => s.key === "backup-daily")).toMatchObject({ pattern: "10 4 * * *", name: "backup" });
    const delayed = await getQueue("system").getDelayed();
    expect(delayed.filter((j) => j.repeatJobKey === "logs-cleanup-daily")).toHaveLength(1);
  });
});

describe("the system queue's processor (probe, logs-cleanup)", () => {
  let pool: WorkerPool;
  beforeEach(async () => {
    await getQueue("system").obliterate({ force: true });
    pool = startWorkers({ mode: "in-process" });
  });
  afterEach(async () => {
    await pool.close(5_000);
  });

  it("a probe sleeps, then records 'Probe job <id> completed' once", async () => {
    const started = Date.now();
    const job = await enqueue("system", { kind: "probe", ms: 300 }, { jobId: `probe-unit-${started}` });
    const done = await finished("system", String(job.id));
    expect(await done.getState()).toBe("completed");
    expect(done.finishedOn! - done.processedOn!).toBeGreaterThanOrEqual(290);
    expect(done.returnvalue).toMatchObject({ sleptMs: 300, recordedAt: expect.any(String) });
    const db = await getDb();
    const rows = await db
      .select()
      .from(logs)
      .where(eq(logs.message, probeCompletedMessage(String(job.id))));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: "debug", source: "system" });
  });

  it("a re-run of a probe whose completion is already recorded does not record it again (exactly-once step)", async () => {
    // Delayed, so its step can be recorded as done (as an earlier, killed run would have) before it runs.
    const job = await getQueue("system").add("probe", { kind: "probe", ms: 0 }, { jobId: "probe-rerun", delay: 1_500 });
    await runStepOnce(stepKey(job, "record"), async () => ({ recordedAt: "2020-01-01T00:00:00.000Z" }));
    const done = await finished("system", String(job.id));
    expect(await done.getState()).toBe("completed");
    expect(done.returnvalue).toEqual({ sleptMs: 0, recordedAt: "2020-01-01T00:00:00.000Z" });
    const db = await getDb();
    expect(
      await db
        .select()
        .from(logs)
        .where(eq(logs.message, probeCompletedMessage("probe-rerun"))),
    ).toHaveLength(0);
  });

  it("a new job under an id used before records its own completion (step keys carry the job's creation time)", async () => {
    const first = await enqueue("system", { kind: "probe", ms: 0 }, { jobId: "probe-reused" });
    await finished("system", "probe-reused");
    await (await getQueue("system").getJob("probe-reused"))!.remove();
    const second = await enqueue("system", { kind: "probe", ms: 0 }, { jobId: "probe-reused" });
    expect(second.timestamp).not.toBe(first.timestamp);
    expect(await (await finished("system", "probe-reused")).getState()).toBe("completed");
    const db = await getDb();
    expect(
      await db
        .select()
        .from(logs)
        .where(eq(logs.message, probeCompletedMessage("probe-reused"))),
    ).toHaveLength(2);
  });

  it("logs-cleanup removes old and cleared entries (cleanupLogs) and old job steps, and says how many", async () => {
    const db = await getDb();
    await db.delete(logs);
    await db.delete(jobSteps);
    await db.insert(jobSteps).values([
      { key: "system:old@1:record", state: "done", startedAt: new Date(Date.now() - 31 * 86_400_000) },
      { key: "system:recent@2:record", state: "done", startedAt: new Date(Date.now() - 29 * 86_400_000) },
    ]);
    await db.insert(logs).values([
      { type: "info", source: "system", message: "ancient", timestamp: new Date(Date.now() - 400 * 86_400_000) },
      { type: "info", source: "system", message: "cleared", cleared: true },
      { type: "info", source: "system", message: "fresh" },
    ]);
    const job = await enqueue("system", { kind: "logs-cleanup" });
    const done = await finished("system", String(job.id));
    expect(await done.getState(), done.failedReason).toBe("completed");
    expect(done.returnvalue).toEqual({ removed: 2, jobSteps: 1, audit: 0 });
    expect((await db.select().from(jobSteps)).map((r) => r.key)).toEqual(["system:recent@2:record"]);
    const left = (await db.select().from(logs)).map((r) => r.message).sort();
    expect(left).toEqual(["Logs clean-up removed 2 entries", "fresh"]);
  });

  it("an unknown system job fails at once (no retries) and is logged as an error", async () => {
    const job = await getQueue("system").add("bogus", {}, { jobId: "bogus-1" });
    const done = await finished("system", String(job.id));
    expect(await done.getState()).toBe("failed");
    expect(done.attemptsMade).toBe(1);
    expect(done.failedReason).toBe('Unknown system job "bogus"');
    const db = await getDb();
    await waitFor("failure log row", async () => {
      const rows = await db
        .select()
        .from(logs)
        .where(and(eq(logs.type, "error"), eq(logs.message, 'Job bogus bogus-1 on queue system failed: Unknown system job "bogus"')));
      return rows.length === 1;
    });
  });
});
