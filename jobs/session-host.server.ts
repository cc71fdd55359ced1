/**
 * The session host: long-lived Galaxy connections run by the job workers (docs/sessions.md,
 * decision 0014). Generic over the *purpose*: the host is handed a registry — each purpose's
 * runner and the store that reads and writes session state — and imports no model.
 *
 * - A session is a job on its purpose's queue with the idempotent id `<purpose>-<key>`, so
 *   starting a running session (or restoring one twice) adds nothing.
 * - The job stays active for as long as the session runs; BullMQ renews its lock every
 *   `SESSION_LOCK_DURATION_MS / 2`. A worker that dies stops renewing; after at most
 *   lock + stalled interval another worker's stalled check puts the job back and it runs
 *   again there (the runner reconnects). Defaults 5 s + 2 s keep failover under 10 s.
 * - What the operator asked for (`desired`) and what is (actual, since, error, attempt, next
 *   retry, holder) live in the database (the store); the host writes the transitions it owns
 *   (taken → connecting, handed back → waiting, released), the runner the rest (ctx.report).
 * - ONE control channel (`<prefix>:sessions:control`, app/queue/session-control.server.ts) reaches
 *   whichever process holds a session: "stop" ends it, "wake" runs its pending commands and
 *   its wake handlers (a sub-session's messages go to the session hosting it). Every
 *   SESSION_POLL_MS the host also reads `desired` and the commands of what it holds, so a
 *   message lost while Redis was away still lands.
 * - Restore: `restoreSessions()` enqueues every session whose desired = run; the web process
 *   and every worker call it at boot, workers again every SESSION_RECONCILE_MS and whenever
 *   their Redis connection comes back (an emptied Redis loses its jobs).
 * - Spreading: each worker process announces itself (`<prefix>:sessions:hosts`, every second)
 *   and takes at most its fair share of a purpose's wanted sessions (plus slack); a job beyond
 *   it is handed back for a worker with room. Beyond SESSION_CONCURRENCY a job waits in the
 *   queue, and its row says "waiting" (the header counts them).
 * - A holder that loses its lock (Redis restarted or partitioned) aborts its session quietly,
 *   so two workers never keep the same account online. It does not wait to be told: a holder
 *   that cannot *prove* its lock (no renewal accepted for lock − margin, measured on its own
 *   monotonic clock; jobs/fence.server.ts, decision 0028) lets go first — the session closes its
 *   socket while the lock is still valid, and writes no state afterwards.
 */
import { withLogContext } from "~/utils/logger.server";
import os from "node:os";
import v8 from "node:v8";
import { DelayedError, type Job, type Worker } from "bullmq";
import type { Redis } from "ioredis";
import { z } from "zod";
import {
  HOSTED_PURPOSES,
  type CommandOutcome,
  type HostedPurpose,
  type SessionCommand,
  type SessionEnd,
  type SessionPatch,
  type SessionPurpose,
} from "#api/sessions";
import { AppError } from "~/utils/app-error";
import { errorText } from "~/utils/errors";
import { remember } from "~/utils/remember.server";
import type { Supervised } from "./processors/supervise";
import { fenceTiming, lockProof } from "./fence.server";
import { createWorkerConnection, producerConnection, queuePrefix } from "../app/queue/redis.server";
import { controlChannel, drainKey, HOSTED_BY, requestSession, type ControlMessage } from "../app/queue/session-control.server";

export { sessionJobId } from "../app/queue/session-control.server";

/** Session queues (one per purpose the host runs, api/sessions.ts): each carries `{kind: "session", accountId, reason}` (accountId = the session key). */
export const SESSION_QUEUES = HOSTED_PURPOSES;

