/**
 * Is the job engine usable? Read by the header badge of every page and by /api/health,
 * so it is cheap: one PING and two small reads on the producer connection, at most
 * STATUS_TIMEOUT_MS, and the answer is reused for CACHE_MS.
 */
import { producerConnection, heartbeatKeys, queuePrefix, redisUrl, waitForReady, withTimeout } from "./redis.server";
import type { QueueName } from "./queues.server";
import { remember } from "~/utils/remember.server";

/** What each worker writes under `heartbeatKeys.worker(id)` (jobs/worker.ts) and this module reads. */
export type HeartbeatRecord = {
  id: string;
  pid: number;
  host: string;
  mode: "in-process" | "standalone";
  queues: QueueName[];
  startedAt: string;
  at: number;
};

export type JobEngineStatus = { redis: "up" | "down"; worker: "running" | "stopped" | "unknown" };
export type JobEngineDetails = JobEngineStatus & {
  /** ISO time of the latest heartbeat any worker wrote, or null when none ever did (or Redis is down). */
  lastHeartbeat: string | null;
  /** Live workers (their heartbeat key has not expired). */
  workers: Pick<HeartbeatRecord, "id" | "pid" | "host" | "mode" | "startedAt">[];
};

const CACHE_MS = 2_000;
const STATUS_TIMEOUT_MS = 500;

type Cache = { key: string; at: number; value?: JobEngineDetails; pending?: Promise<JobEngineDetails> };
const g = remember("job-status", (): { jobStatus?: Cache } => ({}));

const DOWN: JobEngineDetails = { redis: "down", worker: "unknown", lastHeartbeat: null, workers: [] };

async function read(): Promise<JobEngineDetails> {
  const conn = producerConnection();
  const started = Date.now();
  if (!(await waitForReady(conn, STATUS_TIMEOUT_MS))) return DOWN;
  const left = Math.max(50, STATUS_TIMEOUT_MS - (Date.now() - started));
  try {
    const [[, ids], [, last]] = (await withTimeout(
      conn.multi().smembers(heartbeatKeys.workers()).get(heartbeatKeys.last()).exec(),
      left,
      "Job engine status",
    )) as [[Error | null, string[]], [Error | null, string | null]];
    let workers: JobEngineDetails["workers"] = [];
    if (ids.length) {
      const values = await withTimeout(conn.mget(ids.map(heartbeatKeys.worker)), left, "Worker heartbeats");
      const dead = ids.filter((_, i) => !values[i]);
      // Forget workers whose heartbeat expired (killed without a clean shutdown).
      if (dead.length) void conn.srem(heartbeatKeys.workers(), ...dead).catch(() => {});
      workers = values
        .filter((v): v is string => !!v)
        .map((v) => JSON.parse(v) as HeartbeatRecord)
        .map(({ id, pid, host, mode, startedAt }) => ({ id, pid, host, mode, startedAt }));
    }
    const lastMs = last ? Number(last) : NaN;
    return {
      redis: "up",
      worker: workers.length ? "running" : "stopped",
      lastHeartbeat: Number.isFinite(lastMs) ? new Date(lastMs).toISOString() : null,
      workers,
    };
  } catch {
    return DOWN;
  }
}

/** Redis, worker state and heartbeat details (cached ≤ 2 s, answers within ~0.5 s). */
export async function jobEngineDetails(): Promise<JobEngineDetails> {
  const key = `${redisUrl()}|${queuePrefix()}`;
  if (g.jobStatus?.key !== key) g.jobStatus = { key, at: 0 };
  const cache = g.jobStatus;
  if (cache.value && Date.now() - cache.at < CACHE_MS) return cache.value;
  cache.pending ??= read()
    .catch(() => DOWN)
    .then((value) => {
      cache.value = value;
      cache.at = Date.now();
      return value;
    })
    .finally(() => {
      cache.pending = undefined;
    });
  return cache.pending;
}

/** The header badge's question: `{ redis: "up" | "down", worker: "running" | "stopped" | "unknown" }`. */
export async function jobEngineStatus(): Promise<JobEngineStatus> {
  const { redis, worker } = await jobEngineDetails();
  return { redis, worker };
}

/**
 * Which of these workers have a live heartbeat now, read fresh (no cache): for a holder the
 * cached list above does not know yet — a worker that started within the last 2 s and took a
 * session at once is alive, not "waiting for a worker". Empty when Redis cannot tell.
 */
export async function workersAliveNow(ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const conn = producerConnection();
  if (!(await waitForReady(conn, STATUS_TIMEOUT_MS))) return new Set();
  try {
    const values = await withTimeout(conn.mget(ids.map(heartbeatKeys.worker)), STATUS_TIMEOUT_MS, "Worker heartbeats");
    return new Set(ids.filter((_, i) => !!values[i]));
  } catch {
    return new Set();
  }
}

/** Forget the cached answer (after starting or stopping something, and in tests). */
export function resetJobEngineStatus() {
  g.jobStatus = undefined;
}
