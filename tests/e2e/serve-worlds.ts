/**
 * The journeys' app servers, one per world (tests/e2e/world.ts), started side by side: the
 * run's one `webServer` (playwright.config.ts). Playwright starts its webServers one after the
 * other, each once the one before answers, and a world's server takes ~12 s to answer on an
 * idle machine (its new embedded database made and migrated), mostly on one core: three took
 * 37 s in a row here, 50 s in CI. Each gets a fresh data dir and the run's build. Prints
 * "worlds ready" once every world's /healthz answers; a port already taken, or a server that
 * ends, ends this process with the reason (Playwright then fails the run). Stopping this process
 * (SIGTERM, SIGINT) stops the servers. scripts/test.sh starts it itself, beside the multi-host
 * test, and tells Playwright the worlds are up (E2E_WORLDS_UP=1).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createEmbeddedFiles } from "../../app/db/client.server";
import { E2E_BUILD_DIR, WORLDS, worldServerEnv, type World } from "./world";

const runId = process.env.E2E_RUN_ID ?? Date.now().toString(36);
const children: ChildProcess[] = [];
/** The embedded database's files made for the worlds (below), until they are copied. */
let templateDir: string | undefined;

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
    if (templateDir) fs.rmSync(templateDir, { recursive: true, force: true });
    process.exit(0);
  });

for (const world of WORLDS) if (await taken(world.port)) fail(`${world.baseURL} is already used by another process`);

/**
 * The embedded database's files made once (initdb, ~5 core-seconds of WebAssembly, by the app's
 * own `createEmbeddedFiles`) and copied into each world's data dir, where the server finds them
 * and only migrates. A first start's own initdb stays under test in scripts/start.test.ts and
 * app/db/client.server.test.ts.
 */
async function embeddedFiles(): Promise<string> {
  const dir = (templateDir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-e2e-pglite-")));
  await createEmbeddedFiles(dir).catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
  return dir;
}

const template = await embeddedFiles();
for (const world of WORLDS) {
  fs.rmSync(world.dataDir, { recursive: true, force: true });
  fs.cpSync(template, path.join(world.dataDir, "pglite"), { recursive: true });
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
fs.rmSync(template, { recursive: true, force: true });
templateDir = undefined;
process.stdout.write("worlds ready\n");
