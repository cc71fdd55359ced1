/**
 * Is the job engine usable? Read by the header badge of every page and by /api/health,
 * so it is cheap: one PING and two small reads on the producer connection, at most
 * STATUS_TIMEOUT_MS, and the answer is reused for CACHE_MS.
 */
import { producerConnection, heartbeatKeys, queuePrefix, redisUrl, waitForReady, withTimeout } from "./redis.server";
import type { QueueName } from "./queues.server";
import { drainKey } from "./session-control.server";
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
  /** Sessions held per purpose (issue 29; absent from workers older than it). */
  sessions?: Record<string, number>;
  /** Sessions it can hold per purpose (its SESSION_CONCURRENCY). */
  capacity?: Record<string, number>;
  /** Issue 31: resident memory (bytes), the app's version, and since when it is drained (absent: it takes sessions). */
  rss?: number;
  version?: string;
  drainedAt?: string;
};

/** A worker as /api/health lists it: alive (its beat is fresh) or lost (its beat expired). */
export type WorkerInfo = Pick<HeartbeatRecord, "id" | "pid" | "host" | "mode" | "startedAt"> & {
  state: "alive" | "lost";
  /** Milliseconds since its last beat, as of the read. */
  beatAgeMs: number;
  sessions: Record<string, number>;
  capacity: Record<string, number>;
  /** When its loss was noticed (ISO), for lost ones. */
  lostAt?: string;
  /** Issue 31 (null from a worker older than it). */
  rssBytes: number | null;
  version: string | null;
  drainedAt: string | null;
};

export type JobEngineStatus = {
  redis: "up" | "down";
  worker: "running" | "stopped" | "unknown";
  /** Issue 29: how many workers beat now, and how many were lost within LOST_KEEP_MS (the header counts them). */
  workers?: number;
  lost?: number;
};
export type JobEngineDetails = Pick<JobEngineStatus, "redis" | "worker"> & {
  /** ISO time of the latest heartbeat any worker wrote, or null when none ever did (or Redis is down). */
  lastHeartbeat: string | null;
  /** Live workers (their heartbeat key has not expired). */
  workers: WorkerInfo[];
  /** Workers whose beat expired within the last LOST_KEEP_MS (killed, or cut off from Redis). */
  lost: WorkerInfo[];
};

/** Short: a dead holder must show within ~6 s (beat TTL 3 s + this + the watcher's second). */
const CACHE_MS = 1_000;
/** How long a lost worker stays listed in /api/health. */
export const LOST_KEEP_MS = 10 * 60_000;
const STATUS_TIMEOUT_MS = 500;

type Cache = { key: string; at: number; value?: JobEngineDetails; pending?: Promise<JobEngineDetails> };
const g = remember("job-status", (): { jobStatus?: Cache } => ({}));

const DOWN: JobEngineDetails = { redis: "down", worker: "unknown", lastHeartbeat: null, workers: [], lost: [] };

function info(r: HeartbeatRecord, state: WorkerInfo["state"], now: number, lostAt?: number): WorkerInfo {
  return {
    id: r.id,
    pid: r.pid,
    host: r.host,
    mode: r.mode,
    startedAt: r.startedAt,
    state,
    beatAgeMs: Math.max(0, now - r.at),
    sessions: r.sessions ?? {},
    capacity: r.capacity ?? {},
    rssBytes: r.rss ?? null,
    version: r.version ?? null,
    drainedAt: r.drainedAt ?? null,
    ...(lostAt !== undefined ? { lostAt: new Date(lostAt).toISOString() } : {}),
  };
}

