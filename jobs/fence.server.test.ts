/**
 * The lock proof of jobs/fence.server.ts (decision 0028) without Redis: renewals are driven
 * through the Worker method BullMQ's lock manager calls (`extendJobLocks`), on a stand-in worker.
 */
import { Queue, Worker, type Job } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { getEnv } from "~/utils/env.server";
import { fencedProcessor, fenceTiming, fenceWorker, lockProof, trackLock, untrackLock } from "./fence.server";
import { createWorkerConnection, queuePrefix } from "../app/queue/redis.server";
import { workerTroubleLog } from "./worker-log.server";
import { deleteKeys, waitFor } from "./test-helpers";

afterAll(async () => {
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

const timing = fenceTiming(1_000); // let go after 700 ms without an accepted renewal
let n = 0;
function job() {
  n++;
  return { id: `job-${n}`, queueName: "stalker", processedOn: Date.now(), token: `token-${n}` };
}
type Extend = (ids: string[], tokens: string[], duration: number) => Promise<string[]>;
function fakeWorker(extend: Extend) {
  const w = { extendJobLocks: extend } as unknown as Worker;
  fenceWorker(w);
  return w as unknown as { extendJobLocks: Extend };
}
function busy(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // a stalled event loop
  }
}

describe("fencing: the lock proof (decision 0028)", () => {
  it("derives renew interval and margin from the one lock setting", () => {
    expect(fenceTiming(5_000)).toMatchObject({ lockDurationMs: 5_000, lockRenewTimeMs: 2_500, renewEveryMs: 1_250, marginMs: 1_500, letGoAfterMs: 3_500 });
  });

  it("accepted renewals keep the proof; a refused one lets go at once", async () => {
    const j = job();
    let refuse = false;
    const w = fakeWorker(async (ids) => (refuse ? ids : []));
    const proof = trackLock(j, j.token, timing);
    let lost = 0;
    proof.onLost(() => lost++);
    for (let i = 0; i < 6; i++) {
      await w.extendJobLocks([j.id], [j.token], 1_000);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(proof.proven()).toBe(true); // 1.5 s, well past 700 ms, still proven
    refuse = true;
    await w.extendJobLocks([j.id], [j.token], 1_000);
    expect(proof.proven()).toBe(false);
    expect(lost).toBe(1);
    untrackLock(j.token);
  });

  it("a renewal that never answers (Redis cut off) proves nothing: the watchdog lets go", async () => {
    const j = job();
    const w = fakeWorker(() => new Promise<string[]>(() => {}));
    const proof = trackLock(j, j.token, timing);
    let lostAt = 0;
    proof.onLost(() => (lostAt = Date.now()));
    void w.extendJobLocks([j.id], [j.token], 1_000);
    await waitFor("let go", () => lostAt > 0, 5_000, 20);
    expect(proof.lost).toBe(true);
    untrackLock(j.token);
  });

  it("with a real BullMQ worker and a reachable Redis, a job running three let-go ages stays proven", async () => {
    const t = fenceTiming(1_000);
    const connection = createWorkerConnection();
    const queue = new Queue("fence-probe", { connection, prefix: queuePrefix() });
    const worker = new Worker(
      "fence-probe",
      fencedProcessor(async (_job: Job, token?: string) => {
        const proof = lockProof(token)!;
        let unproven = 0;
        const until = Date.now() + 3 * t.letGoAfterMs;
        while (Date.now() < until) {
          if (!proof.proven()) unproven++;
          await new Promise((r) => setTimeout(r, 50));
        }
        return { unproven, lost: proof.lost };
      }, t),
      { connection: createWorkerConnection(), prefix: queuePrefix(), lockDuration: t.lockDurationMs, lockRenewTime: t.lockRenewTimeMs },
    );
    fenceWorker(worker);
    worker.on("error", () => {});
    try {
      const done = new Promise<unknown>((resolve) => worker.once("completed", (_job, result) => resolve(result)));
      await queue.add("probe", {});
      expect(await done).toEqual({ unproven: 0, lost: false });
    } finally {
      await worker.close();
      await queue.close();
      connection.disconnect();
    }
  }, 20_000);

  it("a stalled event loop is caught on wake, before any timer runs", () => {
    const j = job();
    const proof = trackLock(j, j.token, timing);
    expect(proof.proven()).toBe(true);
    busy(800);
    // Synchronously, right after the stall: no timer had a chance to run.
    expect(proof.proven()).toBe(false);
    untrackLock(j.token);
  });
});

describe("worker lock trouble in System Logs (issue 29 item 3)", () => {
  it("a burst of lock errors and stalls becomes one entry each", async () => {
    const entries: { message: string; details?: unknown }[] = [];
    const log = workerTroubleLog("w1", async (e) => void entries.push(e), { lockMs: 100, stallMs: 100 });
    for (let i = 0; i < 50; i++) {
      expect(log.lockError("stalker", new Error(`could not renew lock for job stalker-${i}`))).toBe(true);
      expect(log.lockError("stalker", new Error(`Missing lock for job stalker-${i}. moveToFinished`))).toBe(true);
      log.stalled("stalker", `stalker-${i}`);
    }
    expect(log.lockError("stalker", new Error("Connection is closed."))).toBe(false);
    await waitFor("entries", () => entries.length >= 2, 2_000, 20);
    await new Promise((r) => setTimeout(r, 200));
    expect(entries.map((e) => e.message).sort()).toEqual([
      "50 jobs on stalker lost their worker (it stopped, or was cut off from Redis and let go); they run again on another worker",
      "Job worker w1 lost the lock of 50 jobs on stalker: it could not reach Redis in time (cut off, or its event loop stalled), let them go, and other workers continue them",
    ]);
  });
});
