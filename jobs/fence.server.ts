/**
 * Fencing: a holder that cannot prove its lock lets go first (issue 29 item 2; decision 0028,
 * docs/sessions.md "Fencing").
 *
 * BullMQ renews the lock of every active job from a timer; a worker cut off from Redis (a
 * partition: packets vanish, nothing is refused) awaits that renewal forever, so it never
 * hears "renewal failed" until the network heals, long after its locks lapsed and another
 * worker took its jobs. Its Galaxy sockets stay open meanwhile, and the platform kicks them
 * (950) when the new holder logs in. So each worker keeps its own proof: the local monotonic
 * time at which it *sent* the last renewal Redis accepted (a lower bound of when Redis set the
 * lock's expiry; Redis time and wall clocks are never used). A job whose proof is older than
 * `lockDuration - margin` is let go locally — its session closes its socket (QUIT :ds), a
 * cycle stops before its next send — while the lock is still valid, so no other worker can
 * have taken it yet. A stalled event loop ends the same way: on wake the watchdog (a timer,
 * run before the I/O that piled up meanwhile) finds the proof too old, and every holder's
 * write path checks `proven()` synchronously before acting.
 *
 * One setting drives it (per queue): the lock duration. BullMQ renews every lockDuration / 4
 * (its timer ticks at lockRenewTime / 2 and renews on each tick), the margin is 30 % of the
 * lock, the watchdog looks every lockDuration / 20.
 */
import { performance } from "node:perf_hooks";
import type { Job, Worker } from "bullmq";

/** The fencing timings derived from one lock duration (docs/sessions.md "Fencing"). */
export function fenceTiming(lockDurationMs: number) {
  const marginMs = Math.round(lockDurationMs * 0.3);
  return {
    lockDurationMs,
    /** BullMQ's `lockRenewTime`: its timer ticks every half of it and renews at each tick. */
    lockRenewTimeMs: Math.round(lockDurationMs / 2),
    /** How often a lock is actually renewed (one tick). */
    renewEveryMs: Math.round(lockDurationMs / 4),
    marginMs,
    /** A job without a proven renewal for longer than this is let go. */
    letGoAfterMs: lockDurationMs - marginMs,
    /** How often the watchdog looks. */
    checkEveryMs: Math.max(50, Math.round(lockDurationMs / 20)),
  };
}
export type FenceTiming = ReturnType<typeof fenceTiming>;

/** The proof one active job (one lock token) holds. */
export type LockProof = {
  readonly token: string;
  readonly jobId: string;
  readonly queue: string;
  /** True while the last accepted renewal is recent enough that the lock is certainly still ours. */
  proven(): boolean;
  /** Milliseconds since the last accepted renewal was sent. */
  ageMs(): number;
  /** Set once the job was let go (too old a proof, or a renewal refused); never cleared. */
  readonly lost: boolean;
  /** Called once when the job is let go (at once if it was already). Returns the unsubscribe. */
  onLost(fn: () => void): () => void;
};

type Tracked = {
  token: string;
  jobId: string;
  queue: string;
  letGoAfterMs: number;
  /** performance.now() when the last accepted renewal (or the fetch that took the lock) was sent. */
  lastOk: number;
  lost: boolean;
  listeners: Set<() => void>;
  proof: LockProof;
};

const tracked = new Map<string, Tracked>();
let watchdog: NodeJS.Timeout | null = null;
let watchEveryMs = Infinity;