async function read(): Promise<JobEngineDetails> {
  const conn = producerConnection();
  const started = Date.now();
  if (!(await waitForReady(conn, STATUS_TIMEOUT_MS))) return DOWN;
  const left = Math.max(50, STATUS_TIMEOUT_MS - (Date.now() - started));
  try {
    const now = Date.now();
    const [[, ids], [, last], [, lostRaw]] = (await withTimeout(
      conn
        .multi()
        .smembers(heartbeatKeys.workers())
        .get(heartbeatKeys.last())
        .zrangebyscore(heartbeatKeys.lost(), now - LOST_KEEP_MS, "+inf", "WITHSCORES")
        .exec(),
      left,
      "Job engine status",
    )) as [[Error | null, string[]], [Error | null, string | null], [Error | null, string[]]];
    let workers: WorkerInfo[] = [];
    if (ids.length) {
      const values = await withTimeout(conn.mget(ids.map(heartbeatKeys.worker)), left, "Worker heartbeats");
      // A worker whose beat expired is not alive; the watcher (sweepDeadWorkers) lists it as lost.
      workers = values.filter((v): v is string => !!v).map((v) => info(JSON.parse(v) as HeartbeatRecord, "alive", now));
    }
    let lost: WorkerInfo[] = [];
    const lostIds: { id: string; at: number }[] = [];
    for (let i = 0; i + 1 < lostRaw.length; i += 2) lostIds.push({ id: lostRaw[i]!, at: Number(lostRaw[i + 1]) });
    const alive = new Set(workers.map((w) => w.id));
    const stillLost = lostIds.filter((l) => !alive.has(l.id));
    if (stillLost.length) {
      const records = await withTimeout(conn.hmget(heartbeatKeys.records(), ...stillLost.map((l) => l.id)), left, "Lost workers");
      lost = stillLost.flatMap((l, i) => {
        const raw = records[i];
        const r: HeartbeatRecord = raw
          ? (JSON.parse(raw) as HeartbeatRecord)
          : { id: l.id, pid: 0, host: "", mode: "standalone", queues: [], startedAt: "", at: l.at };
        return [info(r, "lost", now, l.at)];
      });
    }
    const lastMs = last ? Number(last) : NaN;
    return {
      redis: "up",
      worker: workers.length ? "running" : "stopped",
      lastHeartbeat: Number.isFinite(lastMs) ? new Date(lastMs).toISOString() : null,
      workers,
      lost,
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
  const { redis, worker, workers, lost } = await jobEngineDetails();
  return { redis, worker, workers: workers.length, lost: lost.length };
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

/**
 * The beat watcher's step (app/models/session-liveness.server.ts): workers named in the
 * workers set whose beat key expired are moved to the lost list. Returns the ids THIS call
 * moved: SREM is atomic, so with several web processes and workers watching, each death is
 * announced by exactly one of them. Also forgets workers lost longer than LOST_KEEP_MS.
 */
export async function sweepDeadWorkers(): Promise<string[]> {
  const conn = producerConnection();
  if (conn.status !== "ready") return [];
  // Not on a page's path: a loaded machine may take longer than the badge's 0.5 s.
  const SWEEP_TIMEOUT_MS = 2_000;
  const ids = await withTimeout(conn.smembers(heartbeatKeys.workers()), SWEEP_TIMEOUT_MS, "Workers");
  const won: string[] = [];
  if (ids.length) {
    const values = await withTimeout(conn.mget(ids.map(heartbeatKeys.worker)), SWEEP_TIMEOUT_MS, "Worker heartbeats");
    const now = Date.now();
    for (const id of ids.filter((_, i) => !values[i])) {
      const [[, removed]] = (await conn.multi().srem(heartbeatKeys.workers(), id).exec()) as [[Error | null, number]];
      if (removed !== 1) continue;
      await conn.zadd(heartbeatKeys.lost(), now, id);
      won.push(id);
    }
  }
  const old = await conn.zrangebyscore(heartbeatKeys.lost(), 0, Date.now() - LOST_KEEP_MS);
  if (old.length)
    await conn
      .multi()
      .zrem(heartbeatKeys.lost(), ...old)
      .hdel(heartbeatKeys.records(), ...old)
      .hdel(drainKey(), ...old)
      .exec();
  if (won.length) resetJobEngineStatus();
  return won;
}

/**
 * Drain a live worker (issue 31, `POST /api/workers/{id}/drain`): it hands its sessions over and
 * takes no new ones until undrained or restarted (jobs/session-host.server.ts `drainHost`; it
 * reads this within SESSION_HOST_BEAT_MS). Returns false when no live worker has this id.
 */
export async function setWorkerDrained(id: string, drained: boolean): Promise<boolean> {
  const conn = producerConnection();
  if (!(await waitForReady(conn, STATUS_TIMEOUT_MS))) throw new Error("Redis is not reachable");
  if (!(await withTimeout(conn.exists(heartbeatKeys.worker(id)), STATUS_TIMEOUT_MS, "Worker heartbeat"))) return false;
  if (drained) await withTimeout(conn.hsetnx(drainKey(), id, new Date().toISOString()), STATUS_TIMEOUT_MS, "Drain");
  else await withTimeout(conn.hdel(drainKey(), id), STATUS_TIMEOUT_MS, "Undrain");
  resetJobEngineStatus();
  return true;
}

/** Forget the cached answer (after starting or stopping something, and in tests). */
export function resetJobEngineStatus() {
  g.jobStatus = undefined;
}
