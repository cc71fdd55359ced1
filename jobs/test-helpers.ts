/**
 * Helpers for the job engine's tests (not used by the app).
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Job } from "bullmq";
import type { SessionPurpose } from "#api/sessions";
import { deleteKeysMatching } from "#tests/kit/redis-keys";
import { nodeArgsFor } from "#tests/setup/test-bins";
import { withSupervision, type SessionContext } from "./session-host.server";
import type { HeartbeatRecord } from "../app/queue/status.server";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A TCP port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Deletes every Redis key under `prefix` (each test file has its own QUEUE_PREFIX). */
export async function deleteKeys(url: string, prefix: string) {
  await deleteKeysMatching(url, `${prefix}:*`);
}

export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export type WorkerChild = { child: ChildProcess; output: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> };

/**
 * The standalone worker (`npm run worker`) as a child process, with this process's environment
 * plus `env` (nodeArgs: e.g. `--cpu-prof`, which NODE_OPTIONS refuses). Under vitest it runs
 * the run's bundle of jobs/worker.ts, elsewhere `--import tsx jobs/worker.ts`
 * (tests/setup/test-bins.ts).
 */
export function spawnWorker(env: Record<string, string> = {}, nodeArgs: string[] = []): WorkerChild {
  const child = spawn(process.execPath, [...nodeArgs, ...nodeArgsFor("jobs/worker.ts")], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => out, exited };
}

/**
 * A session context whose first "connecting" report is answered by a stop: the window before
 * a runner listens to its signal (docs/sessions.md, the lost-stop check every runner has).
 * `reports` collects the `actual` states the runner wrote.
 */
export function stopWhileConnecting(purpose: SessionPurpose, key: string): { ctx: SessionContext; reports: string[] } {
  const controller = new AbortController();
  const reports: string[] = [];
  const base: Omit<SessionContext, "log" | "supervised"> = {
    purpose,
    key,
    accountId: key,
    jobId: `${purpose}-${key}`,
    workerId: "test-worker",
    signal: controller.signal,
    reason: () => (controller.signal.aborted ? "stop" : null),
    holdsLock: async () => true,
    proven: () => true,
    job: {} as Job,
    report: async (patch) => {
      if (patch.actual) reports.push(patch.actual);
      if (patch.actual === "connecting") controller.abort("stop");
      return true;
    },
    end: async () => {},
    onWake: () => () => {},
    onCommand: () => {},
  };
  const ctx = withSupervision(base, { log: async () => {}, report: async () => true, end: async () => {} });
  return { ctx, reports };
}

/** "returned" when the runner ends within `ms`, else "still running". */
export function endsWithin(run: Promise<unknown>, ms = 5_000): Promise<"returned" | "still running"> {
  return Promise.race([run.then(() => "returned" as const), new Promise<"still running">((r) => setTimeout(() => r("still running"), ms))]);
}

/**
 * A worker's heartbeat as jobs/worker.ts writes it, for tests whose sessions name a holder that
 * is no process: every view joins its holder's beat (decision 0027), so a holder without one is
 * "worker lost". Lives `ttlMs`; `record` adds to what the beat says (sessions held, capacity).
 * The job engine's cached status is forgotten.
 */
export async function beatAsWorker(id: string, ttlMs = 60_000, record: Partial<HeartbeatRecord> = {}): Promise<void> {
  const { heartbeatKeys, producerConnection, waitForReady } = await import("../app/queue/redis.server");
  const { resetJobEngineStatus } = await import("../app/queue/status.server");
  const beat: HeartbeatRecord = {
    id,
    pid: 4242,
    host: "test-host",
    mode: "standalone",
    queues: [],
    startedAt: new Date().toISOString(),
    at: Date.now(),
    ...record,
  };
  const json = JSON.stringify(beat);
  await waitForReady(producerConnection(), 5_000);
  await producerConnection()
    .multi()
    .set(heartbeatKeys.worker(id), json, "PX", ttlMs)
    .sadd(heartbeatKeys.workers(), id)
    .hset(heartbeatKeys.records(), id, json)
    .exec();
  resetJobEngineStatus();
}