function letGo(t: Tracked) {
  if (t.lost) return;
  t.lost = true;
  for (const fn of [...t.listeners]) {
    try {
      fn();
    } catch (err) {
      console.warn(`[fence] a let-go handler of job ${t.jobId} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  t.listeners.clear();
}

function check() {
  const now = performance.now();
  for (const t of tracked.values()) if (!t.lost && now - t.lastOk > t.letGoAfterMs) letGo(t);
}

function ensureWatchdog(everyMs: number) {
  if (watchdog && everyMs >= watchEveryMs) return;
  if (watchdog) clearInterval(watchdog);
  watchEveryMs = everyMs;
  watchdog = setInterval(check, everyMs);
  watchdog.unref();
}

/**
 * Starts tracking the lock of a job a processor just received. The lock was set by the fetch
 * (moveToActive) with `job.processedOn` as its time (our own clock when the fetch was sent),
 * so the proof starts there.
 */
export function trackLock(job: Pick<Job, "id" | "queueName" | "processedOn">, token: string, timing: FenceTiming): LockProof {
  const existing = tracked.get(token);
  if (existing) return existing.proof;
  const now = performance.now();
  const fetchedAgo = job.processedOn ? Math.max(0, Date.now() - job.processedOn) : 0;
  const t: Tracked = {
    token,
    jobId: String(job.id),
    queue: job.queueName,
    letGoAfterMs: timing.letGoAfterMs,
    lastOk: now - fetchedAgo,
    lost: false,
    listeners: new Set(),
    proof: undefined as unknown as LockProof,
  };
  t.proof = {
    token,
    jobId: t.jobId,
    queue: t.queue,
    proven: () => {
      // Checked synchronously where it matters (a write, a send): a stalled event loop that
      // just woke sees the truth here even before the watchdog's next tick.
      if (!t.lost && performance.now() - t.lastOk > t.letGoAfterMs) letGo(t);
      return !t.lost;
    },
    ageMs: () => performance.now() - t.lastOk,
    get lost() {
      return t.lost;
    },
    onLost: (fn) => {
      if (t.lost) {
        fn();
        return () => {};
      }
      t.listeners.add(fn);
      return () => void t.listeners.delete(fn);
    },
  };
  tracked.set(token, t);
  ensureWatchdog(timing.checkEveryMs);
  return t.proof;
}

/** Stops tracking (the processor returned). */
export function untrackLock(token: string) {
  tracked.delete(token);
}

/** The proof of the job holding `token` in this process, if tracked. */
export function lockProof(token: string | undefined): LockProof | undefined {
  return token ? tracked.get(token)?.proof : undefined;
}

/**
 * Records, for every job of this Worker, when each renewal that Redis accepted was sent.
 * BullMQ's lock manager calls `worker.extendJobLocks(ids, tokens, duration)` (a public method)
 * and emits `locksRenewed` / `lockRenewalFailed` only after the answer — never while Redis is
 * unreachable — so the send time is taken here. A refused renewal lets the job go at once.
 */
export function fenceWorker(worker: Worker) {
  const original = worker.extendJobLocks.bind(worker);
  worker.extendJobLocks = async (jobIds: string[], tokens: string[], duration: number) => {
    const sentAt = performance.now();
    const errored = await original(jobIds, tokens, duration);
    const refused = new Set(errored);
    jobIds.forEach((id, i) => {
      const t = tracked.get(tokens[i] ?? "");
      if (!t) return;
      if (refused.has(id)) letGo(t);
      else if (sentAt > t.lastOk) t.lastOk = sentAt;
    });
    return errored;
  };
}

/** Thrown by work that stops because its worker can no longer prove its lock. */
export class LockLetGoError extends Error {
  constructor(jobId: string, ageMs: number) {
    super(`Job ${jobId} let go: its worker could not renew its lock for ${Math.round(ageMs)} ms (cut off from Redis or stalled); another worker continues it`);
    this.name = "LockLetGoError";
  }
}

/** Throws LockLetGoError unless the job's lock is proven (no proof tracked: not run by a worker, nothing to prove). */
export function assertLockProven(token: string | undefined) {
  const proof = lockProof(token);
  if (proof && !proof.proven()) throw new LockLetGoError(proof.jobId, proof.ageMs());
}

/**
 * Wraps a processor so every job it runs is tracked from the moment it is received until it
 * returns. Declares three parameters: BullMQ hands an abort signal only to such functions.
 */
export function fencedProcessor<J extends Job>(
  process: (job: J, token?: string, signal?: AbortSignal) => Promise<unknown>,
  timing: FenceTiming,
): (job: J, token?: string, signal?: AbortSignal) => Promise<unknown> {
  return async (job: J, token?: string, signal?: AbortSignal) => {
    if (token) trackLock(job, token, timing);
    try {
      return await process(job, token, signal);
    } finally {
      if (token) untrackLock(token);
    }
  };
}
