/**
 * The job worker.
 *
 *   npm run worker      (node --import tsx jobs/worker.ts) a separate worker process
 *   npm start           runs the same workers inside the web process unless RUN_WORKER=false
 *
 * `startWorkers()` starts one BullMQ Worker per queue that has a processor
 * (jobs/processors/index.ts), attaches the error listeners BullMQ's "going to production"
 * guide asks for, and keeps a heartbeat key with a TTL in Redis so the web process can
 * tell whether any worker is alive (app/queue/status.server.ts). On SIGINT/SIGTERM the worker
 * stops taking jobs, hands its long jobs back to the queue at their next safe point
 * (jobs/closing.server.ts), lets the others finish (up to WORKER_SHUTDOWN_TIMEOUT_MS) and exits 0.
 */
import crypto from "node:crypto";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker, type Job } from "bullmq";
import { closeDb, getDb, NoEmbeddedOwnerError, setEmbeddedMode } from "~/db/client.server";
import { HOSTED_PURPOSES } from "#api/sessions";
import { logEvent } from "~/models/log.server";
import { installMetricsCollectors } from "~/models/metrics.server";
import { getEnv } from "~/utils/env.server";
import { installLogger } from "~/utils/logger.server";
import { observeJob, serveMetrics } from "~/utils/metrics.server";
import { startHolderWatcher } from "~/models/session-liveness.server";
import { errorText } from "~/utils/errors";
import { PROCESSED_QUEUES, PROCESSORS } from "./processors";
import { fencedProcessor, fenceTiming, fenceWorker } from "./fence.server";
import { closingController, handBack, isWorkerClosing, WorkerClosingError } from "./closing.server";
import { closeQueues, isConnectionError, type QueueName } from "../app/queue/queues.server";
import { hostLoad, restoreSessions } from "./session-host.server";
import { SESSIONS } from "./processors/sessions";
import { createWorkerConnection, heartbeatKeys, jobSettings, probeRedis, queuePrefix, safeRedisUrl, withTimeout } from "../app/queue/redis.server";
import type { HeartbeatRecord } from "../app/queue/status.server";
import { workerTroubleLog } from "./worker-log.server";
import { drainKey } from "../app/queue/session-control.server";
import { appVersion } from "~/utils/version.server";

export type WorkerPool = {
  id: string;
  workers: Worker[];
  /** Stops taking jobs, waits for active ones (at most `timeoutMs`), removes the heartbeat. */
  close(timeoutMs?: number): Promise<void>;
};

export type { HeartbeatRecord };

