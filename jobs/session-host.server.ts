/**
 * The session host: long-lived Galaxy connections run by the job workers (issue 9 "The
 * session host"; docs/jobs.md "Session host"). Generic over the *purpose* (stalker now;
 * trading runs, the GalaCord relay and collections later): one session per (purpose,
 * accountId), held as one BullMQ job.
 *
 * - A session is a job on its purpose's queue with the idempotent id `<purpose>-<accountId>`,
 *   so starting a running session (or restoring one twice) adds nothing.
 * - The job stays active for as long as the session runs; BullMQ renews its lock every
 *   `SESSION_LOCK_DURATION_MS / 2`. A worker that dies stops renewing; after at most
 *   lock + stalled interval another worker's stalled check puts the job back and it runs
 *   again there (the processor reconnects). Defaults 8 s + 4 s keep failover ≤ 15 s.
 * - What the operator asked for (`desired`) and what the UI shows (state, planet, since,
 *   worker) live in the database, written by the holder; never only in one process.
 * - Stop: the web process sets desired = stopped and publishes the job id on
 *   `<prefix>:sessions:stop`; whichever worker holds the job aborts it (the runner sends
 *   `QUIT :ds`), the job completes and is removed. Workers also poll `desired` of the
 *   sessions they hold (SESSION_POLL_MS), so a stop sent while Redis was away still lands.
 * - Restore: `restoreSessions()` enqueues every session whose desired = started; the web
 *   process and every worker call it at boot, workers again every SESSION_RECONCILE_MS and
 *   whenever their Redis connection comes back (an emptied Redis loses its jobs).
 * - A holder that loses its lock (Redis restarted or partitioned) aborts its session
 *   quietly, so two workers never keep the same account online.
 */
import os from "node:os";
import { DelayedError, type Job, type Worker } from "bullmq";
import type { Redis } from "ioredis";
import { z } from "zod";
import { errorText } from "~/utils/errors";
import { remember } from "~/utils/remember.server";
import { enqueue, getQueue, producerReady, type QueueName } from "./queues.server";
import { createWorkerConnection, producerConnection, queuePrefix } from "./redis.server";

/** What a session is for. Each purpose has its own queue and runner. */
export type SessionPurpose = "stalker" | "trader" | "relay" | "collections";

/** Session queues: each purpose's queue carries the same `{kind: "session", accountId, reason}` payload. */
export const SESSION_QUEUES = ["stalker", "trader", "relay", "collections"] as const satisfies readonly QueueName[];
const PURPOSE_QUEUE: Record<SessionPurpose, (typeof SESSION_QUEUES)[number]> = {
  stalker: "stalker",
  trader: "trader",
  relay: "relay",
  collections: "collections",
};

/** Session-host tuning read from the environment (docs/jobs.md). */
const settingsSchema = z.object({
  /** Lock of a session job; a dead holder's sessions are taken back after at most lock + stalled interval. */
  SESSION_LOCK_DURATION_MS: z.coerce.number().int().min(2_000).max(600_000).default(8_000),
  /** How often workers look for sessions whose holder died. */
  SESSION_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).max(600_000).default(4_000),
  /** Sessions one worker process holds at most. */
  SESSION_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(500),
  /** How often a worker re-reads `desired` of the sessions it holds (the stop signal's fallback). */
  SESSION_POLL_MS: z.coerce.number().int().min(200).max(600_000).default(3_000),
  /** How often a worker re-enqueues sessions that should run (jobs lost with an emptied Redis). */
  SESSION_RECONCILE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(15_000),
});
export type SessionSettings = z.infer<typeof settingsSchema>;