/** Session-host tuning read from the environment (docs/jobs.md). */
const settingsSchema = z.object({
  /**
   * Lock of a session job; a dead holder's sessions are taken back after at most lock + stalled
   * interval. The one fencing setting (decision 0028): renewed every lock / 4, a holder without
   * a renewal accepted for 70 % of it lets its sessions go (jobs/fence.server.ts).
   */
  SESSION_LOCK_DURATION_MS: z.coerce.number().int().min(2_000).max(600_000).default(5_000),
  /** How often workers look for sessions whose holder died. */
  SESSION_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).max(600_000).default(1_000),
  /** Sessions one worker process holds at most, per purpose (default: what its memory holds, `defaultSessionCapacity`). */
  SESSION_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).optional(),
  /** How often a worker re-reads `desired` and the commands of the sessions it holds (the control channel's fallback). */
  SESSION_POLL_MS: z.coerce.number().int().min(200).max(600_000).default(3_000),
  /** How often a worker re-enqueues sessions that should run (jobs lost with an emptied Redis). */
  SESSION_RECONCILE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(15_000),
  /** How often a worker announces itself to the others (fair shares); it counts as gone after 3 of these. */
  SESSION_HOST_BEAT_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
});
export type SessionSettings = z.infer<typeof settingsSchema> & { SESSION_CONCURRENCY: number };

