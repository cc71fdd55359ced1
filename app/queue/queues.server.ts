/**
 * Every queue of the job engine, the payload of every job, and the producer helper.
 *
 * A payload names its job in `kind` (it becomes the BullMQ job name, which is what the
 * queue board shows). Payloads carry ids, never secrets: a processor loads passwords and
 * recovery codes from the database by account id when it runs (CONVENTIONS rule 10).
 *
 * Web code only adds jobs, through `enqueue()`: it fails fast with a 503 AppError
 * Response when Redis is unreachable. Processors live in jobs/processors/; a queue
 * without a processor gets no worker (see PROCESSED_QUEUES in jobs/processors/index.ts).
 */
import { Queue, type JobsOptions } from "bullmq";
import type { AlertPayload } from "#api/alerts";
import { JOB_ERRORS } from "#api/jobs";
import { HOSTED_PURPOSES, PURPOSE_LABELS, type HostedPurpose } from "#api/sessions";
import { closeProducerConnection, producerConnection, queuePrefix, redisUrl, waitForReady } from "./redis.server";
import { noteJobStarted } from "~/utils/audit-context.server";
import { AppError } from "~/utils/app-error";
import { remember } from "~/utils/remember.server";

/** Collection sets of spec 2 §3 "Collections": 161 Dragon Collection Set 1, 178 Dragon Collection Set 2. */
export type CollectionSetId = 161 | 178;

/**
 * spec 2 §4 "Automation": one automation cycle (run mastic, wait 2 s, read collection
 * status, wait 2 s, send gifts in stock, wait 2 s, read status again, log "cycle completed").
 * The next cycle is enqueued by the processor with `delay = intervalSeconds`, until
 * `run` reaches `repeat` (0 = infinite). Credentials are looked up by `accountId`.
 */
export type AutomationCycleJob = {
  kind: "cycle";
  /** The operator whose Collections screen runs it (state, activity log). */
  operatorId: string;
  /** The saved profile whose stored credentials the cycle acts with. */
  profileId: string;
  /** The Auto run this cycle belongs to; turning Auto off or on again starts another chain. */
  chain: string;
  /** The logged-in platform account (collections saved profile). */
  accountId: string;
  collectionId: CollectionSetId;
  /** The recipient's account id (8 digits by default in the UI). */
  recipientId: string;
  /** 1-based number of this cycle. */
  run: number;
  /** Chosen repeat count; 0 means infinite (spec 2 §9 "Repeat options"). */
  repeat: number;
  /** 5 to 60 s in steps of 5 (spec 2 §9 "Auto interval"). */
  intervalSeconds: number;
};
export type AutomationJob = AutomationCycleJob;

/**
 * spec 2 §4 "Stalker": "Statuses refresh every 5 minutes while a user is selected"
 * (spec 2 §9 "Status refresh for characters: every 5 minutes"). Game-service calls act
 * with the credentials of `actingAccountId` (spec 2 §6).
 */
export type StatusRefreshJob = {
  kind: "statuses";
  actingAccountId: string;
  /** Users whose online status and room to read; absent means every user. */
  accountIds?: string[];
  /** Skip caches (the manual Refresh's force flag). */
  force: boolean;
  /** Pictures and gift stats too: the first load of a user just added (issue 19 item 8). */
  everything?: boolean;
};

/**
 * A long-lived session of the session host (jobs/session-host.server.ts, docs/sessions.md): the
 * stalker (spec 2 §4), a trading run (issue 11, queue "trader"), the GalaCord bot (issue 13,
 * queue "relay", key "bot") or a Collections connection (issue 12, queue "collections"). Job id
 * `<purpose>-<key>`; `accountId` is the session's key.
 */
export type SessionJob = {
  kind: "session";
  accountId: string;
  /** Who asked: an operator's start, or the restore of sessions that should run. */
  reason: "start" | "restore";
};

