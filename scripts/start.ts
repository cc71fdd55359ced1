/**
 * `npm start`: builds the app, then serves it on http://localhost:3000 with the embedded
 * defaults (PGlite in ./data, private Redis when none answers, in-process worker).
 * `npm start -- --demo`: also starts the Galaxy and Discord simulators, points the app at them
 * and, into an empty database, seeds the demo data (scripts/demo-seed.ts).
 *
 * Two processes (docs/decisions/0021): this launcher holds what is not the web app — the
 * build step, the embedded database (PGlite, served to the other processes over its loopback
 * socket, decision 0011) and, in the demo, the simulators — and runs the web process as
 * `node <build dir>/server.js`, plain Node with no TypeScript loader, so the web process holds
 * only the app. Signals go to the web process first; the launcher closes the simulators and
 * the database when it has stopped (the app finishes with them first: its own private Redis
 * sits in a process group of its own, so a terminal's Ctrl-C reaches it only through the app)
 * and exits with its status.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { buildApp, waitForServer } from "./build-app";

const demo = process.argv.includes("--demo") || process.env.DEMO === "1";
const skipBuild = process.argv.includes("--no-build");

process.env.NODE_ENV = "production";

if (!skipBuild) {
  buildApp();
}

if (demo) {
  // The launcher's own writes (the demo seed) tell no open page: there is none yet.
  const { muteLivePublishing } = await import("~/queue/live.server");
  muteLivePublishing();
}
const env = demo ? await startDemo() : null;

/** The demo's simulators; a port already in use ends the start with one line, not a stack trace (issue 30 A8). */
async function startDemo() {
  const { DemoPortInUseError, startDemoEnvironment } = await import("./demo-env");
  try {
    return await startDemoEnvironment();
  } catch (err) {
    if (!(err instanceof DemoPortInUseError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}

const { getEnv } = await import("~/utils/env.server");
const db = await import("~/db/client.server");
// Without DATABASE_URL this process owns the embedded database (the demo seed opened it already).
if (!getEnv().DATABASE_URL) await db.getDb();

const serverFile = path.join(process.env.BUILD_DIR ?? "build", "server.js");
const web = spawn(process.execPath, [serverFile], { stdio: "inherit", env: process.env });

/**
 * The demo seed started sessions through this process's own Redis connections. The private
 * Redis belongs to the web process, which stops it when it has finished: this process lets go
 * of its connections first (after seeding, and at a signal), or they would report the server
 * going away ("producer connection … ECONNREFUSED") through the shutdown (issue 30 A8).
 */
const releaseRedis = async () => {
  const { closeQueues } = await import("~/queue/queues.server");
  await closeQueues().catch(() => {});
};

let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await env?.close().catch(() => {});
  await db.closeDb().catch(() => {});
  process.exit(code);
};
let asked = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    asked = true;
    void releaseRedis();
    if (web.exitCode === null && web.signalCode === null) web.kill(signal);
    else void stop(0);
  });
}
// A web process killed by a signal nobody here sent (OOM killer, kill -9) is a failure.
web.on("exit", (code, signal) => void stop(code ?? (signal && asked ? 0 : 1)));
web.on("error", (err) => {
  console.error(`Could not start the web process (${serverFile}): ${err.message}`);
  void stop(1);
});

if (env) {
  const port = Number(process.env.PORT ?? 3000);
  await waitForServer(port);
  await env.afterListening(`http://localhost:${port}`).catch((err: Error) => {
    console.error(`Demo data: ${err.message}`);
  });
  await releaseRedis();
}