export function sessionSettings(): SessionSettings {
  const parsed = settingsSchema.safeParse(process.env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid session host environment: ${issues}`);
  }
  return { ...parsed.data, SESSION_CONCURRENCY: parsed.data.SESSION_CONCURRENCY ?? defaultSessionCapacity() };
}

/** Memory one held session costs, generously: a worker holding 500 stalkers measured 226–231 MB RSS, process included (issue 29). */
const BYTES_PER_SESSION = 0.5 * 1024 * 1024;

/**
 * The default capacity per purpose (issue 29 "Capacity is part of the truth", decision 0027):
 * half of what this process may use (the smaller of V8's heap limit and half the machine's
 * memory) at 0.5 MB a session, between 1,000 (one of two workers carries a 1,000-session fleet
 * when the other dies) and 10,000. A 2 GB heap gives 2,048; 4 GB or more gives 4,096+.
 */
export function defaultSessionCapacity(): number {
  const budget = Math.min(v8.getHeapStatistics().heap_size_limit, os.totalmem() / 2) / 2;
  return Math.max(1_000, Math.min(10_000, Math.floor(budget / BYTES_PER_SESSION)));
}

export const hostsKey = () => `${queuePrefix()}:sessions:hosts`;

// ---------------------------------------------------------------------------------------
// The registry handed to the host

export type { CommandOutcome, SessionCommand, SessionEnd, SessionPatch } from "#api/sessions";

/** Where session state lives (app/models/session.server.ts implements it; the host never imports it). */
export type SessionStore = {
  claim(purpose: SessionPurpose, key: string, holder: string): Promise<boolean>;
  report(purpose: SessionPurpose, key: string, holder: string | null, patch: SessionPatch): Promise<boolean>;
  end(purpose: SessionPurpose, key: string, holder: string | null, end: SessionEnd): Promise<void>;
  release(purpose: SessionPurpose, key: string, holder: string, how: "stopped" | "handed-back" | "lock-lost"): Promise<void>;
  /** Keys of a purpose whose desired = run. */
  wanted(purpose: SessionPurpose): Promise<string[]>;
  wantedCount(purposes: readonly SessionPurpose[]): Promise<number>;
  desiredOf(purpose: SessionPurpose, keys: readonly string[]): Promise<Map<string, "run" | "stop">>;
  /** Started again (desired run, still waiting for a worker): a start that landed while its job was ending. */
  wantedAgain(purpose: SessionPurpose, key: string): Promise<boolean>;
  claimCommands(purpose: SessionPurpose, keys: readonly string[]): Promise<SessionCommand[]>;
  finishCommand(id: number, outcome: CommandOutcome): Promise<void>;
  /** A System Logs entry (source "bot"); the runners' `ctx.log`. */
  log(entry: { type: "info" | "error" | "disconnect" | "debug"; message: string; details: Record<string, unknown> }): Promise<void>;
};

export type PurposeSpec = {
  runner: SessionRunner;
  /** Sessions of this purpose one worker holds at most (default SESSION_CONCURRENCY). */
  concurrency?: number;
};

/** Adding a purpose is one entry here (plus its queue in queues.server.ts). */
export type SessionRegistry = { store: SessionStore; purposes: Record<HostedPurpose, PurposeSpec> };

// ---------------------------------------------------------------------------------------
// Restore

/**
 * Enqueues every session that should run (idempotent job ids: running ones are left alone).
 * Returns how many were asked for; never throws (Redis down → 0, tried again later).
 */
export async function restoreSessions(registry: SessionRegistry): Promise<number> {
  let n = 0;
  for (const purpose of HOSTED_PURPOSES) {
    let keys: string[];
    try {
      keys = await registry.store.wanted(purpose);
    } catch (err) {
      console.warn(`[sessions] could not read ${purpose} sessions to restore: ${errorText(err)}`);
      continue;
    }
    for (const key of keys) {
      try {
        await requestSession(purpose, key, "restore");
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
  /** The session's key: the account id (or "bot"). */
  key: string;
  /** Same as `key` (the account the session logs in, for the per-account purposes). */
  accountId: string;
  jobId: string;
  /** This worker's id (host-pid-…), written as the holder. */
  workerId: string;
  /** Aborted on stop, lock loss or worker shutdown; `reason()` says which. */
  signal: AbortSignal;
  reason(): AbortReason | null;
  /** Do we still hold the job's lock? (Checked before acting on "another device".) */
  holdsLock(): Promise<boolean>;
  /**
   * False once this worker can no longer prove it holds the session (decision 0028): it has let
   * go (the signal is aborted with reason "lock-lost") and must not write or send anything more.
   * Synchronous, so a write path can check it first thing (e.g. after a stalled event loop woke).
   */
  proven(): boolean;
  job: Job;
  /** Writes what is (only while still wanted and held by this worker); false: no longer wanted. */
  report(patch: SessionPatch): Promise<boolean>;
  /** Ends the session by itself (desired stop), e.g. after a refused login. */
  end(end: SessionEnd): Promise<void>;
  /** Called on a "wake" control message and on every poll (look at your rows now). Returns the unsubscribe. */
  onWake(handler: () => void): () => void;
  /**
   * Runs the pending commands of this session (or, with `scope`, of the sub-sessions it hosts,
   * e.g. GalaCord's relay connections). The handler's result is the caller's answer; a thrown
   * AppError fails it with that status and message (anything else: 409 with its text).
   */
  onCommand(handler: (cmd: SessionCommand) => Promise<unknown>, scope?: { purpose: SessionPurpose; keys: () => string[] }): void;
  /** A System Logs entry about this session (source "bot"; details name its account, purpose and worker). Never throws. */
  log: SessionLog;
  /**
   * What the reconnect supervisor (jobs/processors/supervise.ts) needs of this session — its
   * signal, lock, report, end and log — labelled `label` ("Stalker Nick"; a function is read at
   * each line, for a nick learnt at login). `hosted`: a session this one holds instead (a GalaCord
   * relay connection), its row written while this holder is proven. The one set-up every runner
   * used to copy (issue 30 C2).
   */
  supervised(label: string | (() => string), opts?: { logDrops?: boolean; hosted?: { purpose: SessionPurpose; key: string } }): Supervised;
};

export type SessionLog = (type: "info" | "error" | "disconnect" | "debug", message: string, details?: Record<string, unknown>) => Promise<void>;

/** Adds `log` and `supervised` to a session's context (the host's, and tests' hand-made ones). */
export function withSupervision(base: Omit<SessionContext, "log" | "supervised">, store: Pick<SessionStore, "log" | "report" | "end">): SessionContext {
  // The GalaCord bot's session logs in no Galaxy account (its key is "bot").
  const account = base.purpose === "relay" ? {} : { accountId: base.accountId };
  const log: SessionLog = (type, message, details = {}) =>
    store.log({ type, message, details: { ...account, purpose: base.purpose, worker: base.workerId, ...details } }).catch(() => {});
  return {
    ...base,
    log,
    supervised(label, opts = {}) {
      const hosted = opts.hosted;
      return {
        signal: base.signal,
        get label() {
          return typeof label === "function" ? label() : label;
        },
        holdsLock: base.holdsLock,
        report: hosted ? async (patch) => base.proven() && store.report(hosted.purpose, hosted.key, base.workerId, patch) : base.report,
        end: hosted
          ? async (end) => {
              if (base.proven()) await store.end(hosted.purpose, hosted.key, base.workerId, end);
            }
          : base.end,
        log: hosted ? (type, message, details) => log(type, message, { accountId: hosted.key, ...details }) : log,
        logDrops: opts.logDrops,
        // The account it logs in: a 452 right after our own logout of it waits the platform's window out.
        accountId: hosted ? hosted.key : base.purpose === "relay" ? null : base.accountId,
      };
    },
  };
}

export type SessionRunner = (ctx: SessionContext) => Promise<void>;

type CommandScope = { purpose: SessionPurpose; keys: () => string[]; handler: (cmd: SessionCommand) => Promise<unknown> };
type Held = {
  purpose: SessionPurpose;
  key: string;
  controller: AbortController;
  reason: AbortReason | null;
  wake: Set<() => void>;
  commands: CommandScope[];
  /** Let go: its lock could not be proven (decision 0028); it writes nothing more. */
  fenced: boolean;
};
type HostState = {
  held: Map<string, Held>;
  subscriber?: Redis;
  timers: NodeJS.Timeout[];
  /** Session queue Workers attached in this process. */
  attached: number;
  workerId: string;
  registry?: SessionRegistry;
  /** Fair share per purpose, recomputed every few seconds. */
  share: Map<SessionPurpose, number>;
  /** Commands being run (so a poll does not claim them twice). */
  running: Set<number>;
  /** The session queues' BullMQ Workers of this process (paused while drained). */
  workers: Set<Worker>;
  /** Since when this worker is drained (ISO; issue 31), null when it takes sessions. */
  drainedAt: string | null;
  /**
   * Its last session Worker is closing (shutdown): a job it still fetches — the session it has
   * just handed back is due at once, and a blocking fetch already under way returns it even
   * after a pause — goes straight back, instead of a run nobody would stop.
   */
  closing?: boolean;
};
const host = remember("session-host", (): { state?: HostState } => ({}));

function hostState(): HostState {
  host.state ??= {
    held: new Map(),
    timers: [],
    attached: 0,
    workerId: `${os.hostname()}-${process.pid}`,
    share: new Map(),
    running: new Set(),
    workers: new Set(),
    drainedAt: null,
  };
  return host.state;
}

/**
 * What this process holds and can hold, per purpose (its heartbeat carries it: /api/health and
 * the "all workers are full (N of M)" text read it). Empty before a session worker attached.
 */
export function hostLoad(): {
  sessions: Partial<Record<HostedPurpose, number>>;
  capacity: Partial<Record<HostedPurpose, number>>;
  drainedAt?: string;
} {
  const state = hostState();
  if (!state.registry || !state.attached) return { sessions: {}, capacity: {} };
  const settings = sessionSettings();
  const sessions: Partial<Record<HostedPurpose, number>> = {};
  const capacity: Partial<Record<HostedPurpose, number>> = {};
  for (const purpose of HOSTED_PURPOSES) {
    sessions[purpose] = heldCount(purpose);
    capacity[purpose] = state.registry.purposes[purpose].concurrency ?? settings.SESSION_CONCURRENCY;
  }
  return { sessions, capacity, ...(state.drainedAt ? { drainedAt: state.drainedAt } : {}) };
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

function heldCount(purpose: SessionPurpose): number {
  let n = 0;
  for (const h of hostState().held.values()) if (h.purpose === purpose) n++;
  return n;
}

/**
 * The BullMQ processor of a session purpose. Runs the purpose's runner until it returns; a
 * shutdown gives the job back (delayed by 0) so another worker takes it at once; a worker
 * above its fair share hands a new job back for a worker with room.
 */
export function sessionProcessor(registry: SessionRegistry, purpose: HostedPurpose) {
  return async (job: Job, token?: string, signal?: AbortSignal): Promise<unknown> => {
    const state = hostState();
    state.registry ??= registry;
    const spec = registry.purposes[purpose];
    const { store } = registry;
    const key = String((job.data as { accountId?: unknown }).accountId ?? "");
    const jobId = String(job.id);

    // Spreading: above the fair share (and another worker alive), let a worker with room take it.
    // A drained worker (issue 31) takes none: one fetched just before its pause goes back at once.
    const share = state.share.get(purpose);
    if (token && (state.drainedAt || state.closing)) {
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    if (token && share !== undefined && heldCount(purpose) >= share) {
      await job.moveToDelayed(Date.now() + 250 + Math.floor(Math.random() * 250), token);
      throw new DelayedError();
    }

    // BullMQ's own cancel (worker.cancelJob) ends the session like a stop.
    signal?.addEventListener("abort", () => abortHeld(jobId, "stop"), { once: true });
    // One run, or more while a start lands as each one ends (below).
    for (;;) {
      const controller = new AbortController();
      const held: Held = { purpose, key, controller, reason: null, wake: new Set(), commands: [], fenced: false };
      state.held.set(jobId, held);
      const settings = sessionSettings();
      const workerId = state.workerId;
      // Fencing (decision 0028): once this worker cannot prove the lock, the session lets go at
      // once — the runner closes its socket (QUIT :ds) before the lock can lapse and another
      // worker log in, which would make the platform kick the account — and writes nothing more;
      // writes already waiting (a database that is cut off too) answer "no longer wanted".
      const proof = lockProof(token);
      let onLetGo!: () => void;
      const letGo = new Promise<false>((resolve) => (onLetGo = () => resolve(false)));
      const unsubscribe = proof?.onLost(() => {
        held.fenced = true;
        onLetGo();
        abortHeld(jobId, "lock-lost");
      });
      const proven = () => !held.fenced && (proof?.proven() ?? true);
      /** The claim could not be written (database away or overloaded): try again soon, not at the next reconcile. */
      let claimFailed: unknown = null;
      try {
        let claimed = false;
        try {
          claimed = proven() && (await store.claim(purpose, key, workerId));
        } catch (err) {
          claimFailed = err; // handled after the finally below (a return here would skip it)
        }
        if (!claimed && !claimFailed) return { ended: "not wanted" };
        const base: Omit<SessionContext, "log" | "supervised"> = {
          purpose,
          key,
          accountId: key,
          jobId,
          workerId,
          signal: controller.signal,
          reason: () => held.reason,
          proven,
          holdsLock: async () => {
            if (!proven()) return false;
            if (!token) return true;
            try {
              return (await job.extendLock(token, settings.SESSION_LOCK_DURATION_MS)) === 1;
            } catch {
              return false;
            }
          },
          job,
          report: async (patch) => proven() && Promise.race([store.report(purpose, key, workerId, patch), letGo]),
          end: async (end) => {
            if (proven()) await Promise.race([store.end(purpose, key, workerId, end), letGo]);
          },
          onWake: (handler) => {
            held.wake.add(handler);
            return () => void held.wake.delete(handler);
          },
          onCommand: (handler, scope) => {
            held.commands.push({ purpose: scope?.purpose ?? purpose, keys: scope?.keys ?? (() => [key]), handler });
          },
        };
        // Every log line of this session says whose it is (LOG_FORMAT=json; issue 31 item 4).
        if (claimed) await withLogContext({ purpose, accountId: key }, () => spec.runner(withSupervision(base, store)));
      } finally {
        unsubscribe?.();
        if (state.held.get(jobId) === held) state.held.delete(jobId);
        const how = held.reason === "shutdown" ? "handed-back" : held.reason === "lock-lost" ? "lock-lost" : "stopped";
        // Nothing to release when it was never claimed.
        if (!claimFailed)
          await store.release(purpose, key, workerId, how).catch((err: unknown) => console.warn(`[sessions] could not release ${jobId}: ${errorText(err)}`));
      }
      if (claimFailed && token && held.reason !== "lock-lost") {
        // A failover of hundreds of sessions on a loaded database: the job stays, and this or
        // another worker takes it again in a second (a failed job waited for the 15-s reconcile).
        console.warn(`[sessions] could not claim ${jobId}, trying again in 1 s: ${errorText(claimFailed)}`);
        await job.moveToDelayed(Date.now() + CLAIM_RETRY_MS, token);
        throw new DelayedError();
      }
      if (held.reason === "shutdown" && token) {
        // Back to the queue at once: a live worker (or this one's successor) takes it over.
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      if (token && held.reason !== "lock-lost") {
        // Started again while it was ending — on a stop, a refused login, a fatal Discord close —
        // (its job still active, so the start added none): run it again now rather than at the
        // next reconcile. "waiting" is what a start writes; a runner that returned on its own while
        // still wanted shows another state, so this never loops.
        if (await store.wantedAgain(purpose, key).catch(() => false)) {
          // A closing or drained worker gives it to another one, as it would a job it fetched.
          if (state.drainedAt || state.closing) {
            await job.moveToDelayed(Date.now(), token);
            throw new DelayedError();
          }
          // Here, in this same job and under its same lock: not back to the queue. Given back
          // (delayed by 0), this worker's own next fetch often took it before BullMQ had finished
          // with the run before, and that run's end then untracked the job id from the lock
          // manager (it tracks by job id): the new run's lock was never renewed, the fence let it
          // go at 0.7 × the lock and the session was dropped until the reconcile (the share
          // test's lost round at load ≥ 15).
          continue;
        }
      }
      if (held.reason === "lock-lost") {
        // Let go (decision 0028) because this worker could not prove its lock, which a stalled
        // event loop or slow renewals on a loaded machine do while Redis still holds the lock for
        // it. Failing the job then dropped the session (removed on failure, and no other worker
        // takes a failed job) until the next reconcile. Give it back instead: the move checks the
        // lock's token, so it succeeds only while the lock is still ours, and a worker runs the
        // session again in a second (not at once: a job this worker fetches again before BullMQ
        // is done with this run loses its lock renewal, see the re-run above); when the lock is
        // really gone the move is refused and whoever has it now (or the stalled check) carries
        // on, as before.
        if (token && (await giveBackIfStillOurs(job, token))) throw new DelayedError();
        throw new Error("Session lock lost; another worker holds it now");
      }
      return { ended: held.reason ?? "done" };
    }
  };
}

/** Back to the queue (for another try in LET_GO_RETRY_MS) when its lock is still this token's; false when Redis refused (the lock lapsed or is another's). */
async function giveBackIfStillOurs(job: Job, token: string): Promise<boolean> {
  try {
    await job.moveToDelayed(Date.now() + LET_GO_RETRY_MS, token);
    return true;
  } catch {
    return false;
  }
}

/** How long a session whose claim could not be written waits before it is taken again. */
export const CLAIM_RETRY_MS = 1_000;
/** How long a session let go while its lock was still its worker's waits before it is taken again. */
const LET_GO_RETRY_MS = 1_000;

/** Worker options of a session queue (configurable failover timing, high concurrency). */
export function sessionWorkerOptions(concurrency?: number) {
  const s = sessionSettings();
  return {
    concurrency: concurrency ?? s.SESSION_CONCURRENCY,
    lockDuration: s.SESSION_LOCK_DURATION_MS,
    lockRenewTime: fenceTiming(s.SESSION_LOCK_DURATION_MS).lockRenewTimeMs,
    stalledInterval: s.SESSION_STALLED_INTERVAL_MS,
    // Every worker death counts as one stall; sessions must survive any number of them.
    maxStalledCount: 1_000_000,
  };
}

/**
 * Wires a session queue's Worker into the host: lock loss aborts the session, the control
 * channel, the poll, the reconciler and the fair shares serve all of them and are torn down
 * when the last one detaches. Returns the detach function (called before the worker closes:
 * it hands sessions back).
 */
export function attachSessionWorker(registry: SessionRegistry, worker: Worker, poolId: string): () => Promise<void> {
  const state = hostState();
  state.workerId = poolId;
  state.registry = registry;
  const purpose = (SESSION_QUEUES as readonly string[]).includes(worker.name) ? (worker.name as SessionPurpose) : null;
  state.attached += 1;
  state.closing = false;
  state.workers.add(worker);
  worker.on("lockRenewalFailed", (jobIds: string[]) => {
    for (const id of jobIds) abortHeld(id, "lock-lost");
  });
  const onReady = () => void restoreSessions(registry);
  worker.on("ready", onReady);
  // A start that lands after a stopping session's last look at `desired` (its job still
  // active, so the start added none) would wait for the next reconcile: once the job is
  // gone, ask again for what is still wanted.
  const onDone = (job: { data?: unknown } | undefined, result: unknown) => {
    const data = job?.data as { kind?: unknown; accountId?: unknown } | undefined;
    const accountId = data?.accountId;
    if (!purpose || data?.kind !== "session" || typeof accountId !== "string") return;
    if ((result as { ended?: unknown } | undefined)?.ended !== "stop") return;
    void registry.store
      .desiredOf(purpose, [accountId])
      .then((d) => (d.get(accountId) === "run" ? requestSession(purpose, accountId, "restore") : undefined))
      .catch(() => {}); // database or Redis away: the reconcile tries again
  };
  worker.on("completed", onDone);
  if (state.attached === 1) startShared(state, registry, sessionSettings());

  return async () => {
    worker.off("ready", onReady);
    worker.off("completed", onDone);
    for (const [jobId, h] of state.held) if (purpose === null || h.purpose === purpose) abortHeld(jobId, "shutdown");
    state.workers.delete(worker);
    state.attached = Math.max(0, state.attached - 1);
    if (state.attached > 0) return;
    state.closing = true;
    state.drainedAt = null;
    for (const t of state.timers.splice(0)) clearInterval(t);
    const sub = state.subscriber;
    state.subscriber = undefined;
    const conn = producerConnection();
    if (conn.status === "ready") await conn.zrem(hostsKey(), state.workerId).catch(() => {});
    // While Redis is away a QUIT would wait in the offline queue forever: just drop it.
    if (sub && sub.status === "ready") await sub.quit().catch(() => sub.disconnect());
    else sub?.disconnect();
  };
}

/**
 * Drain (issue 31): like SIGTERM without the exit. The session queues' Workers stop fetching
 * (paused without waiting for the running sessions), then every held session is handed back
 * exactly as on shutdown: the runner sends `QUIT :ds` (no platform kick), the row says
 * "waiting", and the job goes back to the queue for another worker.
 */
async function drainHost(state: HostState, since: string) {
  state.drainedAt = since;
  await Promise.all([...state.workers].map((w) => w.pause(true).catch(() => {})));
  for (const jobId of [...state.held.keys()]) abortHeld(jobId, "shutdown");
  console.log(`[sessions] worker ${state.workerId} drained: its sessions go to other workers`);
}

async function undrainHost(state: HostState) {
  state.drainedAt = null;
  for (const w of state.workers) void w.resume();
  console.log(`[sessions] worker ${state.workerId} undrained: it takes sessions again`);
}

/** Delivers a control message to the sessions this process holds. */
function onControl(state: HostState, message: ControlMessage) {
  const target = HOSTED_BY[message.purpose] ?? { purpose: message.purpose, key: message.key };
  for (const [jobId, h] of state.held) {
    if (h.purpose !== target.purpose || h.key !== target.key) continue;
    if (message.kind === "stop" && target.purpose === message.purpose && target.key === message.key) abortHeld(jobId, "stop");
    else wakeHeld(state, h);
  }
}

function wakeHeld(state: HostState, h: Held) {
  for (const w of h.wake) {
    try {
      w();
    } catch (err) {
      console.warn(`[sessions] wake handler of ${h.purpose}-${h.key} failed: ${errorText(err)}`);
    }
  }
  if (h.commands.length) void runCommands(state, [h]);
}

/** Claims and runs the pending commands of these held sessions (one query per purpose). */
async function runCommands(state: HostState, helds: Held[]) {
  const store = state.registry?.store;
  if (!store) return;
  const byPurpose = new Map<SessionPurpose, Map<string, CommandScope>>();
  for (const h of helds) {
    for (const scope of h.commands) {
      const m = byPurpose.get(scope.purpose) ?? new Map<string, CommandScope>();
      for (const k of scope.keys()) m.set(k, scope);
      byPurpose.set(scope.purpose, m);
    }
  }
  for (const [purpose, scopes] of byPurpose) {
    if (!scopes.size) continue;
    let cmds: SessionCommand[];
    try {
      cmds = await store.claimCommands(purpose, [...scopes.keys()]);
    } catch {
      continue; // database away: the next poll tries again
    }
    for (const cmd of cmds) {
      const scope = scopes.get(cmd.key);
      if (!scope || state.running.has(cmd.id)) continue;
      state.running.add(cmd.id);
      void (async () => {
        let outcome: CommandOutcome;
        try {
          outcome = { ok: true, result: await scope.handler(cmd) };
        } catch (err) {
          // A runner's refusal is an AppError (decision 0023); anything else failed the command: 409 with its text.
          outcome = err instanceof AppError ? { ok: false, status: err.status, message: err.message } : { ok: false, status: 409, message: errorText(err) };
        }
        await store.finishCommand(cmd.id, outcome).catch(() => {});
        state.running.delete(cmd.id);
      })();
    }
  }
}

function startShared(state: HostState, registry: SessionRegistry, settings: SessionSettings) {
  const { store } = registry;
  // The control channel.
  const sub = createWorkerConnection();
  sub.on("message", (_channel: string, raw: string) => {
    let message: ControlMessage;
    try {
      message = JSON.parse(raw) as ControlMessage;
    } catch {
      return; // not ours
    }
    if (message && typeof message.purpose === "string" && typeof message.key === "string") onControl(state, message);
  });
  void sub.subscribe(controlChannel()).catch(() => {});
  state.subscriber = sub;

  // The poll: desired (a missed stop) and commands (a missed wake) of what this process holds.
  const poll = setInterval(() => {
    void (async () => {
      const byPurpose = new Map<SessionPurpose, Held[]>();
      for (const h of state.held.values()) byPurpose.set(h.purpose, [...(byPurpose.get(h.purpose) ?? []), h]);
      for (const [purpose, helds] of byPurpose) {
        try {
          const desired = await store.desiredOf(
            purpose,
            helds.map((h) => h.key),
          );
          for (const [jobId, h] of state.held) {
            if (h.purpose === purpose && desired.get(h.key) !== "run") abortHeld(jobId, "stop");
          }
        } catch {
          // database away: keep running, ask again next time
        }
      }
      const withWork = [...state.held.values()].filter((h) => h.commands.length || h.wake.size);
      for (const h of withWork) for (const w of h.wake) w();
      await runCommands(
        state,
        withWork.filter((h) => h.commands.length),
      );
    })();
  }, settings.SESSION_POLL_MS);
  poll.unref();

  // Reconcile: sessions that should run but have no job (Redis emptied, a lost race).
  const reconcile = setInterval(() => void restoreSessions(registry), settings.SESSION_RECONCILE_MS);
  reconcile.unref();

  // Presence and fair shares.
  const purposes = HOSTED_PURPOSES;
  const beat = async () => {
    const conn = producerConnection();
    if (conn.status !== "ready") {
      state.share.clear(); // alone as far as we know: take what comes
      return;
    }
    try {
      // Drained (issue 31): hand everything back and leave the hosts set, so the others' fair
      // shares no longer count this worker; undrained: take sessions again.
      const drained = await conn.hget(drainKey(), state.workerId);
      if (drained && !state.drainedAt) await drainHost(state, drained);
      else if (!drained && state.drainedAt) await undrainHost(state);
      if (state.drainedAt) {
        await conn.zrem(hostsKey(), state.workerId);
        return;
      }
      const now = Date.now();
      const gone = now - settings.SESSION_HOST_BEAT_MS * 3;
      const [, , [, hosts]] = (await conn.multi().zadd(hostsKey(), now, state.workerId).zremrangebyscore(hostsKey(), 0, gone).zcard(hostsKey()).exec()) as [
        unknown,
        unknown,
        [Error | null, number],
      ];
      if (!hosts || hosts <= 1) {
        state.share.clear();
        return;
      }
      for (const purpose of purposes) {
        const wanted = await store.wantedCount([purpose]);
        const fair = Math.ceil(wanted / hosts);
        state.share.set(purpose, fair + Math.max(2, Math.ceil(fair * 0.1)));
      }
    } catch {
      state.share.clear();
    }
  };
  void beat();
  const beats = setInterval(() => void beat(), settings.SESSION_HOST_BEAT_MS);
  beats.unref();
  state.timers.push(poll, reconcile, beats);
}
