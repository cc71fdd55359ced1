/**
 * System Logs for a worker's lock trouble, one entry per burst (issue 29 item 3; decision 0028).
 *
 * A worker cut off from Redis loses the lock of every job it held at once, and BullMQ says so
 * per job and per call ("could not renew lock for job …", "Missing lock for job …"): one 30 s
 * partition wrote ~100 System Logs entries. The worker that takes the jobs back hears one
 * "stalled" event per job. Both are one fact each, so each burst becomes one entry with the
 * count and the queues, in words that are true whichever happened: the worker that took the
 * jobs back cannot tell a dead holder from one that was cut off and let go.
 */
import { logEvent } from "~/models/log.server";

/** How long a burst collects before its one entry is written. */
const LOCK_BURST_MS = 5_000;
const STALL_BURST_MS = 2_000;
/** Job ids named in an entry's details at most. */
const MAX_IDS = 20;

const LOCK_ERROR = /could not renew lock for job|Missing lock for job|Lock mismatch for job|lock lost/i;

type Burst = { queues: Set<string>; jobIds: Set<string>; count: number; timer: NodeJS.Timeout };

type Log = typeof logEvent;

export function workerTroubleLog(workerId: string, log: Log = logEvent, windows = { lockMs: LOCK_BURST_MS, stallMs: STALL_BURST_MS }) {
  let locks: Burst | null = null;
  let stalls: Burst | null = null;

  const open = (ms: number, flush: (b: Burst) => void): Burst => {
    const b: Burst = { queues: new Set(), jobIds: new Set(), count: 0, timer: setTimeout(() => flush(b), ms) };
    b.timer.unref();
    return b;
  };
  const add = (b: Burst, queue: string, jobId: string | undefined) => {
    b.count++;
    b.queues.add(queue);
    if (jobId) b.jobIds.add(jobId);
  };
  const jobsText = (n: number) => (n === 1 ? "1 job" : `${n} jobs`);

  const flushLocks = (b: Burst) => {
    if (locks === b) locks = null;
    const jobs = b.jobIds.size;
    const message =
      `Job worker ${workerId} lost the lock of ${jobsText(Math.max(jobs, 1))} on ${[...b.queues].join(", ")}: ` +
      "it could not reach Redis in time (cut off, or its event loop stalled), let them go, and other workers continue them";
    console.warn(`[jobs] ${message} (${b.count} lock errors)`);
    void log({
      type: "error",
      source: "system",
      message,
      details: { worker: workerId, queues: [...b.queues], jobIds: [...b.jobIds].slice(0, MAX_IDS), errors: b.count },
    }).catch(() => {});
  };
  const flushStalls = (b: Burst) => {
    if (stalls === b) stalls = null;
    const message =
      `${b.count === 1 ? "1 job" : `${b.count} jobs`} on ${[...b.queues].join(", ")} lost ${b.count === 1 ? "its" : "their"} worker ` +
      "(it stopped, or was cut off from Redis and let go); they run again on another worker";
    void log({
      type: "info",
      source: "system",
      message,
      details: { worker: workerId, queues: [...b.queues], jobIds: [...b.jobIds].slice(0, MAX_IDS), count: b.count },
    }).catch(() => {});
  };

  return {
    /** True when `err` is a lock error (counted in the current burst); false: not ours to handle. */
    lockError(queue: string, err: Error): boolean {
      if (!LOCK_ERROR.test(err.message)) return false;
      locks ??= open(windows.lockMs, flushLocks);
      add(locks, queue, /job (\S+?)[.\s]?(?:\s|$)/i.exec(err.message)?.[1]);
      return true;
    },
    /** A job this worker took back from a holder that stopped renewing its lock. */
    stalled(queue: string, jobId: string) {
      stalls ??= open(windows.stallMs, flushStalls);
      add(stalls, queue, jobId);
    },
  };
}
