/**
 * "if nothing answers there and redis-server is on the PATH, the start command runs a
 * private one (loopback, data under ./data/redis, append-only file on) and stops it on
 * exit" (issue "Foundation", item 2). REDIS_URL points at a free port in this file.
 */
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, resetEnv } from "~/utils/env.server";
import { enqueue, getQueue, isJobEngineOffline, SCHEDULERS } from "./queues.server";
import { privateRedisObstacle, startPrivateRedis } from "./private-redis.server";
import { probeRedis } from "./redis.server";
import { startJobRuntime, type JobRuntime } from "../../jobs/runtime.server";
import { jobEngineDetails, resetJobEngineStatus } from "./status.server";
import { freePort, waitFor } from "../../jobs/test-helpers";

let url: string;
let port: number;
const runtimes: JobRuntime[] = [];

beforeAll(async () => {
  port = await freePort();
  url = `redis://127.0.0.1:${port}`;
  process.env.REDIS_URL = url;
  resetEnv();
  resetJobEngineStatus();
});
afterAll(async () => {
  for (const r of runtimes) await r.stop();
});

async function config(key: string) {
  const conn = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await conn.connect();
    return ((await conn.config("GET", key)) as string[])[1];
  } finally {
    conn.disconnect();
  }
}

describe("private redis-server (START_REDIS)", () => {
  it("only for a loopback, plain-TCP REDIS_URL", () => {
    expect(privateRedisObstacle("redis://10.1.2.3:6379")).toMatch(/another host/);
    expect(privateRedisObstacle("rediss://127.0.0.1:6380")).toMatch(/TLS/);
    expect(privateRedisObstacle("redis://localhost:6390")).toBeUndefined();
  });

  it("starts on REDIS_URL's port with AOF under DATA_DIR/redis, runs the in-process worker, and stop() stops it", async () => {
    expect(await probeRedis(url, 300)).toBe(false);
    const runtime = await startJobRuntime({ runWorker: true, startRedis: true });
    runtimes.push(runtime);
    expect(runtime.privateRedis).toBeDefined();
    const dir = dataPath("redis");
    expect(runtime.privateRedis!.dir).toBe(dir);
    expect(runtime.privateRedis!.port).toBe(port);

    expect(await config("appendonly")).toBe("yes");
    expect(await config("dir")).toBe(dir);
    expect(await config("bind")).toMatch(/^127\.0\.0\.1/);
    expect(await config("maxmemory-policy")).toBe("noeviction");
    expect(fs.existsSync(path.join(dir, "appendonlydir"))).toBe(true);

    // Schedulers are upserted at boot, and the in-process worker runs jobs.
    expect((await getQueue("system").getJobSchedulers()).map((s) => s.key).sort()).toEqual(
      SCHEDULERS.filter((s) => s.queue === "system")
        .map((s) => s.id)
        .sort(),
    );
    const job = await enqueue("system", { kind: "probe", ms: 50 }, { jobId: "probe-private" });
    await waitFor("probe completed", async () => (await job.getState()) === "completed");
    resetJobEngineStatus();
    expect(await jobEngineDetails()).toMatchObject({ redis: "up", worker: "running" });

    await runtime.stop();
    expect(await probeRedis(url, 300)).toBe(false);
    expect(() => process.kill(runtime.privateRedis!.pid, 0)).toThrow();
  }, 30_000);

  it("runs in a process group of its own, so a terminal's Ctrl-C reaches it only through the app (issue 30 A8)", async () => {
    const redis = await startPrivateRedis(url, { dir: dataPath("redis-group") });
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm has no spaces here.
      const pgrp = (pid: number | "self") => Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[4]);
      expect(pgrp(redis.pid)).toBe(redis.pid);
      expect(pgrp(redis.pid)).not.toBe(pgrp("self"));
    } finally {
      await redis.stop();
    }
    expect(await probeRedis(url, 300)).toBe(false);
  }, 30_000);

  it("a restart finds the jobs again (append-only file)", async () => {
    const runtime = await startJobRuntime({ runWorker: false, startRedis: true });
    runtimes.push(runtime);
    expect(runtime.privateRedis).toBeDefined();
    const job = await getQueue("system").getJob("probe-private");
    expect(await job?.getState()).toBe("completed");
    await runtime.stop();
    expect(await probeRedis(url, 300)).toBe(false);
  }, 30_000);

  it("Redis coming back later: the runtime recovers by itself (schedulers, worker, producers)", async () => {
    const runtime = await startJobRuntime({ runWorker: true, startRedis: false });
    runtimes.push(runtime);
    expect(runtime.privateRedis).toBeUndefined();
    resetJobEngineStatus();
    expect((await jobEngineDetails()).redis).toBe("down");
    await expect(enqueue("system", { kind: "probe", ms: 0 })).rejects.toSatisfy(isJobEngineOffline);

    // A fresh, empty Redis: the schedulers must come from the runtime noticing it is back.
    const redis = await startPrivateRedis(url, { dir: dataPath("redis-fresh") });
    try {
      await waitFor("worker running", async () => {
        resetJobEngineStatus();
        const s = await jobEngineDetails();
        return s.redis === "up" && s.worker === "running";
      });
      await waitFor(
        "schedulers upserted",
        async () => (await getQueue("system").getJobSchedulers()).length === SCHEDULERS.filter((s) => s.queue === "system").length,
      );
      const job = await enqueue("system", { kind: "probe", ms: 10 }, { jobId: "probe-after-outage" });
      await waitFor("probe completed", async () => (await job.getState()) === "completed");
      await runtime.stop();
    } finally {
      await redis.stop();
    }
  }, 30_000);
});
