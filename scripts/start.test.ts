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
import { afterAll, describe, expect, it } from "vitest";
import { MISSING_BUILD_TOOLS, remixCli } from "./build-app";
import { DEMO_OPERATOR } from "./demo-seed";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = `build-start-test-${process.pid}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-start-"));
let child: ChildProcess | null = null;

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    // npm, its shell and node: the whole process group, so no server outlives the test.
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
  fs.rmSync(path.join(root, buildDir), { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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
  it("builds and starts quietly, then ends with the URL, the demo operator and where the demo accounts are", { timeout: 360_000 }, async () => {
    const port = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: String(port),
      BUILD_DIR: buildDir,
      DATA_DIR: dataDir,
      GALAXY_SIM_PORT: "0",
      DISCORD_SIM_PORT: "0",
      RUN_WORKER: "true",
    };
    // The embedded database, as a first start has it (the test setup points DATABASE_URL at PostgreSQL).
    delete env.DATABASE_URL;
    delete env.NODE_ENV;
    // Vitest's own variables would make vite.config.ts leave the Remix plugin out.
    for (const key of Object.keys(env)) if (key.startsWith("VITEST") || key === "TEST") delete env[key];
    child = spawn("npm", ["start", "--silent", "--", "--demo"], {
      cwd: root,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
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
    });
    const lines = out.trimEnd().split("\n");
    for (const line of lines) expect(line, out).not.toMatch(/warn|rollup|empty chunk|\(!\)|annotation|error/i);
    expect(lines[0]).toBe("Building the app…");
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
    expect(cmdline(owner.pid)).toEqual([node, "--import", "tsx", "scripts/start.ts", "--demo"]);
    const kids = fs.readFileSync(`/proc/${owner.pid}/task/${owner.pid}/children`, "utf8").trim().split(/\s+/).map(Number);
    expect(kids.map(cmdline)).toEqual([[node, path.join(buildDir, "server.js")]]);
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
