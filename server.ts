/**
 * The web process: Express serving the Remix app, the /api contract (Remix resource
 * routes), the operators' queue board, and — unless RUN_WORKER=false — the job worker.
 *
 *   NODE_ENV=production node --import tsx server.ts   serves ./build (after `remix vite:build`)
 *   node --import tsx server.ts                        dev: Vite middleware, HMR
 *
 * One copy of the app (docs/decisions/0007): everything below Express — services, the
 * auth gate, the queue board, the routes — comes from the Remix build's module graph
 * through `build.entry.module` (app/entry.server.tsx). This file only wires HTTP.
 */
import path from "node:path";
import v8 from "node:v8";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";

const production = process.env.NODE_ENV === "production";
const buildDir = process.env.BUILD_DIR ?? "build";
/** How long a signalled shutdown may take before the process exits anyway. */
const SHUTDOWN_LIMIT_MS = 8_500;

/**
 * How far the V8 heap may grow past what survived the last full GC (issue 32 item 3: web
 * process ≤ 350 MB in a burst of 2,000 pages 4 at a time; bench/README.md "Memory under a
 * burst"). Left to itself V8 picks a factor of up to 4× when the process allocates fast,
 * so a busy web process with ~75 MB of live objects was let grow its old space past 300 MB
 * before collecting. 50 % keeps the peak near 1.5× the live set and costs more frequent
 * full GCs; it bounds no size, so a process that really holds more still gets it (no
 * out-of-memory crash as a lower `--max-old-space-size` would risk). This flag is read at
 * every GC, so setting it here works without a command-line flag (the web process is
 * started as `node <build>/server.js` in many places). WEB_HEAP_GROWING_PERCENT=0 gives
 * V8's own choice back (the bench's comparison). Performance trick (CONVENTIONS rule 15).
 */
const heapGrowingPercent = Number(process.env.WEB_HEAP_GROWING_PERCENT ?? 50);
if (heapGrowingPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);

/** What app/entry.server.tsx exports besides Remix's handler. */
type AppEntry = typeof import("./app/entry.server");

async function main() {
  const viteDevServer = production
    ? undefined
    : await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true }, appType: "custom" }));
  const loadBuild = async (): Promise<ServerBuild> =>
    viteDevServer
      ? ((await viteDevServer.ssrLoadModule("virtual:remix/server-build")) as ServerBuild)
      : ((await import(path.resolve(buildDir, "server/index.js"))) as ServerBuild);

  const build = await loadBuild();
  const appEntry = build.entry.module as unknown as AppEntry;
  // LOG_FORMAT=json: every line from here on is one JSON object (issue 31 item 4).
  appEntry.installLogger();
  const runtime = await appEntry.startServices();

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");
  // A request id on every answer and every log line of the request.
  app.use(appEntry.requestLogContext());
  // First of all: refuse what no route should see (odd methods, paths the router would
  // normalise differently), security headers, the CSP nonce.
  appEntry.mountRequestHygiene(app, { dev: !!viteDevServer });
  // The build's hashed assets from memory, compressed once each (app/http/immutable-assets.server.ts):
  // ahead of the compression middleware, which has nothing to add to them.
  if (!viteDevServer) app.use("/assets", appEntry.immutableAssets(`${buildDir}/client/assets`));
  app.use(appEntry.compressionWhereItPays(compression));

  if (viteDevServer) {
    // Vite serves source files by path (`/api/rates` would resolve to api/rates.ts), so
    // the API, the queue board and the probes never reach it.
    const vite = viteDevServer.middlewares;
    app.use((req, res, next) => (/^\/(api|admin|healthz)(\/|$)/i.test(req.path) ? next() : vite(req, res, next)));
  } else {
    app.use("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y", fallthrough: false }));
    // Other public files (favicon, robots) all have an extension; pages and /api never do,
    // so they skip the file-system probe.
    const publicFiles = express.static(`${buildDir}/client`, { maxAge: "1h", index: false });
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  }

  // After static files, before Remix: the auth gate, the queue board, the hot path.
  await appEntry.mountServerRoutes(app);

  // Every route action wrapped once: roles and the audit trail (app/http/route-guard.server.ts).
  app.all(
    "*",
    createRequestHandler({
      build: viteDevServer ? async () => appEntry.guardBuild(await loadBuild()) : appEntry.guardBuild(build),
      getLoadContext: (_req, res) => ({
        cspNonce: String(res.locals.cspNonce ?? ""),
        liveSeq: typeof res.locals.liveSeq === "number" ? res.locals.liveSeq : null,
      }),
    }),
  );
  app.use(appEntry.expressErrorHandler);

  const port = Number(process.env.PORT ?? 3000);
  // The dev server serves source files through Vite without a login: loopback only unless asked.
  const host = process.env.HOST ?? (viteDevServer ? "127.0.0.1" : "0.0.0.0");
  // GET /api/rates from memory ahead of Express when nothing in front would change the answer.
  // Request timeouts, keep-alive and connection limits: app/http/http-limits.server.ts.
  const server = appEntry.createHttpServer(appEntry.requestListener(app));
  let stopping = false;
  const shutdown = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    if (signal) console.log(`${signal}: shutting down`);
    // Issue 30 A8: stopped within 10 s of the signal, the launcher's part included (the
    // worker gives its jobs 6 s, jobs/runtime.server.ts). Exiting runs the private Redis's
    // exit hook, so it never outlives this process.
    const force = setTimeout(() => process.exit(1), SHUTDOWN_LIMIT_MS);
    force.unref();
    server.close();
    await runtime.stop().catch((err: Error) => console.error("shutdown:", err.message));
    await viteDevServer?.close();
    process.exit(code);
  };
  // A port someone else holds: one line, then the services started above stop (issue 30 A8).
  server.once("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EADDRINUSE") throw err;
    console.error(`Cannot start Galaxy Toolbox: port ${port} (PORT) is already in use. Stop what uses it, or set PORT to another port.`);
    void shutdown("", 1);
  });
  server.listen(port, host, () => {
    console.log(`Galaxy Toolbox listening on http://localhost:${port}`);
    void appEntry.onListening(port);
  });

  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
