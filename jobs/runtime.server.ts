/**
 * The job engine inside the web process (app/boot.server.ts): finds Redis (or starts a
 * private one), upserts the schedulers, runs the in-process worker, and mounts the
 * operators' queue board. Redis trouble never stops the web app: pages and the API keep
 * working, and job features say "Job engine offline" until Redis is back.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Express, NextFunction, Request, Response } from "express";
import type { Queue } from "bullmq";
import { logEvent } from "~/models/log.server";
import { startHolderWatcher } from "~/models/session-liveness.server";
import { startPrivateRedis, privateRedisObstacle, describePrivateRedis, type PrivateRedis } from "../app/queue/private-redis.server";
import {
  closeQueues,
  getQueue,
  onQueueCreated,
  upsertSchedulers,
  OFFLINE_MESSAGE,
  QUEUE_DESCRIPTIONS,
  QUEUE_NAMES,
  type QueueName,
} from "../app/queue/queues.server";
import { probeRedis, producerConnection, redisUrl, safeRedisUrl, waitForReady } from "../app/queue/redis.server";
import { jobEngineStatus, resetJobEngineStatus } from "../app/queue/status.server";
import { restoreSessions } from "./session-host.server";
import { SESSIONS } from "./processors/sessions";
import { startWorkers, type WorkerPool } from "./worker";
import { boardAudit } from "../app/http/board-audit.server";

/**
 * How long stopping the web process waits for the in-process worker's active jobs: the
 * whole stop fits in 10 s (issue 30 A8; server.ts exits anyway at 8.5 s). Sessions are handed
 * back at once, refreshes and Auto cycles at their next safe point (jobs/closing.server.ts); a
 * job still running then runs again on the next worker (stalled check).
 */
const IN_PROCESS_SHUTDOWN_MS = 6_000;

export type JobRuntime = {
  /** Private redis-server started by this process, if any. */
  privateRedis?: PrivateRedis;
  worker?: WorkerPool;
  stop(): Promise<void>;
};

export async function startJobRuntime(options: { runWorker: boolean; startRedis: boolean }): Promise<JobRuntime> {
  const url = redisUrl();
  const where = safeRedisUrl(url);
  let privateRedis: PrivateRedis | undefined;
  let reason = "";

  let up = await probeRedis(url, 1_000);
  if (!up && options.startRedis) {
    reason = privateRedisObstacle(url) ?? "";
    if (!reason) {
      try {
        privateRedis = await startPrivateRedis(url, {
          onUnexpectedExit: (code, signal) => {
            console.warn(`[jobs] private redis-server exited unexpectedly (${signal ?? `code ${code}`})`);
            void logEvent({ type: "error", source: "system", message: `Private redis-server exited unexpectedly (${signal ?? `code ${code}`})` });
          },
        });
        up = true;
        console.log(`[jobs] started ${describePrivateRedis(privateRedis, url)}`);
        await logEvent({
          type: "info",
          source: "system",
          message: `Started a private redis-server at ${where}`,
          details: { pid: privateRedis.pid, dir: privateRedis.dir },
        });
      } catch (err) {
        reason = (err as Error).message;
      }
    }
  } else if (!up) {
    reason = "START_REDIS is off";
  }

  if (!up) {
    console.warn(
      `[jobs] Job engine offline: Redis is not reachable at ${where}${reason ? ` (${reason})` : ""}. ` +
        "Pages and the API keep working; job features answer 503 until Redis is back.",
    );
    await logEvent({ type: "error", source: "system", message: `Job engine offline: Redis is not reachable at ${where}`, details: { reason: reason || null } });
  }

  // Schedulers now, and again whenever the connection comes back (a restarted Redis may be empty).
  const conn = producerConnection();
  const upsert = async () => {
    try {
      await upsertSchedulers();
    } catch (err) {
      console.warn(`[jobs] could not upsert job schedulers: ${(err as Error).message}`);
    }
    // Sessions that should run (desired = started) get their job back; idempotent job ids
    // make this harmless for running ones (jobs/session-host.server.ts).
    await restoreSessions(SESSIONS);
  };
  if (up && (await waitForReady(conn, 2_000))) await upsert();
  const onReady = () => void upsert();
  conn.on("ready", onReady);

  // Started even while Redis is down: BullMQ workers wait for the connection and begin then.
  const worker = options.runWorker ? startWorkers({ mode: "in-process" }) : undefined;
  resetJobEngineStatus();
  // Issue 29: this web process tells open pages when a worker dies, even when none is left.
  const stopWatcher = startHolderWatcher();

  let stopping: Promise<void> | undefined;
  return {
    privateRedis,
    worker,
    stop() {
      stopping ??= (async () => {
        conn.off("ready", onReady);
        stopWatcher();
        await worker?.close(IN_PROCESS_SHUTDOWN_MS).catch((err: Error) => console.warn(`[jobs] worker shutdown: ${err.message}`));
        await closeQueues();
        await privateRedis?.stop();
        resetJobEngineStatus();
      })();
      return stopping;
    },
  };
}