/**
 * spec 1 §4 (Bowling Bots "Refresh control") and spec 2 §4 "Stalker" (manual Refresh):
 * fetch users, send the user-agent map, then per user fetch pic, status, gifts and
 * collection in parallel with the cache skipped, then update last-fetched.
 */
export type BulkRefreshJob = {
  kind: "refresh";
  /** Which list is refreshed: the bowling users (section id gifts) or all characters. */
  section: "bowling" | "characters";
  /** Game-service calls act with this account's credentials, when the section needs one. */
  actingAccountId?: string;
  /** X-Skip-Cache for every per-user call. */
  skipCache: boolean;
  /** ISO time the refresh was asked for; becomes the new last-fetched time on success. */
  requestedAt: string;
};

/** The probe: sleeps `ms`, then records "Probe job <id> completed" in System Logs. */
export type ProbeJob = {
  kind: "probe";
  ms: number;
};
/** Daily System Logs clean-up (`cleanupLogs()`, and the audit trail's retention), run by the "logs-cleanup" scheduler. */
export type LogsCleanupJob = { kind: "logs-cleanup" };
/** Daily backup into DATA_DIR/backups, the newest BACKUP_KEEP kept (docs/decisions/0017); a no-op when BACKUP_DAILY is off. */
export type BackupJob = { kind: "backup" };
/** Pulls the daily awards/spending of every bowling account into daily_awards (docs/summary.md). */
export type DailyStatsPullJob = { kind: "daily-stats-pull" };
export type SystemJob = ProbeJob | LogsCleanupJob | DailyStatsPullJob | BackupJob;

/** One alert to one destination (issue 31 item 2; app/models/alert.server.ts). The destination's secret is loaded when it runs. */
export type AlertJob = { kind: "deliver"; destinationId: string; incident: string; alert: AlertPayload };

/** Queue name → payload type. Queue names are also the Redis key segment (no ':'). Every session purpose has its queue (api/sessions.ts). */
export type QueuePayloads = { [P in HostedPurpose]: SessionJob } & {
  automation: AutomationJob;
  "status-refresh": StatusRefreshJob;
  "bulk-refresh": BulkRefreshJob;
  system: SystemJob;
  alerts: AlertJob;
};
export type QueueName = keyof QueuePayloads;
export type JobKind<Q extends QueueName> = QueuePayloads[Q]["kind"];

export const QUEUE_NAMES = ["automation", ...HOSTED_PURPOSES, "status-refresh", "bulk-refresh", "system", "alerts"] as const satisfies readonly QueueName[];

/** Shown on the queue board beside each queue. */
export const QUEUE_DESCRIPTIONS: Record<QueueName, string> = {
  automation: "Collections automation cycles (spec 2 §4 Automation)",
  ...(Object.fromEntries(HOSTED_PURPOSES.map((p) => [p, `Sessions of ${PURPOSE_LABELS[p]} (docs/sessions.md)`])) as Record<HostedPurpose, string>),
  "status-refresh": "Characters status refreshes, every 5 minutes (spec 2 §4 Stalker)",
  "bulk-refresh": "Bulk refreshes of bowling users and characters (spec 1 §4 Refresh control)",
  system: "Probe jobs, the daily logs clean-up and the daily backup",
  alerts: "Alerts to the operators' webhooks and Discord (issue 31), retried with backoff",
};

const DAY = 24 * 3600;

/**
 * Retries with exponential backoff, and bounded retention: finished jobs are kept long
 * enough to inspect on the board, then dropped so Redis does not grow without limit.
 */
const RETAIN = {
  removeOnComplete: { age: DAY, count: 1_000 },
  removeOnFail: { age: 7 * DAY, count: 5_000 },
} satisfies JobsOptions;

