/**
 * Fencing (issue 29 item 2; decision 0028): a worker cut off from Redis lets its sessions go
 * before its locks lapse, so the worker that takes them over never makes the platform kick an
 * account. Two real worker processes; worker A reaches Redis through a proxy this test cuts
 * (packets held, nothing closed: a partition, not a refusal), the simulator in this process
 * counts logins, QUITs and kicks (950 on a takeover).
 */
import { and, eq, gte, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { getStalkerStatus, startStalker, stopStalker, type StalkerStatus } from "~/models/stalker.server";
import { upsertUser } from "~/models/user.server";
import { getEnv } from "~/utils/env.server";
import { startPartitionProxy, type PartitionProxy } from "./test-partition";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "./test-helpers";

let sim: Simulator;
let proxy: PartitionProxy;
const children: WorkerChild[] = [];

const FAST = {
  SESSION_LOCK_DURATION_MS: "3000",
  SESSION_STALLED_INTERVAL_MS: "1000",
  SESSION_POLL_MS: "500",
  SESSION_RECONCILE_MS: "2000",
  SESSION_HOST_BEAT_MS: "300",
  WORKER_HEARTBEAT_MS: "500",
};

async function worker(env: Record<string, string> = {}): Promise<WorkerChild & { id: string }> {
  const w = spawnWorker({ ...FAST, GALAXY_WS_URL: sim.wsUrl, STALKER_TIME_SCALE: "0.25", ...env });
  children.push(w);
  const id = await waitFor(`worker ready\n${w.output()}`, () => /\[jobs\] worker (\S+) processing/.exec(w.output())?.[1], 30_000);
  return Object.assign(w, { id });
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  const redis = new URL(getEnv().REDIS_URL);
  proxy = await startPartitionProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
});
afterEach(() => {
  proxy.heal();
  for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
});
afterAll(async () => {
  await proxy?.close();
  await sim?.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

async function stalkerAccounts(n: number) {
  const accounts = sim.world.accounts.filter((a) => a.kind === "stalker").slice(0, n);
  for (const a of accounts) await upsertUser({ accountId: a.id, nick: a.nick, password: a.password, type: "stalker" });
  return accounts;
}
async function statuses(ids: string[]): Promise<StalkerStatus[]> {
  return Promise.all(ids.map(async (id) => (await getStalkerStatus(id))!));
}
async function allActiveOn(ids: string[], workerId: string, timeoutMs = 30_000) {
  return waitFor(
    `all active on ${workerId}: ${JSON.stringify(await statuses(ids))}`,
    async () => {
      const s = await statuses(ids);
      return s.every((x) => x.state === "active" && x.holder === workerId && sim.sockets.sessions(x.accountId).length === 1) ? s : false;
    },
    timeoutMs,
    100,
  );
}

describe("fencing: a worker cut off from Redis lets go first (issue 29 item 2)", () => {
  it("its sessions close (QUIT :ds) before the other worker logs them in: no kick, and nothing taken back after the heal", async () => {
    const accounts = await stalkerAccounts(4);
    const ids = accounts.map((a) => a.id);
    const a = await worker({ REDIS_URL: proxy.url });
    for (const id of ids) await startStalker(id);
    await allActiveOn(ids, a.id);
    const b = await worker();
    const kicksBefore = sim.sockets.kicks.length;
    const cutAt = new Date();

    proxy.cut();
    await allActiveOn(ids, b.id, 20_000);

    // Not one account was kicked: every login of B found the account offline.
    expect(sim.sockets.kicks.slice(kicksBefore)).toEqual([]);
    for (const id of ids) {
      const theirs = sim.sockets.sessions(id)[0]!;
      const ours = sim.sockets.closed.filter((c) => c.accountId === id && new Date(c.openedAt) < cutAt);
      expect(ours, `A's connection of ${id}`).toHaveLength(1);
      // A said goodbye itself (QUIT :ds) — it was still reaching the platform — before B logged in.
      expect(ours[0]!.quit).toBe("ds");
      expect(new Date(ours[0]!.closedAt!).getTime()).toBeLessThanOrEqual(theirs.openedAt.getTime());
    }

    proxy.heal();
    // After the heal A hears its locks are gone; it says so in one System Logs entry, and
    // resumes nothing: the sessions stay on B, one socket each, no kick.
    const entries = await waitFor(
      `A's lock entry\n${a.output().slice(-3000)}`,
      async () => {
        const rows = await (
          await getDb()
        )
          .select()
          .from(logs)
          .where(and(eq(logs.source, "system"), gte(logs.timestamp, cutAt), sql`${logs.details}->>'worker' = ${a.id}`));
        return rows.some((r) => r.message.includes("lost the lock")) ? rows : false;
      },
      30_000,
      200,
    );
    expect(entries.filter((r) => /lock/i.test(r.message)).length).toBeLessThanOrEqual(2);
    expect(entries.find((r) => r.message.includes("lost the lock"))!.message).toMatch(/cut off/);
    await allActiveOn(ids, b.id, 5_000);
    expect(sim.sockets.kicks.slice(kicksBefore)).toEqual([]);
    for (const id of ids) await stopStalker(id);
  }, 120_000);
});
