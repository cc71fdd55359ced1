/**
 * The web process: Express serving the Remix app, the /api contract (Remix resource
 * routes), the operators' queue board, and — unless RUN_WORKER=false — the job worker.
 *
 *   NODE_ENV=production node --import tsx server.ts   serves ./build (after `remix vite:build`)
 *   node --import tsx server.ts                        dev: Vite middleware, HMR
 */
import path from "node:path";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";

const production = process.env.NODE_ENV === "production";
const buildDir = process.env.BUILD_DIR ?? "build";

async function main() {
  const viteDevServer = production
    ? undefined
    : await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true }, appType: "custom" }));

  // Services (db, Redis, worker) boot through tsx in both modes; the Remix build shares
  // their singletons through globalThis (see app/db/client.server.ts).
  const loadBoot = () => import("./app/boot.server");

  const boot = await loadBoot();
  const runtime = await boot.startServices();

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          "script-src": ["'self'", "'unsafe-inline'"],
          "style-src": ["'self'", "'unsafe-inline'"],
          // Gift pictures live on the platform's image host; avatars on the services host.
          "img-src": ["'self'", "data:", "blob:", "https:", "http:"],
          "connect-src": production ? ["'self'", "https:"] : ["'self'", "ws:", "wss:", "https:"],
          "upgrade-insecure-requests": null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // Helmet's default "no-referrer" makes Chromium send `Origin: null` on plain form
      // posts, which Remix refuses as a CSRF attempt: no-JS forms would all fail.
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      strictTransportSecurity: boot.secureCookies(),
    }),
  );
  app.use(compression());

  if (viteDevServer) {
    // Vite serves source files by path (`/api/rates` would resolve to api/rates.ts), so
    // the API, the queue board and the probes never reach it.
    const vite = viteDevServer.middlewares;
    app.use((req, res, next) => (/^\/(api|admin|healthz)(\/|$)/.test(req.path) ? next() : vite(req, res, next)));
  } else {
    app.use("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y" }));
    // Other public files (favicon, robots) all have an extension; pages and /api never do,
    // so they skip the file-system probe.
    const publicFiles = express.static(`${buildDir}/client`, { maxAge: "1h", index: false });
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  }

  // After static files (public), before Remix: the auth gate, the queue board.
  await boot.mountServerRoutes(app);

  app.all(
    "*",
    createRequestHandler({
      build: viteDevServer
        ? () => viteDevServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
        : (((await import(path.resolve(buildDir, "server/index.js"))) as ServerBuild)),
    }),
  );

  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "0.0.0.0";
  const server = app.listen(port, host, () => {
    console.log(`Galaxy Toolbox listening on http://localhost:${port}`);
    void boot.onListening(port);
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.close();
    await runtime.stop().catch((err: Error) => console.error("shutdown:", err.message));
    await viteDevServer?.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