export const DEFAULT_JOB_OPTIONS: Record<QueueName, JobsOptions> = {
  // A cycle that fails is retried a little later; the next cycle is a new job anyway.
  automation: { attempts: 3, backoff: { type: "exponential", delay: 2_000 }, ...RETAIN },
  // A session job lives as long as its session (jobs/session-host.server.ts); the processor
  // reconnects by itself. Finished jobs are removed at once so the idempotent id
  // `<purpose>-<key>` is free for the next start or restore.
  ...(Object.fromEntries(HOSTED_PURPOSES.map((p) => [p, { attempts: 1, removeOnComplete: true, removeOnFail: true }])) as Record<HostedPurpose, JobsOptions>),
  // A status refresh is superseded by the next one five minutes later: few retries.
  "status-refresh": {
    attempts: 2,
    backoff: { type: "exponential", delay: 10_000 },
    removeOnComplete: { age: 3600, count: 200 },
    removeOnFail: RETAIN.removeOnFail,
  },
  "bulk-refresh": { attempts: 3, backoff: { type: "exponential", delay: 5_000 }, ...RETAIN },
  system: { attempts: 3, backoff: { type: "exponential", delay: 1_000 }, ...RETAIN },
  // A destination that is down gets 6 tries over about a minute (2, 4, 8, 16, 32 s apart).
  alerts: { attempts: 6, backoff: { type: "exponential", delay: 2_000 }, ...RETAIN },
};

/** The 503 answer of every job endpoint while Redis is down. */
export const OFFLINE_MESSAGE = JOB_ERRORS.offline;

export function jobEngineOffline(): AppError {
  return new AppError(503, OFFLINE_MESSAGE, { headers: { "Retry-After": "5" } });
}

/** True for the 503 above: callers that can do without the job engine (a selection, a live connection) go on without it. */
export function isJobEngineOffline(err: unknown): boolean {
  return err instanceof AppError && err.status === 503 && err.message === OFFLINE_MESSAGE;
}

type QueueRegistry = { key: string; queues: Map<QueueName, Queue>; listeners: Set<(name: QueueName, queue: Queue) => void> };
const g = remember("queues", (): { queues?: QueueRegistry } => ({}));

function queueRegistry(): QueueRegistry {
  const key = `${redisUrl()}|${queuePrefix()}`;
  if (g.queues && g.queues.key !== key) {
    const old = g.queues;
    g.queues = undefined;
    for (const q of old.queues.values()) void q.close().catch(() => {});
  }
  g.queues ??= { key, queues: new Map(), listeners: new Set() };
  return g.queues;
}

function createQueue<Q extends QueueName>(name: Q): Queue {
  const queue = new Queue(name, {
    connection: producerConnection(),
    prefix: queuePrefix(),
    defaultJobOptions: DEFAULT_JOB_OPTIONS[name],
  });
  // Connection errors also surface on the connection's own listener; this one keeps
  // EventEmitter from throwing on an unhandled 'error'.
  queue.on("error", () => {});
  // If initialisation fails for good (e.g. the connection dropped mid-handshake), make the
  // next getQueue() build a fresh queue instead of reusing a dead one.
  queue.waitUntilReady().catch(() => {
    const reg = g.queues;
    if (reg?.queues.get(name) === queue) reg.queues.delete(name);
  });
  return queue;
}

/**
 * The producer-side Queue for `name` (shared, created on first use). Typed loosely on
 * purpose (BullMQ's generics do not model a union of job names); `enqueue()` is the
 * typed way in.
 */
export function getQueue(name: QueueName): Queue {
  const reg = queueRegistry();
  let queue = reg.queues.get(name);
  if (!queue || queue.closing) {
    queue = createQueue(name);
    reg.queues.set(name, queue);
    for (const fn of reg.listeners) fn(name, queue);
  }
  return queue;
}

/** Called when a queue is (re)created, so the board can follow. Returns an unsubscribe function. */
export function onQueueCreated(fn: (name: QueueName, queue: Queue) => void): () => void {
  const reg = queueRegistry();
  reg.listeners.add(fn);
  return () => reg.listeners.delete(fn);
}