export function startWorkers(options: { mode: "in-process" | "standalone" }): WorkerPool {
  const settings = jobSettings();
  const prefix = queuePrefix();
  const id = `${os.hostname()}-${process.pid}-${crypto.randomBytes(3).toString("hex")}`;
  const startedAt = new Date().toISOString();
  // BullMQ duplicates this connection for each worker (and for its blocking reads); the
  // original carries the heartbeat.
  const connection = createWorkerConnection();

  let connectionWarned = false;
  // Lock errors and stalls come in bursts (a cut-off worker's every job): one entry per burst.
  const trouble = workerTroubleLog(id);
  const onWorkerError = (queue: QueueName) => (err: Error) => {
    if (trouble.lockError(queue, err)) return;
    if (isConnectionError(err) || /connect/i.test(err.message)) {
      if (!connectionWarned) console.warn(`[jobs] worker for "${queue}" lost Redis at ${safeRedisUrl()}: ${err.message}`);
      connectionWarned = true;
      return;
    }
    console.warn(`[jobs] worker for "${queue}" error: ${err.message}`);
    void logEvent({ type: "error", source: "system", message: `Job worker error on queue ${queue}: ${errorText(err)}`, details: { queue, worker: id } });
  };

  const detachers: (() => Promise<void>)[] = [];
  // Aborted when the pool starts to close: long processors stop at their next safe point and
  // their jobs go back to the queue (jobs/closing.server.ts, issue 30 A8).
  const closing = closingController();
  /** The jobs running now, by lock token: named in the warning of a close that waited too long. */
  const active = new Map<string, string>();
  const workers = PROCESSED_QUEUES.map((name) => {
    const spec = PROCESSORS[name]!;
    const options = {
      lockDuration: settings.JOB_LOCK_DURATION_MS,
      stalledInterval: settings.JOB_STALLED_INTERVAL_MS,
      // A job whose worker died is put back to run again, up to this many times; only a
      // job that keeps killing its workers fails. Effects stay single through job_steps.
      maxStalledCount: settings.JOB_MAX_STALLED_COUNT,
      // Session queues (jobs/session-host.server.ts) and cycles bring their own failover timing.
      ...spec.workerOptions?.(),
    };
    // Fencing (jobs/fence.server.ts, decision 0028): renewals every lock / 4, each job's proof tracked.
    const timing = fenceTiming(options.lockDuration);
    const processor = spec.process as (job: Job, token?: string, signal?: AbortSignal, closing?: AbortSignal) => Promise<unknown>;
    const run = async (job: Job, token?: string, signal?: AbortSignal) => {
      const key = token ?? `${name}:${job.id}`;
      active.set(key, `${name} ${job.name} ${job.id}`);
      try {
        return await processor(job, token, signal, closing.signal);
      } catch (err) {
        if (isWorkerClosing(err) && token) return await handBack(job, token);
        throw err;
      } finally {
        active.delete(key);
      }
    };
    const worker = new Worker(name, fencedProcessor(run, timing), {
      connection,
      prefix,
      name: id,
      concurrency: spec.concurrency,
      ...options,
      lockRenewTime: timing.lockRenewTimeMs,
    });
    fenceWorker(worker);
    if (spec.attach) detachers.push(spec.attach(worker, id));
    worker.on("error", onWorkerError(name));
    worker.on("ready", () => {
      connectionWarned = false;
    });
    // Job durations for /metrics (issue 31): a session job lives as long as its session, so it is not one.
    if (!(HOSTED_PURPOSES as readonly string[]).includes(name)) {
      const observe = (job: Job | undefined, outcome: "completed" | "failed") => {
        if (job?.processedOn && job.finishedOn) observeJob(name, outcome, (job.finishedOn - job.processedOn) / 1000);
      };
      worker.on("completed", (job) => observe(job, "completed"));
      worker.on("failed", (job) => observe(job, "failed"));
    }
    worker.on("failed", (job, err) => {
      if (!job) return;
      const attempts = job.opts.attempts ?? 1;
      const final = err?.name === "UnrecoverableError" || job.attemptsMade >= attempts;
      if (!final) return;
      void logEvent({
        type: "error",
        source: "system",
        message: `Job ${job.name} ${job.id} on queue ${name} failed: ${err?.message ?? "unknown error"}`,
        details: { queue: name, jobId: job.id, name: job.name, attemptsMade: job.attemptsMade },
      });
    });
    // Seen by the worker that took the job back: its holder stopped, or was cut off or stalled
    // (and let it go, decision 0028); this worker cannot tell which, so the entry says both.
    worker.on("stalled", (jobId) => trouble.stalled(name, jobId));
    return worker;
  });

  const record = (): HeartbeatRecord => ({
    id,
    pid: process.pid,
    host: os.hostname(),
    mode: options.mode,
    queues: PROCESSED_QUEUES,
    startedAt,
    at: Date.now(),
    // Sessions held and capacity per purpose (issue 29: /api/health, "all workers are full"),
    // and whether it is drained (issue 31).
    ...hostLoad(),
    // Issue 31: the Sessions page's Workers panel.
    rss: process.memoryUsage.rss(),
    version: appVersion(),
  });
  const ttl = settings.WORKER_HEARTBEAT_MS * 3;
  const beat = async () => {
    // While Redis is away the worker connection would queue these; skip instead.
    if (connection.status !== "ready") return;
    const now = record();
    const json = JSON.stringify(now);
    await connection
      .multi()
      .set(heartbeatKeys.worker(id), json, "PX", ttl)
      // The last record outlives the beat: a lost worker is described by it (app/queue/status.server.ts).
      .hset(heartbeatKeys.records(), id, json)
      // Back after a partition: no longer lost.
      .zrem(heartbeatKeys.lost(), id)
      .sadd(heartbeatKeys.workers(), id)
      .set(heartbeatKeys.last(), String(now.at))
      .exec()
      .catch(() => {});
  };
  connection.on("ready", () => void beat());
  const timer = setInterval(() => void beat(), settings.WORKER_HEARTBEAT_MS);
  timer.unref();

  let stopping: Promise<void> | undefined;
  return {
    id,
    workers,
    close(timeoutMs = settings.WORKER_SHUTDOWN_TIMEOUT_MS) {
      stopping ??= (async () => {
        clearInterval(timer);
        closing.abort(new WorkerClosingError());
        // Without Redis no job can finish (and BullMQ's graceful close would wait for a
        // connection forever), so close at once; the jobs' locks expire and the stalled
        // check of the next worker puts them back to wait.
        // Sessions never finish on their own: hand them back to the queue first, so the
        // close below does not wait for them and another worker takes them at once.
        await Promise.all(detachers.map((d) => d().catch(() => {})));
        const redisUp = connection.status === "ready";
        const waitMs = redisUp ? timeoutMs : Math.min(timeoutMs, 5_000);
        try {
          await withTimeout(Promise.all(workers.map((w) => w.close(!redisUp))), waitMs, "Waiting for active jobs");
        } catch {
          // Same recovery as above: nothing is lost, the jobs run again on the next worker.
          console.warn(`[jobs] active jobs did not finish within ${waitMs} ms (${[...active.values()].join(", ")}); stopping anyway`);
        }
        if (connection.status === "ready") {
          await connection
            .multi()
            .del(heartbeatKeys.worker(id))
            .srem(heartbeatKeys.workers(), id)
            // A clean stop is not a loss: nothing to list.
            .hdel(heartbeatKeys.records(), id)
            // A drain ends with the process (a restarted worker has a new id).
            .hdel(drainKey(), id)
            .exec()
            .catch(() => {});
          await connection.quit().catch(() => connection.disconnect());
        } else {
          connection.disconnect();
        }
      })();
      return stopping;
    },
  };
}

