/**
 * Issue 19 part C item 3: the start-up log is quiet. `npm start -- --demo` (scripts/start.ts,
 * run as npm runs it) on a scratch data dir and build dir: no Rollup, zod or "empty chunk"
 * warnings, and it ends with the URL and where the demo accounts are. A real build (a minute
 * or two on a busy machine) and a real embedded database, so it has a long timeout.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { MISSING_BUILD_TOOLS, remixCli } from "./build-app";
import { DEMO_OPERATOR } from "./demo-seed";

const root = path.resolve(import.meta.dirname, "..");
/**
 * START_TEST_BUILD=`<build dir>:<log path without .log>` (scripts/test.sh): the run's production
 * build, made by `npm start`'s own build step (scripts/build.ts) beside vitest, its output in
 * `<log>.log` and its exit status in `<log>.rc` once done. The first start then reads that output
 * as its build's and starts on that build (`--no-build`) instead of building the app a second
 * time in the same run; alone (`npx vitest run scripts/start.test.ts`), it builds as a newcomer's
 * first `npm start` does.
 */
const prebuilt = (() => {
  const value = process.env.START_TEST_BUILD;
  if (!value) return null;
  const at = value.indexOf(":");
  return { dir: value.slice(0, at), log: `${value.slice(at + 1)}.log`, rc: `${value.slice(at + 1)}.rc` };
})();
const buildDir = prebuilt?.dir ?? `build-start-test-${process.pid}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-start-"));
let child: ChildProcess | null = null;
let out = "";
let port = 0;

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    // npm, its shell and node: the whole process group, so no server outlives the test.
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
  if (!prebuilt) fs.rmSync(path.join(root, buildDir), { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The environment of a start as a first start has it, with `extra` on top. */
function startEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    ...process.env,
    BUILD_DIR: buildDir,
    DATA_DIR: dataDir,
    GALAXY_SIM_PORT: "0",
    DISCORD_SIM_PORT: "0",
    RUN_WORKER: "true",
    ...extra,
  };
  // The embedded database, as a first start has it (the test setup points DATABASE_URL at PostgreSQL).
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  // Vitest's own variables would make vite.config.ts leave the Remix plugin out.
  for (const key of Object.keys(env)) if (key.startsWith("VITEST") || key === "TEST") delete env[key];
  return env as NodeJS.ProcessEnv;
}

/** Runs the launcher without a build step to its end; its output, exit code and what is left. */
function runStart(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--no-build", ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    p.stdout.on("data", (b: Buffer) => (text += b.toString()));
    p.stderr.on("data", (b: Buffer) => (text += b.toString()));
    p.once("exit", (code) => resolve({ code, out: text }));
  });
}

/** Listens on a free loopback port, as someone else's program would. */
async function holdPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, release: () => new Promise((resolve) => server.close(() => resolve())) };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe("npm start -- --demo: the first minutes (issue 19 C items 1 and 3)", () => {
  // The build alone took over 6 minutes on the shared 2-core machine at load 20 (issue 30 run).
  // Once CI (load ~20, 1,237 s in all) timed it out at 600 s with nothing to say where it stood:
  // the wait below now fails first, with what the start printed so far.
  it("builds and starts quietly, then ends with the URL, the demo operator and where the demo accounts are", { timeout: 900_000 }, async () => {
    port = await freePort();
    // The build's output: npm start's own, or the run's build made by the same step (START_TEST_BUILD).
    const quiet = /warn|rollup|empty chunk|\(!\)|annotation|error|ECONNREFUSED|ECONNRESET/i;
    if (prebuilt) {
      await vi.waitFor(() => expect(fs.existsSync(prebuilt.rc), `${prebuilt.rc}: the run's build has ended`).toBe(true), { timeout: 840_000, interval: 500 });
      const built = fs.readFileSync(prebuilt.log, "utf8").trimEnd().split("\n");
      expect(fs.readFileSync(prebuilt.rc, "utf8").trim(), built.join("\n")).toBe("0");
      expect(built[0]).toBe("Building the app…");
      expect(built.at(-1)).toMatch(/^Built in \d+\.\d s$/);
      for (const line of built) expect(line, built.join("\n")).not.toMatch(quiet);
    }
    // Nothing answers there: the app starts its own private redis-server, as on a machine without Redis.
    const redisPort = await freePort();
    child = spawn("npm", ["start", "--silent", "--", "--demo", ...(prebuilt ? ["--no-build"] : [])], {
      cwd: root,
      env: startEnv({ PORT: String(port), REDIS_URL: `redis://127.0.0.1:${redisPort}`, START_REDIS: "true" }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
    const url = `http://localhost:${port}`;
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (/GalaCord channel #relay: \S+\n/.test(out)) done(resolve);
      }, 200);
      const done = (f: () => void) => {
        clearInterval(timer);
        f();
      };
      child!.once("exit", (code) => done(() => reject(new Error(`npm start exited (${code}):\n${out}`))));
      const stuck = setTimeout(() => done(() => reject(new Error(`npm start had not finished starting after 840 s; it printed:\n${out}`))), 840_000);
      stuck.unref();
    });
    const lines = out.trimEnd().split("\n");
    for (const line of lines) expect(line, out).not.toMatch(quiet);
    if (!prebuilt) expect(lines[0]).toBe("Building the app…");
    else expect(out).not.toContain("Building the app…");
    expect(lines.slice(-5)).toEqual([
      `Galaxy Toolbox (demo) on ${url}`,
      `  sign in as ${DEMO_OPERATOR.name} / ${DEMO_OPERATOR.password}`,
      expect.stringMatching(/^ {2}demo accounts \(ids, nicks, recovery codes\): http:\/\/127\.0\.0\.1:\d+\/__sim\/accounts$/),
      expect.stringMatching(/^ {2}to try GalaCord \(Connect\) or Collections: \S+'s recovery code \w{10}$/),
      expect.stringMatching(/^ {2}GalaCord channel #relay: http:\/\/127\.0\.0\.1:\d+\/__discord\/messages\?channelId=\d+$/),
    ]);
    expect(out).toContain("Demo data: seeding an empty database…");
    // The app answers at that URL (the login page).
    const res = await fetch(`${url}/login`);
    expect(res.status).toBe(200);

    // Two processes (docs/decisions/0021): the launcher owns the embedded database and serves
    // it on its socket; the web process is its child, plain Node on the built server.js.
    const owner = JSON.parse(fs.readFileSync(path.join(dataDir, "pglite.socket.json"), "utf8")) as { pid: number };
    const cmdline = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const node = expect.stringMatching(/(^|\/)node$/);
    expect(cmdline(owner.pid)).toEqual([node, "--import", "tsx", "scripts/start.ts", "--demo", ...(prebuilt ? ["--no-build"] : [])]);
    const kids = fs.readFileSync(`/proc/${owner.pid}/task/${owner.pid}/children`, "utf8").trim().split(/\s+/).map(Number);
    expect(kids.map(cmdline)).toEqual([[node, path.join(buildDir, "server.js")]]);
  });

  it("a port already in use for the web app ends that start with one clear line; the app beside it runs on (issue 30 A8)", { timeout: 120_000 }, async () => {
    expect(child?.exitCode).toBeNull();
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "gt-start-port-"));
    try {
      const { code, out: text } = await runStart([], startEnv({ PORT: String(port), DATA_DIR: other, START_REDIS: "false", RUN_WORKER: "false" }));
      expect(code).toBe(1);
      expect(text.trimEnd().split("\n").at(-1)).toBe(
        `Cannot start Galaxy Toolbox: port ${port} (PORT) is already in use. Stop what uses it, or set PORT to another port.`,
      );
      expect(text).not.toMatch(/^\s+at /m);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
    expect((await fetch(`http://localhost:${port}/login`)).status).toBe(200);
  });

  it("Ctrl-C: the app finishes with its private Redis, database and simulators before they stop, quietly (issue 30 A8)", { timeout: 60_000 }, async () => {
    const redisPid = Number(/private redis-server \(pid (\d+)\)/.exec(out)?.[1]);
    expect(alive(redisPid)).toBe(true);
    const owner = JSON.parse(fs.readFileSync(path.join(dataDir, "pglite.socket.json"), "utf8")) as { pid: number };
    const before = out.length;
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    const asked = Date.now();
    // A terminal's Ctrl-C: SIGINT to every process of the foreground group at once.
    process.kill(-child!.pid!, "SIGINT");
    await exited;
    const took = Date.now() - asked;
    // The figure the issue asks for (≤ 10 s), printed, not asserted (docs/testing.md: no timings in tests).
    console.log(`npm start stopped ${took} ms after Ctrl-C`);
    await vi.waitFor(() => expect([owner.pid, redisPid].filter(alive)).toEqual([]), { timeout: 15_000 });
    const after = out.slice(before).trim().split("\n");
    expect(after).toEqual(["SIGINT: shutting down"]);
  });
});

describe("npm start -- --demo: a simulator port already in use (issue 30 A8)", () => {
  it.each([
    ["GALAXY_SIM_PORT", "Galaxy simulator"],
    ["DISCORD_SIM_PORT", "Discord simulator"],
  ])("%s taken: one clear line and exit 1, not a stack trace", { timeout: 120_000 }, async (variable, what) => {
    const held = await holdPort();
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "gt-start-sim-"));
    try {
      const { code, out: text } = await runStart(["--demo"], startEnv({ DATA_DIR: other, [variable]: String(held.port), PORT: String(await freePort()) }));
      expect(code).toBe(1);
      expect(text.trim()).toBe(
        `Cannot start the demo: port ${held.port} (${what}, ${variable}) is already in use. Stop what uses it, or set ${variable} to another port.`,
      );
    } finally {
      await held.release();
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it("without the build tools it stops at once and says exactly what to do", () => {
    const missing = (id: string): string => {
      throw Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });
    };
    expect(remixCli(missing)).toBeNull();
    expect(remixCli()).toMatch(/@remix-run[\\/]dev[\\/]dist[\\/]cli\.js$/);
    expect(MISSING_BUILD_TOOLS).toContain("Run: npm ci --include=dev && npm start");
  });
});
