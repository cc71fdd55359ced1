/** Loopback helpers shared by the benchmarks (they start servers and call them over HTTP). */
import { spawn, type ChildProcess } from "node:child_process";
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
    const req = http.request({ host: "127.0.0.1", port, method, path: pathName, headers }, (res) => {
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
 * Starts `server.ts` (as deployed, under tsx) in its own process with `env`; resolves once it
 * says it listens. The child is pushed to `children` for the caller's clean-up.
 */
export function startServer(env: NodeJS.ProcessEnv, children: ChildProcess[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let log = "";
    child.stdout!.on("data", (c: Buffer) => {
      log += c.toString();
      if (log.includes("listening on")) resolve(child);
    });
    child.stderr!.on("data", (c: Buffer) => (log += c.toString()));
    child.on("exit", (code) => reject(new Error(`server.ts exited (${code}):\n${log.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`server.ts did not start in 120 s:\n${log.slice(-2000)}`)), 120_000).unref();
  });
}
