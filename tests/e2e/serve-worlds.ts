/**
 * The journeys' app servers, one per world (tests/e2e/world.ts), started side by side: the
 * run's one `webServer` (playwright.config.ts). Playwright starts its webServers one after the
 * other, each once the one before answers, and a world's server takes ~12 s to answer on an
 * idle machine (its new database made and migrated), mostly on one core: three took 37 s in a
 * row here, 50 s in CI. Each gets a fresh data dir, a fresh database (world 0 the embedded
 * one, the others PostgreSQL; decision 0050) and the run's build. Prints
 * "worlds ready" once every world's /healthz answers; a port already taken, or a server that
 * ends, ends this process with the reason (Playwright then fails the run). Stopping this process
 * (SIGTERM, SIGINT) stops the servers. scripts/test.sh starts it itself, beside the multi-host
 * test, and tells Playwright the worlds are up (E2E_WORLDS_UP=1).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import pg from "pg";
import { E2E_BUILD_DIR, E2E_PG_URL, WORLDS, worldDatabaseName, worldServerEnv, type World } from "./world";

const runId = process.env.E2E_RUN_ID ?? Date.now().toString(36);
const children: ChildProcess[] = [];

function fail(message: string): never {
  process.stderr.write(`serve-worlds: ${message}\n`);
  for (const child of children) child.kill("SIGTERM");
  process.exit(1);
}

/** Whether something already listens on the port (an earlier run's server would be tested instead). */
const taken = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

async function answers(world: World): Promise<boolean> {
  try {
    return (await fetch(`${world.baseURL}/healthz`, { signal: AbortSignal.timeout(5_000) })).ok;
  } catch {
    return false;
  }
}

// Asked to stop (Playwright; scripts/test.sh once the journeys are done, or when the worlds did not
// come up in time, so also before "worlds ready"): the servers stop with it, quietly.
for (const signal of ["SIGTERM", "SIGINT"] as const)
  process.once(signal, () => {
    for (const child of children) {
      child.removeAllListeners("exit");
      child.kill("SIGTERM");
    }
    process.exit(0);
  });

for (const world of WORLDS) if (await taken(world.port)) fail(`${world.baseURL} is already used by another process`);

/**
 * A PostgreSQL world's database, made afresh for this run (an earlier run's is dropped, with
 * any connection it kept); its server migrates it at start. World 0 has no database here: its
 * server makes the embedded database's files in its new data dir, as a first `npm start` does.
 */
async function freshDatabase(world: World) {
  const client = new pg.Client({ connectionString: E2E_PG_URL });
  try {
    await client.connect();
    const name = worldDatabaseName(world.port);
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  } catch (err) {
    fail(`could not make the PostgreSQL database of ${world.baseURL} at ${E2E_PG_URL}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await client.end().catch(() => {});
  }
}

for (const world of WORLDS) {
  fs.rmSync(world.dataDir, { recursive: true, force: true });
  fs.mkdirSync(world.dataDir, { recursive: true });
  if (world.databaseUrl) await freshDatabase(world);
  const child = spawn(process.execPath, [`${E2E_BUILD_DIR}/server.js`], {
    env: { ...process.env, ...worldServerEnv(world, runId) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  child.once("exit", (code, signal) => fail(`the server of ${world.baseURL} ended (${signal ?? `exit code ${code}`})`));
  children.push(child);
}

const waiting = new Set(WORLDS);
for (let delay = 100; waiting.size; delay = Math.min(delay * 2, 500)) {
  for (const world of [...waiting]) if (await answers(world)) waiting.delete(world);
  if (waiting.size) await new Promise((r) => setTimeout(r, delay));
}
process.stdout.write("worlds ready\n");