/** Is the producer connection usable right now (waiting at most `timeoutMs` for a connection being made)? */
export async function producerReady(timeoutMs = 300): Promise<boolean> {
  return waitForReady(producerConnection(), timeoutMs);
}

export type EnqueueOptions = {
  /** Idempotent job id: adding a job whose id exists (and is not yet removed) adds nothing. No ':' and not an integer. */
  jobId?: string;
  /** Milliseconds before the job may run. */
  delay?: number;
  /** Overrides of the queue's default job options (attempts, backoff, priority). */
  attempts?: number;
  priority?: number;
};

/**
 * Adds a job. Throws a 503 AppError ("Job engine offline: Redis is not reachable", Retry-After 5)
 * at once when Redis is unreachable (never hangs waiting for it).
 */
export async function enqueue<Q extends QueueName>(queueName: Q, payload: QueuePayloads[Q], options: EnqueueOptions = {}) {
  if (options.jobId !== undefined) assertJobId(options.jobId);
  if (!(await producerReady())) throw jobEngineOffline();
  try {
    const queue = getQueue(queueName);
    const added = await queue.add(payload.kind, payload, {
      ...(options.jobId !== undefined ? { jobId: options.jobId } : {}),
      ...(options.delay !== undefined ? { delay: options.delay } : {}),
      ...(options.attempts !== undefined ? { attempts: options.attempts } : {}),
      ...(options.priority !== undefined ? { priority: options.priority } : {}),
    });
    // A job a page action or /api call starts is on the audit trail (docs/decisions/0016).
    noteJobStarted(queueName, added.id, payload.kind);
    // When the id already existed, add() changed nothing but answers with a Job built from
    // *this* call's payload; read the stored job so callers see what will actually run.
    if (options.jobId === undefined) return added;
    return (await queue.getJob(options.jobId)) ?? added;
  } catch (err) {
    if (!isConnectionError(err)) throw err;
    throw jobEngineOffline();
  }
}

/** BullMQ refuses integer-looking and ':'-containing custom ids; say so before Redis does. */
export function assertJobId(id: string) {
  if (!id || id.includes(":") || `${parseInt(id, 10)}` === id) {
    throw new Error(`Invalid job id "${id}": use a non-numeric id without ':' (e.g. "probe-abc")`);
  }
}

export function isConnectionError(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /Stream isn't writeable|Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Command timed out|timed out|MaxRetriesPerRequest|enableOfflineQueue/i.test(
    message,
  );
}

/**
 * Repeating jobs, upserted at boot with stable ids (BullMQ "job schedulers"): upserting
 * again updates the one scheduler instead of adding a second.
 */
export const SCHEDULERS = [
  {
    id: "logs-cleanup-daily",
    queue: "system",
    // Every day at 03:30 server time.
    repeat: { pattern: "30 3 * * *" },
    payload: { kind: "logs-cleanup" },
  },
  {
    id: "backup-daily",
    queue: "system",
    // Every day at 04:10 server time (after the clean-up).
    repeat: { pattern: "10 4 * * *" },
    payload: { kind: "backup" },
  },
  {
    id: "daily-stats-pull-hourly",
    queue: "system",
    // Every hour at minute 7 (docs/summary.md [D] "schedule").
    repeat: { pattern: "7 * * * *" },
    payload: { kind: "daily-stats-pull" },
  },
] as const satisfies readonly { id: string; queue: QueueName; repeat: { pattern: string } | { every: number }; payload: QueuePayloads[QueueName] }[];

export async function upsertSchedulers() {
  for (const s of SCHEDULERS) {
    await getQueue(s.queue).upsertJobScheduler(s.id, { ...s.repeat }, { name: s.payload.kind, data: { ...s.payload } });
  }
}

/** Closes every producer Queue and the producer connection (tests' afterAll, shutdown). */
export async function closeQueues() {
  const reg = g.queues;
  g.queues = undefined;
  if (reg) await Promise.all([...reg.queues.values()].map((q) => q.close().catch(() => {})));
  await closeProducerConnection();
}
