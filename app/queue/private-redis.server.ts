/**
 * A private redis-server for installs without one: started by the web process when
 * nothing answers at REDIS_URL (and START_REDIS is on), stopped when it exits.
 *
 * Loopback only, port taken from REDIS_URL, data under DATA_DIR/redis with the
 * append-only file on (BullMQ's "going to production": AOF persistence, and
 * `maxmemory-policy noeviction` so Redis never drops queue keys).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { dataPath } from "~/utils/env.server";
import { probeRedis, redisAddress, safeRedisUrl } from "./redis.server";

export type PrivateRedis = {
  pid: number;
  port: number;
  dir: string;
  stop(): Promise<void>;
};

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/** Absolute path of redis-server on the PATH, or undefined. */
export function findRedisServer(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, "redis-server");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Why a private Redis cannot be started for `url`, or undefined when it can. */
export function privateRedisObstacle(url: string): string | undefined {
  let addr: ReturnType<typeof redisAddress>;
  try {
    addr = redisAddress(url);
  } catch {
    return `REDIS_URL is not a valid URL`;
  }
  if (!LOOPBACK.has(addr.host)) return `REDIS_URL points at another host (${addr.host}); only a loopback Redis can be started here`;
  if (addr.tls) return "REDIS_URL asks for TLS (rediss://), which a private redis-server does not offer";
  if (!findRedisServer()) return "redis-server is not on the PATH";
  return undefined;
}

/**
 * Starts redis-server for `url` and waits until it answers PING (at most `readyTimeoutMs`).
 * Throws when it cannot be started; the caller decides what offline means.
 */
export async function startPrivateRedis(
  url: string,
  options: { dir?: string; readyTimeoutMs?: number; onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void } = {},
): Promise<PrivateRedis> {
  const obstacle = privateRedisObstacle(url);
  if (obstacle) throw new Error(obstacle);
  const { port, password } = redisAddress(url);
  const dir = path.resolve(options.dir ?? dataPath("redis"));
  fs.mkdirSync(dir, { recursive: true });
  const args = [
    // "-::1": also IPv6 loopback when the host has it (REDIS_URL may say [::1]).
    "--bind",
    "127.0.0.1",
    "-::1",
    "--port",
    String(port),
    "--dir",
    dir,
    "--appendonly",
    "yes",
    "--appendfsync",
    "everysec",
    "--maxmemory-policy",
    "noeviction",
    "--protected-mode",
    "yes",
    "--daemonize",
    "no",
    "--logfile",
    path.join(dir, "redis.log"),
    "--pidfile",
    path.join(dir, "redis.pid"),
  ];
  // A password goes into a private config file, not argv, so `ps` does not show it.
  if (password) {
    const conf = path.join(dir, "private.conf");
    fs.writeFileSync(conf, `requirepass "${password.replace(/["\\]/g, "\\$&")}"\n`, { mode: 0o600 });
    args.unshift(conf);
  }
  const bin = findRedisServer()!;
  // A process group of its own (issue 30 A8): a terminal's Ctrl-C goes to every process of the
  // foreground group at once, and redis-server would exit before the app has finished with it
  // (ECONNRESET, ECONNREFUSED and "exited unexpectedly" all through the shutdown). It stops
  // when this process says so (stop()), or when this process exits (onParentExit below).
  const child: ChildProcess = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"], detached: true });

  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.once("error", () => {});

  const deadline = Date.now() + (options.readyTimeoutMs ?? 5_000);
  let ready = false;
  let early: number | null | undefined;
  void exited.then((code) => {
    early = code;
  });
  while (Date.now() < deadline && early === undefined) {
    if (await probeRedis(url, 300)) {
      ready = true;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill("SIGKILL");
    const log = readTail(path.join(dir, "redis.log")) || stderr;
    throw new Error(`redis-server did not start on port ${port}${early !== undefined ? ` (exit code ${early})` : ""}${log ? `: ${log}` : ""}`);
  }

  let stopping: Promise<void> | undefined;
  // Safety net: however this process ends (process.exit() from a signal handler that does
  // not wait for stop(), an uncaught exception), redis-server gets its SIGTERM and shuts
  // down cleanly instead of outliving us.
  const onParentExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  };
  process.once("exit", onParentExit);
  child.once("exit", (code, signal) => {
    process.off("exit", onParentExit);
    if (!stopping) options.onUnexpectedExit?.(code, signal);
  });
  return {
    pid: child.pid!,
    port,
    dir,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        // SIGTERM makes redis-server flush the append-only file and exit cleanly.
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}

function readTail(file: string): string {
  try {
    const text = fs.readFileSync(file, "utf8");
    return text.trim().split("\n").slice(-3).join(" | ");
  } catch {
    return "";
  }
}

export function describePrivateRedis(r: PrivateRedis, url: string) {
  return `private redis-server (pid ${r.pid}) at ${safeRedisUrl(url)}, data in ${r.dir}`;
}