/**
 * The operators' queue board (bull-board) at `basePath`. The auth gate runs before it.
 * While Redis is down it answers a plain 503 page (JSON for its API) instead of hanging.
 */
export async function mountQueueBoard(app: Express, basePath: string): Promise<void> {
  const { createBullBoard } = await import("@bull-board/api");
  const { BullMQAdapter } = await import("@bull-board/api/bullMQAdapter");
  const { ExpressAdapter } = await import("@bull-board/express");

  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(basePath);
  const adapter = (name: QueueName, queue: Queue) => new BullMQAdapter(queue, { description: QUEUE_DESCRIPTIONS[name], displayName: name, allowRetries: true });
  const board = createBullBoard({
    queues: QUEUE_NAMES.map((name) => adapter(name, getQueue(name))),
    serverAdapter,
    options: {
      uiConfig: {
        boardTitle: "Galaxy Toolbox jobs",
        miscLinks: [
          { text: "Back to the app", url: "/" },
          { text: "System Logs", url: "/logs" },
        ],
      },
    },
  });
  serverAdapter.setViewsPath(boardViewsWithoutExternalFonts());
  // A queue rebuilt after a failed connection must replace the dead one on the board.
  onQueueCreated(() => board.replaceQueues(QUEUE_NAMES.map((name) => adapter(name, getQueue(name)))));

  const offlineGate = async (req: Request, res: Response, next: NextFunction) => {
    const { redis } = await jobEngineStatus();
    if (redis === "up") return next();
    res.status(503).set("Retry-After", "5").set("Cache-Control", "no-store");
    if (req.path.startsWith("/api/")) {
      res.json({ error: OFFLINE_MESSAGE, message: OFFLINE_MESSAGE });
      return;
    }
    res.type("html").send(offlinePage(basePath));
  };
  // boardAudit: its writes on the audit trail, add-job checked (board-audit.server.ts).
  app.use(basePath, offlineGate, boardAudit(), serverAdapter.getRouter());
}

/**
 * bull-board's page template links a Google Fonts stylesheet, which the app's CSP blocks
 * (a console error on every visit) and which would leak operators' visits to a third
 * party. Serve the installed template minus that link; the board falls back to system fonts.
 */
function boardViewsWithoutExternalFonts(): string {
  const require = createRequire(import.meta.url);
  const uiDir = path.dirname(require.resolve("@bull-board/ui/package.json"));
  const { version } = require("@bull-board/ui/package.json") as { version: string };
  const original = fs.readFileSync(path.join(uiDir, "dist", "index.ejs"), "utf8");
  const dir = path.join(os.tmpdir(), `galaxy-toolbox-bull-board-${version}-${process.getuid?.() ?? "u"}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "index.ejs"), original.replace(/^\s*<link[^>]+fonts\.googleapis\.com[^>]*>\s*$/m, ""));
  return dir;
}

function offlinePage(basePath: string) {
  const where = escapeHtml(safeRedisUrl());
  return `<!doctype html>
<html lang="en" style="color-scheme: dark light">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Job engine offline · Galaxy Toolbox</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Job engine offline</h1>
<p>${escapeHtml(OFFLINE_MESSAGE)} at <code>${where}</code>, so the queue board cannot be shown.</p>
<p>Start Redis (or let the app start its own: <code>redis-server</code> on the PATH and <code>START_REDIS=true</code>), then <a href="${escapeHtml(basePath)}">reload this page</a>.</p>
<p><a href="/">Back to the app</a></p>
</body>
</html>`;
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
