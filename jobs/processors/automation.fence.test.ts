/**
 * An Auto cycle whose worker is cut off from Redis in the middle of its send (issue 29 items 1
 * and 3; decision 0028): the cut-off worker stops before its next platform call once it cannot
 * prove the job's lock, another worker continues the cycle (the lock setting of sessions, not the
 * engine-wide 30 s), says so once in the Activity Log, and no gift moves twice. Worker A reaches
 * Redis through a proxy this test cuts (nothing closed: a partition); the simulator answers
 * slowly while the cycle sends, so the cut lands mid-send.
 */
import { and, eq, gte } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS_TEXTS as T } from "#api/collections";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { startAuto } from "~/models/automation.server";
import { getState, listActivity } from "~/models/collections.server";
import { getEnv } from "~/utils/env.server";
import { startPartitionProxy, type PartitionProxy } from "../test-partition";
import { waitFor } from "../test-helpers";
import { automationTestbed } from "./automation-test-kit";

const bed = automationTestbed();
const { start, pieces, requestsOf, sentIds, setup, finished } = bed;
const LOCK = { SESSION_LOCK_DURATION_MS: "3000", SESSION_STALLED_INTERVAL_MS: "1000" };

let proxy: PartitionProxy;
beforeAll(async () => {
  const redis = new URL(getEnv().REDIS_URL);
  proxy = await startPartitionProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
});
afterAll(async () => {
  await proxy?.close();
});

const ready = (w: { output: () => string }) => waitFor(`worker ready\n${w.output()}`, () => /\[jobs\] worker (\S+) processing/.exec(w.output())?.[1], 30_000);

describe("an Auto cycle whose worker is cut off mid-send (issue 29)", () => {
  it("continues on another worker, says so once, and sends every gift once", async () => {
    const { op, sender, recipient } = await setup(8, 11, "cut-off-cycle");
    const stock = pieces(sender.id);
    expect(stock.length).toBeGreaterThan(50); // two send chunks
    const recipientBefore = pieces(recipient.id);
    const since = new Date();

    const a = start({ ...LOCK, REDIS_URL: proxy.url });
    const aId = await ready(a);
    await startAuto(op.id, { repeat: 1, intervalSeconds: 5 });
    await waitFor("the cycle began on A", async () => (await getState(op.id)).autoStep !== null, 20_000, 50);
    // Slow platform answers from now on: the send step spans seconds, so the cut lands inside it.
    bed.sim.world.faults.latencyMs = 1_500;
    const b = start(LOCK);
    await ready(b);
    await waitFor("A sending", async () => (await getState(op.id)).autoStep === "send", 30_000, 50);

    proxy.cut();
    try {
      // The platform stays slow until B has taken the cycle back: for a moment after the cut A
      // can still prove its lock, and on a loaded machine a fast platform let it finish every
      // send within that moment (then there was nothing to take back, and no line to check).
      await waitFor(
        "B took the cycle back",
        async () => (await listActivity(op.id, 50)).some((e) => e.message === `Cycle 1 of 1: ${T.workerLost}`),
        45_000,
        100,
      ).finally(() => {
        bed.sim.world.faults.latencyMs = 0;
      });
      await finished(op.id, () => `${a.output()}\n---\n${b.output()}`, 60_000);
    } finally {
      proxy.heal();
    }

    const lines = (await listActivity(op.id, 50)).map((e) => e.message);
    expect(lines.filter((m) => m === `Cycle 1 of 1: ${T.workerLost}`)).toHaveLength(1);
    expect(lines, lines.join("\n")).toContain("Cycle 1 of 1: cycle completed");
    // Every piece moved once: none sent twice, none left behind.
    const sent = sentIds(requestsOf(sender.id));
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent.length).toBeGreaterThanOrEqual(stock.length); // the stock, plus what mastic made
    expect(pieces(sender.id)).toEqual([]);
    expect(pieces(recipient.id).sort()).toEqual([...recipientBefore, ...sent].sort());
    // The send lines add up to what moved: none written twice.
    const sends = lines.filter((m) => m.startsWith("Sent "));
    expect(sends.reduce((n, m) => n + Number(/^Sent (\d+)/.exec(m)![1]), 0)).toBe(sent.length);
    // The worker that took the cycle back does not claim its holder stopped: it may have been cut off.
    const systemLogs = async () =>
      (await getDb())
        .select()
        .from(logs)
        .where(and(eq(logs.source, "system"), gte(logs.timestamp, since)));
    const movedIn = (rows: Awaited<ReturnType<typeof systemLogs>>) =>
      rows.filter((r) => r.message.includes("automation") && / lost (its|their) worker/.test(r.message));
    // B writes its entry once the burst of stalled jobs closes (2 s, jobs/worker-log.server.ts):
    // the cycle can finish before that.
    await waitFor("B's System Logs entry", async () => movedIn(await systemLogs()).length > 0, 15_000, 100);
    await new Promise((r) => setTimeout(r, 2_500)); // a second entry would come within one more burst
    const stalled = await systemLogs();
    const moved = movedIn(stalled);
    expect(moved.map((r) => r.message)).toEqual([expect.stringMatching(/cut off from Redis/)]);
    expect(stalled.some((r) => /stalled \(its worker stopped\)/.test(r.message))).toBe(false);
    expect(aId).toBeTruthy();
  }, 120_000);
});
