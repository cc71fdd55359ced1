/**
 * The test bed of the Collections Auto tests (automation.test.ts, automation.fault.test.ts):
 * the Galaxy simulator in this process, real worker child processes with short timings, and
 * operators logged in to the Collections screen. Registers its vitest hooks when called.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { inventoryOf, resetServicesFigures, servicesState, type RequestRecord } from "#sim/services-data";
import { createTestOperator } from "#tests/kit/auth";
import { getState, saveProfile, updateState } from "~/models/collections.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { closeLive } from "../../app/queue/live.server";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "../test-helpers";

/** COLLECTIONS_TIME_SCALE of the tests: step wait 100 ms, first cycle 25 ms, interval 5 s → 250 ms. */
export const SCALE = 0.05;
/** A killed worker's jobs are found stalled within about 3 s. */
export const FAST_STALL = { JOB_LOCK_DURATION_MS: "2000", JOB_STALLED_INTERVAL_MS: "1000", WORKER_HEARTBEAT_MS: "500" };

export function automationTestbed() {
  let sim: Simulator;
  const children: WorkerChild[] = [];
  /** The simulator keeps its latest 500 requests; long tests collect them as they come. */
  const seen = new Set<RequestRecord>();
  const collect = () => servicesState(sim.world).recent.forEach((r) => seen.add(r));

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
    process.env.COLLECTIONS_TIME_SCALE = String(SCALE);
    resetEnv();
  });
  beforeEach(() => {
    sim.world.reset();
    sim.world.faults.latencyMs = 0;
    resetServicesFigures(sim.world);
    seen.clear();
  });
  afterEach(() => {
    for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
  });
  afterAll(async () => {
    await closeLive();
    await sim.close();
    await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
  });

  const bed = {
    get sim() {
      return sim;
    },
    children,
    /** A worker process (`node --import tsx jobs/worker.ts`) with the test timings plus `env`. */
    start(env: Record<string, string> = {}) {
      const w = spawnWorker({ ...FAST_STALL, COLLECTIONS_TIME_SCALE: String(SCALE), GALAXY_SERVICES_URL: sim.servicesUrl, ...env });
      children.push(w);
      return w;
    },
    /** The instance ids of the pieces of `set` the account holds now. */
    pieces(id: string, set = 178) {
      return inventoryOf(sim.world, id)
        .filter((i) => i.goodsId !== undefined && Math.floor(i.goodsId / 1000) === set)
        .map((i) => i.goodId);
    },
    collect,
    /** The account's platform requests since the test began, oldest first. */
    requestsOf(id: string) {
      collect();
      return [...seen].filter((r) => r.userID === id);
    },
    /** The gift ids in `present_make` requests. */
    sentIds(records: RequestRecord[]) {
      return records
        .filter((r) => r.action === "present_make")
        .flatMap((r) => Object.keys(r.params).flatMap((k) => /^checked_items\[(\d+)\]$/.exec(k)?.[1] ?? []))
        .map(Number);
    },
    /** An operator logged in to the Collections screen as `sender`, recipient set. */
    async setup(senderIndex: number, recipientIndex: number, name?: string) {
      const sender = sim.world.accounts[senderIndex]!;
      const recipient = sim.world.accounts[recipientIndex]!;
      const op = await createTestOperator(name ? { name } : undefined);
      const profile = await saveProfile(op.id, { accountId: sender.id, nick: sender.nick, password: sender.password, loginMethod: "recovery" });
      await updateState(op.id, { profileId: profile.id, collectionId: 178, recipientId: recipient.id });
      return { op, sender, recipient };
    },
    /** Waits until the operator's Auto is off (finished, stopped or failed). */
    async finished(operatorId: string, output: () => string, timeoutMs = 60_000) {
      await waitFor(
        `Auto to finish\n${output()}`,
        async () => {
          collect();
          const s = await getState(operatorId);
          return !s.auto && s.autoChain === null;
        },
        timeoutMs,
        100,
      );
    },
  };
  return bed;
}
