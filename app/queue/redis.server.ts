/**
 * Redis connections of the job engine (BullMQ's "going to production" and "failing fast
 * when Redis is down" guides):
 *
 * - the **producer** connection (queues, the queue board, status probes) never queues
 *   commands while Redis is away (`enableOfflineQueue: false`), so a web request that
 *   adds a job fails at once instead of hanging; it keeps reconnecting in the background
 *   so the app recovers by itself when Redis comes back;
 * - **worker** connections retry forever (`maxRetriesPerRequest: null`), as BullMQ
 *   requires for its blocking commands.
 *
 * Connections are kept with remember(), so Vite's dev reloads do not open a second set.
 */
import os from "node:os";
import { Redis, type RedisOptions } from "ioredis";
import { z } from "zod";
import { getEnv } from "~/utils/env.server";
import { remember } from "~/utils/remember.server";

/** Job-engine tuning read from the environment (documented in docs/jobs.md). */
const settingsSchema = z.object({
  /** How long a worker's lock on an active job lasts before the job counts as stalled. */
  JOB_LOCK_DURATION_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** How often workers look for stalled jobs (jobs whose worker died) and put them back. */
  JOB_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  /**
   * How many times a job whose worker died (lock expired) is put back to run again; one
   * more stall fails it for good. Several, so two crashes in a row (a deploy during an
   * outage) do not drop a job that has attempts left.
   */
  JOB_MAX_STALLED_COUNT: z.coerce.number().int().min(1).max(100).default(5),
  /**
   * How often a worker refreshes its heartbeat key; the key lives three times as long. Every
   * displayed session state joins its holder's beat (issue 29 "Holder liveness", decision 0027):
   * 1 s beats make a dead worker visible within ~3 s (+1 s for the watcher).
   */
  WORKER_HEARTBEAT_MS: z.coerce.number().int().min(200).max(60_000).default(1_000),
  /** How long a worker waits for active jobs on SIGINT/SIGTERM before it stops anyway. */
  WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
});
export type JobSettings = z.infer<typeof settingsSchema>;

