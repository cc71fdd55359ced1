/**
 * The worker process (issue "Foundation", item 6): a job survives a worker restart, and
 * SIGTERM hands an active long job back to the queue (issue 30 A8) instead of waiting for it. Real Redis, a real worker child process
 * (`node --import tsx jobs/worker.ts`), the real database of this test file.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { enqueue, getQueue } from "../app/queue/queues.server";
import { probeCompletedMessage } from "./processors/system";
import { jobEngineDetails, resetJobEngineStatus } from "../app/queue/status.server";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "./test-helpers";

// Short locks so a killed worker's job counts as stalled within seconds, not 30 s.
const FAST_STALL = { JOB_LOCK_DURATION_MS: "2000", JOB_STALLED_INTERVAL_MS: "1000", WORKER_HEARTBEAT_MS: "500" };

const children: WorkerChild[] = [];
function start(env: Record<string, string> = {}) {
  const w = spawnWorker({ ...FAST_STALL, ...env });
  children.push(w);
  return w;
}

afterEach(() => {
  for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
});
afterAll(async () => {
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

async function completionRows(jobId: string) {
  const db = await getDb();
  return db
    .select()
    .from(logs)
    .where(and(eq(logs.source, "system"), eq(logs.type, "debug"), eq(logs.message, probeCompletedMessage(jobId))));
}

async function stateOf(jobId: string) {
  const job = await getQueue("system").getJob(jobId);
  return job ? await job.getState() : "missing";
}

describe("job engine: a job survives a worker restart (issue Foundation, item 6 test)", () => {
  it("a probe whose worker is SIGKILLed mid-job runs again on the next worker and completes exactly once", async () => {
    const job = await enqueue("system", { kind: "probe", ms: 3_000 }, { jobId: `probe-restart-${Date.now()}` });
    const jobId = String(job.id);

    const first = start();
    await waitFor(`job active on the first worker\n${first.output()}`, async () => (await stateOf(jobId)) === "active", 20_000);
    // Mid-job: the probe sleeps 3 s; kill the worker well before it can record anything.
    await new Promise((r) => setTimeout(r, 500));
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    expect(await stateOf(jobId)).toBe("active"); // orphaned: still locked by the dead worker
    expect(await completionRows(jobId)).toHaveLength(0);

    const second = start();
    await waitFor(`job completed on the second worker\n${second.output()}`, async () => (await stateOf(jobId)) === "completed", 30_000, 200);

    const done = (await getQueue("system").getJob(jobId))!;
    expect(done.attemptsMade).toBe(1); // one finished attempt…
    expect(done.attemptsStarted).toBe(2); // …started twice: once per worker
    expect(done.stalledCounter).toBe(1); // recovered from the stall once
    expect(done.returnvalue).toMatchObject({ sleptMs: 3_000 });
    const rows = await completionRows(jobId);
    expect(rows).toHaveLength(1);
    expect(rows[0].details).toMatchObject({ jobId, ms: 3_000, stalledCounter: 1 });

    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);
  }, 90_000);
});

describe("job engine: effects are not repeated and jobs are not dropped by worker crashes (issue 7, finding 8)", () => {
  it("a worker killed after the probe's effect committed, before the job completed: the next worker completes it without a second entry", async () => {
    const job = await enqueue("system", { kind: "probe", ms: 0 }, { jobId: `probe-crash-after-effect-${Date.now()}` });
    const jobId = String(job.id);

    // Test-only fault injection (app/models/once.server.ts): SIGKILL itself right after the effect's transaction committed.
    const first = start({ JOB_TEST_CRASH_AFTER_EFFECT: "1" });
    await waitFor(
      `the first worker to kill itself after the effect\n${first.output()}`,
      () => first.child.signalCode !== null || first.child.exitCode !== null,
      30_000,
    );
    expect(first.child.signalCode, first.output()).toBe("SIGKILL");
    expect(await stateOf(jobId)).toBe("active"); // the effect happened, the completion did not
    expect(await completionRows(jobId)).toHaveLength(1);

    const second = start();
    await waitFor(`job finished on the second worker\n${second.output()}`, async () => ["completed", "failed"].includes(await stateOf(jobId)), 30_000, 200);
    const done = (await getQueue("system").getJob(jobId))!;
    expect(await done.getState(), done.failedReason).toBe("completed");
    expect(done.attemptsStarted).toBe(2);
    expect(done.stalledCounter).toBe(1);
    const rows = await completionRows(jobId);
    expect(rows).toHaveLength(1);
    // The re-run handed back what the first run recorded instead of recording again.
    expect(done.returnvalue).toMatchObject({ sleptMs: 0, recordedAt: expect.any(String) });
    expect(new Date(done.returnvalue.recordedAt).getTime()).toBeLessThanOrEqual(done.finishedOn!);
    expect(rows[0].details).toMatchObject({ jobId, stalledCounter: 0 });

    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);
  }, 90_000);

  it("a job whose worker is SIGKILLed twice (two workers in a row) is completed by a third worker, not failed", async () => {
    const job = await enqueue("system", { kind: "probe", ms: 3_000 }, { jobId: `probe-two-kills-${Date.now()}` });
    const jobId = String(job.id);
    const heldBy = async (attempt: number) => {
      const j = await getQueue("system").getJob(jobId);
      return j !== undefined && (await j.getState()) === "active" && j.attemptsStarted === attempt;
    };

    for (const attempt of [1, 2]) {
      const w = start();
      await waitFor(`worker ${attempt} holding the job\n${w.output()}`, () => heldBy(attempt), 30_000, 100);
      w.child.kill("SIGKILL");
      expect((await w.exited).signal).toBe("SIGKILL");
      expect(await completionRows(jobId)).toHaveLength(0);
    }

    const third = start();
    await waitFor(`job finished on the third worker\n${third.output()}`, async () => ["completed", "failed"].includes(await stateOf(jobId)), 30_000, 200);
    const done = (await getQueue("system").getJob(jobId))!;
    expect(await done.getState(), done.failedReason).toBe("completed");
    expect(done.stalledCounter).toBe(2);
    expect(done.attemptsStarted).toBe(3);
    expect(done.attemptsMade).toBe(1);
    const rows = await completionRows(jobId);
    expect(rows).toHaveLength(1);
    expect(rows[0].details).toMatchObject({ jobId, ms: 3_000, stalledCounter: 2 });

    third.child.kill("SIGTERM");
    expect((await third.exited).code).toBe(0);
  }, 120_000);
});

describe("job engine: graceful shutdown on SIGTERM / SIGINT (issue Foundation, item 6)", () => {
  it("SIGTERM mid-job hands the job back (issue 30 A8): exits 0 without waiting for it, removes the heartbeat; the next worker completes it once", async () => {
    // Its natural end is 8 s away; a worker that waited for it would complete it before exiting.
    const job = await enqueue("system", { kind: "probe", ms: 8_000 }, { jobId: `probe-sigterm-${Date.now()}` });
    const jobId = String(job.id);
    const w = start();
    await waitFor(`job active\n${w.output()}`, async () => (await stateOf(jobId)) === "active", 20_000);
    resetJobEngineStatus();
    expect((await jobEngineDetails()).worker).toBe("running");

    w.child.kill("SIGTERM");
    const { code } = await w.exited;
    expect(code, w.output()).toBe(0);
    // Back in the queue, neither completed nor failed nor dropped (jobs/closing.server.ts).
    expect(["delayed", "waiting"]).toContain(await stateOf(jobId));
    expect(await completionRows(jobId)).toHaveLength(0);
    expect(w.output()).not.toContain("did not finish");

    resetJobEngineStatus();
    const after = await jobEngineDetails();
    expect(after.worker).toBe("stopped");
    expect(after.lastHeartbeat).not.toBeNull();

    const next = start();
    await waitFor(`job completed on the next worker\n${next.output()}`, async () => (await stateOf(jobId)) === "completed", 60_000, 200);
    expect(await completionRows(jobId)).toHaveLength(1);
    const done = (await getQueue("system").getJob(jobId))!;
    expect(done.attemptsMade).toBe(1);
    expect(done.stalledCounter).toBe(0); // handed back, not found stalled
    next.child.kill("SIGTERM");
    expect((await next.exited).code).toBe(0);
  }, 120_000);

  it("SIGINT on an idle worker exits 0 at once", async () => {
    const w = start();
    await waitFor(`worker heartbeat\n${w.output()}`, async () => {
      resetJobEngineStatus();
      return (await jobEngineDetails()).workers.some((x) => x.pid === w.child.pid);
    });
    w.child.kill("SIGINT");
    expect((await w.exited).code).toBe(0);
    expect(w.output()).toContain("SIGINT: finishing active jobs, then exiting");
  }, 60_000);
});
