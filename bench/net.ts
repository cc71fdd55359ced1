/** Loopback helpers shared by the benchmarks (they start servers and call them over HTTP). */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import http from "node:http";
import net from "node:net";

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** One HTTP request to 127.0.0.1:port, the body collected as bytes. */
export function request(port: number, method: string, pathName: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    // A connection of its own: Node 20's global agent keeps sockets alive, and reusing one the
    // server is closing (its 5 s keep-alive timeout, e.g. after a long seed step) ends in
    // "socket hang up".
    const req = http.request({ host: "127.0.0.1", port, method, path: pathName, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Starts the web process as deployed — `node <BUILD_DIR>/server.js`, plain Node (the build
 * writes server.js next to its client and server dirs) — with `env`; resolves once it says it
 * listens. The child is pushed to `children` for the caller's clean-up.
 */
export function startServer(env: NodeJS.ProcessEnv, children: ChildProcess[]): Promise<ChildProcess> {
  const serverFile = path.join(env.BUILD_DIR ?? "build", "server.js");
  if (!fs.existsSync(path.resolve(ROOT, serverFile))) throw new Error(`${serverFile} is missing: rebuild (npx remix vite:build writes it)`);
  return startUntilListening(spawn(process.execPath, [serverFile], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] }), children);
}

/**
 * Starts `npm start`'s launcher (scripts/start.ts --no-build: the embedded database in the
 * launcher, the web process its child); resolves with both once the web process listens.
 */
export async function startLauncher(env: NodeJS.ProcessEnv, children: ChildProcess[]): Promise<{ launcher: ChildProcess; webPid: number }> {
  const launcher = await startUntilListening(
    spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--no-build"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] }),
    children,
  );
  const kids = fs.readFileSync(`/proc/${launcher.pid}/task/${launcher.pid}/children`, "utf8").trim().split(/\s+/).map(Number);
  const webPid = kids.find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("server.js"));
  if (!webPid) throw new Error("the launcher has no web process child");
  return { launcher, webPid };
}

function startUntilListening(child: ChildProcess, children: ChildProcess[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    children.push(child);
    let log = "";
    child.stdout!.on("data", (c: Buffer) => {
      log += c.toString();
      if (log.includes("listening on")) resolve(child);
    });
    child.stderr!.on("data", (c: Buffer) => (log += c.toString()));
    let listening = false;
    child.stdout!.on("data", () => (listening ||= log.includes("listening on")));
    child.on("exit", (code, signal) => {
      const why = `the server exited (${code ?? signal}):\n${log.slice(-2000)}`;
      // After it listened, an exit the bench did not ask for is said at once (a crash mid-run).
      if (listening && code !== 0 && signal !== "SIGTERM") console.error(why);
      reject(new Error(why));
    });
    setTimeout(() => reject(new Error(`the server did not start in 300 s:\n${log.slice(-2000)}`)), 300_000).unref();
  });
}