export function jobSettings(): JobSettings {
  const parsed = settingsSchema.safeParse(process.env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid job engine environment: ${issues}`);
  }
  return parsed.data;
}

export function redisUrl() {
  return getEnv().REDIS_URL;
}

export function queuePrefix() {
  return getEnv().QUEUE_PREFIX;
}

/** The URL without its password, fit for logs and messages. */
export function safeRedisUrl(url = redisUrl()) {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString().replace(/\/$/, "");
  } catch {
    return "(invalid REDIS_URL)";
  }
}

/** Host and port REDIS_URL points at (defaults as Redis has them). */
export function redisAddress(url = redisUrl()): { host: string; port: number; password?: string; tls: boolean } {
  const u = new URL(url);
  return {
    host: u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
    port: u.port ? Number(u.port) : 6379,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    tls: u.protocol === "rediss:",
  };
}

/** Warnings for connection errors, at most one per outage, so a dead Redis does not flood the console. */
function attachErrorLog(conn: Redis, label: string) {
  let warned = false;
  conn.on("error", (err: Error) => {
    if (warned) return;
    warned = true;
    console.warn(`[jobs] ${label} connection to ${safeRedisUrl()} failed: ${err.message} (retrying in the background)`);
  });
  conn.on("ready", () => {
    if (warned) console.warn(`[jobs] ${label} connection to ${safeRedisUrl()} is back`);
    warned = false;
  });
}

/** Reconnect quickly (Redis coming back is noticed within 2 s) and forever. */
const retryStrategy = (times: number) => Math.min(times * 200, 2_000);

function baseOptions(): RedisOptions {
  return {
    connectionName: `galaxy-toolbox:${os.hostname()}:${process.pid}`,
    connectTimeout: 2_000,
    retryStrategy,
  };
}

/**
 * The web's own connections (the producer, the live-bus subscriber) fail fast and come back
 * fast (issue 29 item 3; docs/decisions/0029): a request never waits longer than these for
 * Redis, and Redis coming back is noticed within about a second.
 */
export const WEB_REDIS = {
  connectTimeoutMs: 1_000,
  /** A command without an answer by then rejects (a Redis that stopped answering). */
  commandTimeoutMs: 1_500,
  /** Reconnect attempts back off to at most this. */
  retryCapMs: 1_000,
  /** A PING this often on an idle "ready" connection; one without an answer drops the connection. */
  watchdogEveryMs: 1_000,
  keepAliveMs: 5_000,
} as const;

function webOptions() {
  return {
    connectionName: `galaxy-toolbox:${os.hostname()}:${process.pid}`,
    connectTimeout: WEB_REDIS.connectTimeoutMs,
    retryStrategy: (times: number) => Math.min(times * 100, WEB_REDIS.retryCapMs),
    keepAlive: WEB_REDIS.keepAliveMs,
  } satisfies RedisOptions;
}

/**
 * A partition that drops packets never errors a connection: ioredis would say "ready" for
 * minutes (until TCP gives up) and, after the heal, wait out TCP's retransmission backoff. A
 * PING every second that gets no answer within WEB_REDIS.commandTimeoutMs drops the connection
 * and reconnects: commands fail at once meanwhile (no offline queue), and a fresh connection
 * is made as soon as Redis answers again. Stops when the connection ends for good.
 */
export function watchConnection(conn: Redis, label: string) {
  let busy = false;
  let handshakeSince: number | undefined;
  const timer = setInterval(() => {
    if (conn.status === "end") return clearInterval(timer);
    // A connection whose socket opened but whose handshake never answers (the partition
    // began between the two) is dropped too: ioredis would wait on it.
    if (conn.status === "connect" || conn.status === "connecting") {
      handshakeSince ??= Date.now();
      if (Date.now() - handshakeSince > WEB_REDIS.connectTimeoutMs + WEB_REDIS.commandTimeoutMs) {
        handshakeSince = undefined;
        conn.disconnect(true);
      }
      return;
    }
    handshakeSince = undefined;
    if (busy || conn.status !== "ready") return;
    busy = true;
    withTimeout(conn.ping(), WEB_REDIS.commandTimeoutMs, `Redis PING (${label})`)
      .catch((err: Error) => {
        if (conn.status !== "ready") return;
        console.warn(`[jobs] ${label} connection to ${safeRedisUrl()} stopped answering (${err.message}); reconnecting`);
        conn.emit("watchdog", err);
        conn.disconnect(true);
      })
      .finally(() => {
        busy = false;
      });
  }, WEB_REDIS.watchdogEveryMs);
  timer.unref();
}

/** A connection for the live bus's subscriber (app/queue/live.server.ts): the web's fail-fast settings, watched. */
export function createSubscriberConnection(): Redis {
  // No commandTimeout: it runs from the moment a command is queued, so a SUBSCRIBE sent while
  // Redis is away would be dropped for good; the watchdog bounds a dead or stuck connection.
  const conn = new Redis(redisUrl(), { ...webOptions(), maxRetriesPerRequest: null, enableOfflineQueue: true });
  attachErrorLog(conn, "live-bus");
  watchConnection(conn, "live-bus");
  return conn;
}

/**
 * A connection whose commands fail with ioredis's "Command timed out" after WEB_REDIS.commandTimeoutMs
 * of Redis's silence ({@link silenceDeadline}), where ioredis's own `commandTimeout` counts this
 * process's stalls too: its timer rejected a PING whose PONG sat unread in the socket.
 */
class SilenceBoundRedis extends Redis {
  override sendCommand(...args: Parameters<Redis["sendCommand"]>): ReturnType<Redis["sendCommand"]> {
    const [command] = args;
    const answer = super.sendCommand(...args);
    if (!command.isSettled) {
      const cancel = silenceDeadline(
        WEB_REDIS.commandTimeoutMs,
        () => command.isSettled,
        () => command.reject(new Error("Command timed out")),
      );
      command.promise.then(cancel, cancel);
    }
    return answer;
  }
}

type Registry = { key: string; producer?: Redis; lastError?: string };
const g = remember("redis", (): { redis?: Registry } => ({}));

function registry(): Registry {
  const key = `${redisUrl()}|${queuePrefix()}`;
  if (g.redis && g.redis.key !== key) {
    // Tests switch REDIS_URL / QUEUE_PREFIX inside one process: drop connections to the old place.
    g.redis.producer?.disconnect();
    g.redis = undefined;
  }
  g.redis ??= { key };
  return g.redis;
}

/**
 * The shared fail-fast connection for producers (queues, board, status). Commands sent
 * while Redis is unreachable reject immediately with "Stream isn't writeable".
 */
export function producerConnection(): Redis {
  const reg = registry();
  if (!reg.producer || reg.producer.status === "end") {
    // A Redis that accepts the connection but never answers must not hang a request either:
    // each command fails after WEB_REDIS.commandTimeoutMs of its silence.
    const conn = new SilenceBoundRedis(redisUrl(), { ...webOptions(), enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    attachErrorLog(conn, "producer");
    watchConnection(conn, "producer");
    // The reason /api/health gives while Redis is down (cleared when the connection is back).
    conn.on("error", (err: Error) => void (reg.lastError = err.message || String(err)));
    conn.on("watchdog", (err: Error) => void (reg.lastError = err.message));
    conn.on("ready", () => void (reg.lastError = undefined));
    reg.producer = conn;
  }
  return reg.producer;
}

/** Why the producer connection is not ready (its last error), if it is not. */
/**
 * The producer connection when this process has one that is ready, else null — never opens
 * one. For best-effort writes that must not make a process connect to Redis for them (the
 * launcher's demo seed signs in before the private Redis exists: the relogin record printed
 * "producer connection … ECONNREFUSED" into the start-up log).
 */
export function readyProducer(): Redis | null {
  const conn = registry().producer;
  return conn && conn.status === "ready" ? conn : null;
}

export function producerLastError(): string | undefined {
  const reg = g.redis;
  if (!reg?.producer || reg.producer.status === "ready") return undefined;
  return reg.lastError ?? `connection ${reg.producer.status}`;
}

/** A new connection for a BullMQ Worker (it duplicates it for its blocking reads). The caller closes it. */
export function createWorkerConnection(): Redis {
  const conn = new Redis(redisUrl(), { ...baseOptions(), maxRetriesPerRequest: null, enableOfflineQueue: true });
  attachErrorLog(conn, "worker");
  return conn;
}

/**
 * Waits until `conn` is ready, at most `timeoutMs`. Never throws; false means "not now".
 * Lets the first request after boot wait for a connection that is still being made.
 */
export async function waitForReady(conn: Redis, timeoutMs: number): Promise<boolean> {
  if (conn.status === "ready") return true;
  // "reconnecting": the last attempt already failed, so Redis is down right now.
  if (conn.status === "end" || conn.status === "close" || conn.status === "reconnecting") return false;
  if (conn.status === "wait") conn.connect().catch(() => {});
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      conn.off("ready", onReady);
      conn.off("error", onFail);
      conn.off("end", onFail);
      resolve(ok);
    };
    const onReady = () => done(true);
    const onFail = () => done(false);
    const timer = setTimeout(() => done(conn.status === "ready"), timeoutMs);
    conn.once("ready", onReady);
    conn.once("error", onFail);
    conn.once("end", onFail);
  });
}

/**
 * Calls `expire` once `ms` have passed and `settled()` is still false: a deadline on Redis's
 * silence, not on this process's own business. A timer that fires late means this process
 * was busy (its event loop stalled: the machine loaded, a long render), and Redis's answer may
 * already sit unread in the socket; timers run before the loop reads sockets, so a plain
 * timeout would blame Redis for it (a busy web process dropped a healthy connection and
 * answered 503, docs/testing.md "Issue 32 item 7"). So the verdict waits one turn for I/O
 * (`setImmediate` runs after the loop has read the sockets), and a window the process spent
 * mostly stalled, its timer late by over a third of `ms`, starts again, at most
 * {@link STALL_RESTARTS} times. Returns the cancel.
 */
function silenceDeadline(ms: number, settled: () => boolean, expire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let restarts = 0;
  const arm = () => {
    const due = performance.now() + ms;
    timer = setTimeout(() => {
      immediate = setImmediate(() => {
        if (settled()) return;
        if (performance.now() - due > ms / 3 && restarts < STALL_RESTARTS) {
          restarts += 1;
          return arm();
        }
        expire();
      });
    }, ms);
  };
  arm();
  return () => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  };
}

/** How often a stalled process gives Redis its window again before it calls Redis silent (`silenceDeadline`). */
const STALL_RESTARTS = 2;

/** `promise`, or a rejection once `ms` have passed without its answer ({@link silenceDeadline}: this process's stalls do not count). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const cancel = silenceDeadline(
      ms,
      () => settled,
      () => {
        settled = true;
        reject(new Error(`${what} timed out after ${ms} ms`));
      },
    );
    promise.then(
      (v) => {
        if (settled) return;
        settled = true;
        cancel();
        resolve(v);
      },
      (e: unknown) => {
        if (settled) return;
        settled = true;
        cancel();
        reject(e);
      },
    );
  });
}

/** Is anything answering PING at `url`? A throwaway connection, one attempt, short timeout. */
export async function probeRedis(url = redisUrl(), timeoutMs = 1_000): Promise<boolean> {
  const conn = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  conn.on("error", () => {});
  try {
    await withTimeout(conn.connect(), timeoutMs + 100, "Redis connect");
    return (await withTimeout(conn.ping(), timeoutMs, "Redis PING")) === "PONG";
  } catch {
    return false;
  } finally {
    conn.disconnect();
  }
}

/** Keys the job engine keeps besides BullMQ's own (worker heartbeats). */
export const heartbeatKeys = {
  workers: () => `${queuePrefix()}:meta:workers`,
  worker: (id: string) => `${queuePrefix()}:meta:worker:${id}`,
  last: () => `${queuePrefix()}:meta:last-heartbeat`,
  /** Issue 29: each worker's last beat record (hash by id, no TTL), kept to describe a lost worker. */
  records: () => `${queuePrefix()}:meta:worker-records`,
  /** Issue 29: workers whose beat expired (zset id → when it was noticed), listed as lost for a while. */
  lost: () => `${queuePrefix()}:meta:workers-lost`,
};

/** Closes the producer connection (queues must be closed first). */
export async function closeProducerConnection() {
  const reg = g.redis;
  g.redis = undefined;
  const conn = reg?.producer;
  if (!conn || conn.status === "end") return;
  if (conn.status === "ready") await conn.quit().catch(() => conn.disconnect());
  else conn.disconnect();
}
