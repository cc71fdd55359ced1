/**
 * Start-up and shut-down of everything the web process needs besides Remix itself:
 * database (migrated), Redis and the job worker, the HTTP hygiene, the auth gate and the
 * queue board. server.ts reaches these through the Remix build (app/entry.server.tsx), so
 * they share one module graph with the routes (docs/decisions/0007).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Express, NextFunction, Request, Response } from "express";
import { liveSeq } from "~/queue/live.server";
import { getDb, closeDb, dbKind } from "~/db/client.server";
import { getEnv } from "~/utils/env.server";
import { logEvent } from "~/models/log.server";
import { createAuthGate } from "~/http/auth-gate.server";
import { trackStreamConnections } from "~/http/stream-limits.server";
import { ratesExpressHandler, ratesHotPath } from "~/routes/_app+/_exchange-rates+/rates-api.server";
import { startJobRuntime, mountQueueBoard } from "#jobs/runtime.server";
import { installMetricsCollectors } from "~/models/metrics.server";
import { httpMetrics, serveMetrics } from "~/utils/metrics.server";

export { compressionWhereItPays, expressErrorHandler, mountRequestHygiene } from "~/utils/http-security.server";
export { guardBuild } from "~/http/route-guard.server";
export { immutableAssets } from "~/http/immutable-assets.server";
export { createHttpServer } from "~/http/http-limits.server";
export { installLogger, requestLogContext } from "~/utils/logger.server";
export { SERVER_ROUTES } from "~/server-routes";

export async function startServices() {
  const env = getEnv();
  await getDb();
  installMetricsCollectors();
  const jobs = await startJobRuntime({ runWorker: env.RUN_WORKER, startRedis: env.START_REDIS });
  return {
    async stop() {
      await jobs.stop();
      await closeDb();
    },
  };
}

/** Express-level routes and gates that must run before the Remix handler. */
export async function mountServerRoutes(app: Express) {
  // Unauthenticated liveness probe (process up, no details); /api/health needs a session.
  app.get("/healthz", (_req, res) => void res.type("text/plain").send("ok"));
  // Prometheus (issue 31 item 3): its own guard (METRICS_TOKEN, else loopback only), ahead of the login gate.
  app.use(httpMetrics());
  app.get("/metrics", (req, res, next) => void serveMetrics(req, res).catch(next));
  app.use(createAuthGate());
  app.use("/api/events", trackStreamConnections());
  // The hottest read of the API, answered from the in-memory snapshot without Remix's
  // per-request routing (byte-for-byte the resource route's answer; docs/decisions/0005).
  app.get("/api/rates", ratesExpressHandler);
  await mountQueueBoard(app, "/admin/queues");
  app.use(readLiveSeqForPages);
}

/**
 * A page's document request reads the live bus's sequence before any loader runs (handed to
 * the loaders as `context.liveSeq`, to the page by the root loader): the page's stream then
 * says whether anything was published since, and the page reloads its data on opening only
 * then (docs/live.md "The first ready"). Data loads, the API and the board skip it.
 */
function readLiveSeqForPages(req: Request, res: Response, next: NextFunction) {
  if (req.method !== "GET" || req.path.endsWith(".data") || /^\/(api|admin)(\/|$)/.test(req.path)) return next();
  void liveSeq().then((seq) => {
    res.locals.liveSeq = seq;
    next();
  });
}

/**
 * The HTTP server's request listener: `GET /api/rates` answered from memory when no layer
 * of the app would change the answer (`ratesHotPath`: a token the gate verified moments
 * ago, a fresh snapshot), everything else through Express. Call after `trust proxy` is set.
 */
export function requestListener(app: Express): (req: IncomingMessage, res: ServerResponse) => void {
  const rates = ratesHotPath(app.get("trust proxy fn") as Parameters<typeof ratesHotPath>[0]);
  return (req, res) => {
    if (!rates(req, res)) app(req, res);
  };
}

export async function onListening(port: number) {
  await logEvent({
    type: "info",
    source: "system",
    message: `Server started on port ${port}`,
    details: { database: await dbKind(), node: process.version },
  });
}