/**
 * A worker's own /metrics (the same registry shape as the web's), on METRICS_HOST:METRICS_PORT
 * when METRICS_PORT is set; guarded like the web's (METRICS_TOKEN, else loopback only).
 */
export function startMetricsServer(): http.Server | null {
  const env = getEnv();
  installMetricsCollectors();
  if (!env.METRICS_PORT) return null;
  const server = http.createServer((req, res) => {
    if ((req.method === "GET" || req.method === "HEAD") && new URL(req.url ?? "/", "http://x").pathname === "/metrics") {
      serveMetrics(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(`metrics failed: ${errorText(err)}`);
      });
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found: this port serves GET /metrics only\n");
  });
  server.on("error", (err) => console.warn(`[jobs] metrics server on ${env.METRICS_HOST}:${env.METRICS_PORT}: ${err.message}`));
  server.listen(env.METRICS_PORT, env.METRICS_HOST, () => console.log(`[jobs] metrics at http://${env.METRICS_HOST}:${env.METRICS_PORT}/metrics`));
  return server;
}

/** The standalone worker process (`npm run worker`). */
async function main() {
  // LOG_FORMAT=json: one JSON object a line (issue 31 item 4).
  installLogger();
  // Without DATABASE_URL, through the web process that owns the embedded PGlite: a second
  // process on its files would corrupt them (docs/decisions/0011).
  setEmbeddedMode("require-owner");
  try {
    await getDb();
  } catch (err) {
    if (!(err instanceof NoEmbeddedOwnerError)) throw err;
    console.error(`The standalone worker needs PostgreSQL (DATABASE_URL) or a running app. ${err.message}`);
    process.exit(1);
  }
  if (!(await probeRedis())) {
    console.warn(`[jobs] Redis is not reachable at ${safeRedisUrl()}; the worker waits for it`);
    await logEvent({ type: "error", source: "system", message: `Job worker: Redis is not reachable at ${safeRedisUrl()}; waiting for it` });
  }
  const pool = startWorkers({ mode: "standalone" });
  // GET /metrics of this worker on METRICS_PORT (issue 31 item 3; docs/deploy.md "Metrics").
  const metricsServer = startMetricsServer();
  // Issue 29: every surviving worker also watches the others' beats (decision 0027).
  const stopWatcher = startHolderWatcher();
  // Boot restore of sessions that should run (idempotent: the web process does it too).
  void restoreSessions(SESSIONS);

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`[jobs] ${signal}: finishing active jobs, then exiting`);
    const settings = jobSettings();
    // Last resort if something hangs beyond the graceful window.
    setTimeout(() => process.exit(1), settings.WORKER_SHUTDOWN_TIMEOUT_MS + 10_000).unref();
    stopWatcher();
    metricsServer?.close();
    await pool.close();
    await logEvent({ type: "info", source: "system", message: `Job worker stopped (pid ${process.pid}, ${signal})`, details: { worker: pool.id } });
    await closeQueues();
    await closeDb().catch(() => {});
    process.exit(0);
  };
  process.on("SIGINT", (s) => void shutdown(s));
  process.on("SIGTERM", (s) => void shutdown(s));
  // BullMQ's production guide: never let a stray rejection go unnoticed.
  process.on("unhandledRejection", (reason) => {
    console.error("[jobs] unhandled rejection:", reason);
    void logEvent({ type: "error", source: "system", message: `Job worker: unhandled rejection: ${errorText(reason)}` });
  });
  process.on("uncaughtException", (err) => {
    console.error("[jobs] uncaught exception:", err);
    void logEvent({ type: "error", source: "system", message: `Job worker crashed: ${errorText(err)}` }).finally(() => process.exit(1));
  });
  // Announced only once the signal handlers are in place: a SIGTERM right after the
  // announcement must shut down gracefully, not kill the process mid-start.
  console.log(`[jobs] worker ${pool.id} processing: ${PROCESSED_QUEUES.join(", ")}`);
  await logEvent({
    type: "info",
    source: "system",
    message: `Job worker started (pid ${process.pid})`,
    details: { worker: pool.id, queues: PROCESSED_QUEUES },
  });
}

const isEntry = process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (isEntry) {
  main().catch((err) => {
    console.error("[jobs] worker failed to start:", err);
    process.exit(1);
  });
}