export function sessionSettings(): SessionSettings {
  const parsed = settingsSchema.safeParse(process.env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid session host environment: ${issues}`);
  }
  return parsed.data;
}

export function sessionJobId(purpose: SessionPurpose, accountId: string): string {
  return `${purpose}-${accountId}`;
}

export function sessionQueue(purpose: SessionPurpose): (typeof SESSION_QUEUES)[number] {
  return PURPOSE_QUEUE[purpose];
}

export const stopChannel = () => `${queuePrefix()}:sessions:stop`;

/** Is Redis reachable for producers right now? (start answers 503 when not). */
export async function sessionEngineReady(): Promise<boolean> {
  return producerReady(500);
}

/** Adds the session's job (no-op when it exists). Throws the 503 Response while Redis is down. */
export async function requestSession(purpose: SessionPurpose, accountId: string, reason: "start" | "restore"): Promise<void> {
  await enqueue(sessionQueue(purpose), { kind: "session", accountId, reason }, { jobId: sessionJobId(purpose, accountId) });
}

/**
 * Tells whichever worker holds the session to end it (best effort: the holders also poll
 * `desired`). A job still waiting is removed at once.
 */
export async function signalStop(purpose: SessionPurpose, accountId: string): Promise<void> {
  const jobId = sessionJobId(purpose, accountId);
  if (!(await producerReady(300))) return;
  try {
    await producerConnection().publish(stopChannel(), JSON.stringify({ purpose, jobId }));
    const job = await getQueue(sessionQueue(purpose)).getJob(jobId);
    if (job && ((await job.isWaiting()) || (await job.isDelayed()))) await job.remove().catch(() => {});
  } catch {
    // Redis went away in between: the holder's desired poll ends the session.
  }
}

// ---------------------------------------------------------------------------------------
// Restore

type DesiredReader = () => Promise<string[]>;
const readers = remember("session-readers", (): { map: Map<SessionPurpose, DesiredReader> } => ({ map: new Map() }));

/** Each purpose tells the host which accounts should have a session (desired = started). */
export function registerDesiredReader(purpose: SessionPurpose, read: DesiredReader) {
  readers.map.set(purpose, read);
}

/**
 * Enqueues every session that should run (idempotent job ids: running ones are left alone).
 * Returns how many were asked for; never throws (Redis down → 0, tried again later).
 */
export async function restoreSessions(): Promise<number> {
  let n = 0;
  for (const [purpose, read] of readers.map) {
    let ids: string[];
    try {
      ids = await read();
    } catch (err) {
      console.warn(`[sessions] could not read ${purpose} sessions to restore: ${errorText(err)}`);
      continue;
    }
    for (const accountId of ids) {
      try {
        await requestSession(purpose, accountId, "restore");
        n++;
      } catch {
        return n; // Redis away: the next reconcile tries again
      }
    }
  }
  return n;
}

// ---------------------------------------------------------------------------------------
// Worker side

/** Why a running session was told to end. */
export type AbortReason = "stop" | "lock-lost" | "shutdown";

export type SessionContext = {
  purpose: SessionPurpose;
  accountId: string;
  jobId: string;
  /** This worker's id (host-pid), written into the state row. */
  workerId: string;
  /** Aborted on stop, lock loss or worker shutdown; `reason()` says which. */
  signal: AbortSignal;
  reason(): AbortReason | null;
  /** Do we still hold the job's lock? (Checked before acting on "another device".) */
  holdsLock(): Promise<boolean>;
  job: Job;
};

export type SessionRunner = (ctx: SessionContext) => Promise<void>;

type Held = { purpose: SessionPurpose; accountId: string; controller: AbortController; reason: AbortReason | null };
type HostState = {
  held: Map<string, Held>;
  subscriber?: Redis;
  timers: NodeJS.Timeout[];
  /** Session queue Workers attached in this process. */
  attached: number;
  desired: Map<SessionPurpose, (accountIds: string[]) => Promise<Map<string, "started" | "stopped">>>;
  workerId: string;
};
const host = remember("session-host", (): { state?: HostState } => ({}));

function hostState(): HostState {
  host.state ??= { held: new Map(), timers: [], attached: 0, desired: new Map(), workerId: `${os.hostname()}-${process.pid}` };
  return host.state;
}

/** The holder's question for its sessions: what does the operator want for these accounts? */
export function registerDesiredLookup(purpose: SessionPurpose, lookup: (accountIds: string[]) => Promise<Map<string, "started" | "stopped">>) {
  hostState().desired.set(purpose, lookup);
}

/** The job ids of the sessions this process holds. */
export function heldSessions(): string[] {
  return [...hostState().held.keys()];
}

function abortHeld(jobId: string, reason: AbortReason) {
  const h = hostState().held.get(jobId);
  if (!h || h.controller.signal.aborted) return;
  h.reason = reason;
  h.controller.abort(reason);
}

/**
 * The BullMQ processor of a session purpose. Runs the runner until it returns; a shutdown
 * gives the job back (delayed by 0) so another worker takes it at once.
 */
export function sessionProcessor(purpose: SessionPurpose, runner: SessionRunner) {
  return async (job: Job, token?: string, signal?: AbortSignal): Promise<unknown> => {
    const state = hostState();
    const accountId = String((job.data as { accountId?: unknown }).accountId ?? "");
    const jobId = String(job.id);
    const controller = new AbortController();
    const held: Held = { purpose, accountId, controller, reason: null };
    state.held.set(jobId, held);
    // BullMQ's own cancel (worker.cancelJob) ends the session like a stop.
    signal?.addEventListener("abort", () => abortHeld(jobId, "stop"), { once: true });
    const settings = sessionSettings();
    try {
      await runner({
        purpose,
        accountId,
        jobId,
        workerId: state.workerId,
        signal: controller.signal,
        reason: () => held.reason,
        holdsLock: async () => {
          if (!token) return true;
          try {
            return (await job.extendLock(token, settings.SESSION_LOCK_DURATION_MS)) === 1;
          } catch {
            return false;
          }
        },
        job,
      });
    } finally {
      if (state.held.get(jobId) === held) state.held.delete(jobId);
    }
    if (held.reason === "shutdown" && token) {
      // Back to the queue at once: a live worker (or this one's successor) takes it over.
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    if (held.reason === "lock-lost") throw new Error("Session lock lost; another worker holds it now");
    return { ended: held.reason ?? "done" };
  };
}

/** Worker options of a session queue (configurable failover timing, high concurrency). */
export function sessionWorkerOptions() {
  const s = sessionSettings();
  return {
    concurrency: s.SESSION_CONCURRENCY,
    lockDuration: s.SESSION_LOCK_DURATION_MS,
    stalledInterval: s.SESSION_STALLED_INTERVAL_MS,
    // Every worker death counts as one stall; sessions must survive any number of them.
    maxStalledCount: 1_000_000,
  };
}

/**
 * Wires a session queue's Worker into the host: lock loss aborts the session, the stop
 * channel and the desired poll end stopped sessions, the reconciler restores lost ones.
 * Returns the detach function (called before the worker closes: it hands sessions back).
 */
export function attachSessionWorker(worker: Worker, poolId: string): () => Promise<void> {
  const state = hostState();
  state.workerId = poolId;
  // Every session queue's Worker attaches; the stop channel, the desired poll and the
  // reconciler are shared by all of them and torn down when the last one detaches.
  const purpose = (SESSION_QUEUES as readonly string[]).includes(worker.name) ? (worker.name as SessionPurpose) : null;
  state.attached += 1;
  worker.on("lockRenewalFailed", (jobIds: string[]) => {
    for (const id of jobIds) abortHeld(id, "lock-lost");
  });
  const onReady = () => void restoreSessions();
  worker.on("ready", onReady);
  if (state.attached === 1) startShared(state, sessionSettings());

  return async () => {
    worker.off("ready", onReady);
    for (const [jobId, h] of state.held) if (purpose === null || h.purpose === purpose) abortHeld(jobId, "shutdown");
    state.attached = Math.max(0, state.attached - 1);
    if (state.attached > 0) return;
    for (const t of state.timers.splice(0)) clearInterval(t);
    const sub = state.subscriber;
    state.subscriber = undefined;
    // While Redis is away a QUIT would wait in the offline queue forever: just drop it.
    if (sub && sub.status === "ready") await sub.quit().catch(() => sub.disconnect());
    else sub?.disconnect();
  };
}

function startShared(state: HostState, settings: SessionSettings) {
  // Stop channel.
  const sub = createWorkerConnection();
  sub.on("message", (_channel: string, message: string) => {
    try {
      const { jobId } = JSON.parse(message) as { jobId?: string };
      if (jobId) abortHeld(jobId, "stop");
    } catch {
      // not ours
    }
  });
  void sub.subscribe(stopChannel()).catch(() => {});
  state.subscriber = sub;

  // Desired poll (fallback for a missed stop message).
  const poll = setInterval(() => {
    void (async () => {
      const byPurpose = new Map<SessionPurpose, string[]>();
      for (const h of state.held.values()) byPurpose.set(h.purpose, [...(byPurpose.get(h.purpose) ?? []), h.accountId]);
      for (const [purpose, ids] of byPurpose) {
        const lookup = state.desired.get(purpose);
        if (!lookup) continue;
        try {
          const desired = await lookup(ids);
          for (const [jobId, h] of state.held) {
            if (h.purpose === purpose && desired.get(h.accountId) !== "started") abortHeld(jobId, "stop");
          }
        } catch {
          // database away: keep running, ask again next time
        }
      }
    })();
  }, settings.SESSION_POLL_MS);
  poll.unref();

  // Reconcile: sessions that should run but have no job (Redis emptied, a lost race).
  const reconcile = setInterval(() => void restoreSessions(), settings.SESSION_RECONCILE_MS);
  reconcile.unref();
  state.timers.push(poll, reconcile);
}
