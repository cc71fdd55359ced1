/**
 * The hourly daily-stats pull (docs/summary.md [D] "schedule"): the `daily-stats-pull-hourly`
 * scheduler on the system queue, and its job run by a real in-process worker against the
 * simulator over HTTP, upserting daily_awards. Real Redis (this file's QUEUE_PREFIX) and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { resetServicesFigures } from "#sim/services-data";
import { getDb } from "~/db/client.server";
import { dailyAwards, users } from "~/db/schema";
import { resetGalaxyServices } from "~/platform/galaxy-services.server";
import { upsertUser } from "~/models/user.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { enqueue, getQueue, SCHEDULERS, upsertSchedulers } from "../app/queue/queues.server";
import { deleteKeys, waitFor } from "./test-helpers";
import { startWorkers, type WorkerPool } from "./worker";

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
  resetEnv();
  resetGalaxyServices();
});
afterAll(async () => {
  resetGalaxyServices();
  await sim.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(dailyAwards);
  await db.delete(users);
  sim.world.reset();
  resetServicesFigures(sim.world);
});

describe("the daily-stats-pull scheduler", () => {
  it("is upserted once with its stable id, hourly, on the system queue", async () => {
    await upsertSchedulers();
    await upsertSchedulers();
    const s = SCHEDULERS.find((x) => x.id === "daily-stats-pull-hourly")!;
    expect(s).toMatchObject({ queue: "system", payload: { kind: "daily-stats-pull" } });
    const schedulers = await getQueue("system").getJobSchedulers();
    expect(schedulers.filter((x) => x.key === "daily-stats-pull-hourly")).toEqual([
      expect.objectContaining({ pattern: "7 * * * *", name: "daily-stats-pull" }),
    ]);
  });
});

describe("the daily-stats-pull job", () => {
  let pool: WorkerPool;
  beforeAll(async () => {
    await getQueue("system").obliterate({ force: true });
    pool = startWorkers({ mode: "in-process" });
  });
  afterAll(async () => {
    await pool.close(5_000);
  });

  it("pulls every bowling account from the simulator and upserts; a re-run changes nothing", async () => {
    const a = sim.world.accounts.find((x) => x.kind === "bowling")!;
    await upsertUser({ accountId: a.id, nick: "A", password: a.password, type: "bowling" });
    const db = await getDb();
    for (const run of [1, 2]) {
      const job = await enqueue("system", { kind: "daily-stats-pull" }, { jobId: `daily-pull-${run}-${Date.now()}` });
      await waitFor(`job ${job.id}`, async () => ["completed", "failed"].includes(await getQueue("system").getJobState(String(job.id))));
      const done = (await getQueue("system").getJob(String(job.id)))!;
      expect(done.returnvalue).toEqual({ accounts: 1, rows: 7, failed: [] });
      const rows = await db.select().from(dailyAwards);
      expect(rows).toHaveLength(7);
      expect(rows.every((r) => r.accountId === a.id)).toBe(true);
    }
  });
});
