/**
 * Exactly-once job steps (issue 7, finding 8): runStepOnce and the two-phase helpers for
 * platform calls, against this test file's real PostgreSQL database.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { jobSteps, logs } from "~/db/schema";
import { logEvent } from "~/models/log.server";
import { beginExternalStep, finishExternalStep, releaseExternalStep, runStepOnce, stepKey } from "./once.server";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function logRows(message: string) {
  const db = await getDb();
  return db.select().from(logs).where(eq(logs.message, message));
}

beforeEach(async () => {
  const db = await getDb();
  await db.delete(jobSteps);
});

describe("stepKey", () => {
  it("names queue, job id, the job's creation time and the step", () => {
    expect(stepKey({ queueName: "automation", id: "cycle-1", timestamp: 1700000000123 }, "send-gift-3")).toBe("automation:cycle-1@1700000000123:send-gift-3");
    expect(() => stepKey({ queueName: "system", id: undefined, timestamp: 1 }, "x")).toThrow(/no id/);
  });
});

describe("runStepOnce: the key and the effect commit in one transaction", () => {
  it("runs the effect once and hands the stored result back afterwards", async () => {
    let runs = 0;
    const effect = async () => {
      runs++;
      return { sent: 3, at: "2024-05-01T10:00:00.000Z" };
    };
    expect(await runStepOnce("t:job@1:a", effect)).toEqual({ sent: 3, at: "2024-05-01T10:00:00.000Z" });
    expect(await runStepOnce("t:job@1:a", effect)).toEqual({ sent: 3, at: "2024-05-01T10:00:00.000Z" });
    expect(runs).toBe(1);
    const db = await getDb();
    const [row] = await db.select().from(jobSteps).where(eq(jobSteps.key, "t:job@1:a"));
    expect(row).toMatchObject({ state: "done", result: { sent: 3 } });
    expect(row.doneAt).toBeInstanceOf(Date);
  });

  it("two concurrent calls with the same key (two parallel transactions) run the effect once; both get its result", async () => {
    let runs = 0;
    let inEffect = 0;
    let overlapped = false;
    const effect = async (tx: Parameters<Parameters<typeof runStepOnce>[1]>[0]) => {
      runs++;
      inEffect++;
      await logEvent({ type: "debug", source: "system", message: "concurrent effect" }, tx);
      // Hold the transaction open long enough for the other call to reach the key.
      await sleep(300);
      overlapped ||= inEffect > 1;
      inEffect--;
      return { run: runs };
    };
    const both = await Promise.all([runStepOnce("t:job@1:race", effect), runStepOnce("t:job@1:race", effect)]);
    expect(both).toEqual([{ run: 1 }, { run: 1 }]);
    expect(runs).toBe(1);
    expect(overlapped).toBe(false);
    expect(await logRows("concurrent effect")).toHaveLength(1);
  });

  it("an effect that throws keeps nothing (neither its writes nor the key), so the retry runs it", async () => {
    await expect(
      runStepOnce("t:job@1:fail", async (tx) => {
        await logEvent({ type: "debug", source: "system", message: "half-done effect" }, tx);
        throw new Error("platform said no");
      }),
    ).rejects.toThrow("platform said no");
    expect(await logRows("half-done effect")).toHaveLength(0);
    const db = await getDb();
    expect(await db.select().from(jobSteps).where(eq(jobSteps.key, "t:job@1:fail"))).toHaveLength(0);

    let runs = 0;
    expect(await runStepOnce("t:job@1:fail", async () => ++runs)).toBe(1);
    expect(runs).toBe(1);
  });

  it("an effect without a result is still done once (stored as null)", async () => {
    let runs = 0;
    expect(await runStepOnce("t:job@1:void", async () => void runs++)).toBeNull();
    expect(await runStepOnce("t:job@1:void", async () => void runs++)).toBeNull();
    expect(runs).toBe(1);
  });

  it("refuses a key that belongs to a two-phase step in progress", async () => {
    expect(await beginExternalStep("t:job@1:mixed")).toEqual({ state: "run" });
    let runs = 0;
    await expect(runStepOnce("t:job@1:mixed", async () => ++runs)).rejects.toThrow(/two-phase step/);
    expect(runs).toBe(0);
  });
});

describe("two-phase steps for platform calls (beginExternalStep / finishExternalStep)", () => {
  it("run → done: the intent is committed before the call, the result after it", async () => {
    expect(await beginExternalStep("t:job@1:gift")).toEqual({ state: "run" });
    const db = await getDb();
    // Committed already: another connection sees the intent while the call is in flight.
    const [intent] = await db.select().from(jobSteps).where(eq(jobSteps.key, "t:job@1:gift"));
    expect(intent).toMatchObject({ state: "started", result: null, doneAt: null });

    await finishExternalStep("t:job@1:gift", { giftId: 77 });
    const again = await beginExternalStep("t:job@1:gift");
    expect(again).toMatchObject({ state: "done", result: { giftId: 77 } });
    expect(again.state === "done" && again.doneAt).toBeInstanceOf(Date);
  });

  it("a run that died after recording the intent leaves the outcome unknown: the next run must reconcile", async () => {
    expect(await beginExternalStep("t:job@1:gift")).toEqual({ state: "run" });
    // …the worker dies here, before or after the platform call…
    const next = await beginExternalStep("t:job@1:gift");
    expect(next).toMatchObject({ state: "unknown", startedAt: expect.any(Date) });
    // It stays unknown until reconciliation decides.
    expect((await beginExternalStep("t:job@1:gift")).state).toBe("unknown");

    // Reconciliation found the gift in the recipient's inventory: record it as done.
    await finishExternalStep("t:job@1:gift", { reconciled: true });
    expect(await beginExternalStep("t:job@1:gift")).toMatchObject({ state: "done", result: { reconciled: true } });
  });

  it("releaseExternalStep drops an intent whose call certainly did not happen, so the next run makes it", async () => {
    expect((await beginExternalStep("t:job@1:gift")).state).toBe("run");
    await releaseExternalStep("t:job@1:gift");
    expect((await beginExternalStep("t:job@1:gift")).state).toBe("run");
    await finishExternalStep("t:job@1:gift", { ok: true });
    await expect(releaseExternalStep("t:job@1:gift")).rejects.toThrow(/is done/);
    expect((await beginExternalStep("t:job@1:gift")).state).toBe("done");
  });

  it("finishing twice keeps the first result; finishing a step never begun is an error", async () => {
    await beginExternalStep("t:job@1:gift");
    await finishExternalStep("t:job@1:gift", { first: true });
    await finishExternalStep("t:job@1:gift", { second: true });
    expect(await beginExternalStep("t:job@1:gift")).toMatchObject({ state: "done", result: { first: true } });
    await expect(finishExternalStep("t:job@1:never", {})).rejects.toThrow(/call beginExternalStep first/);
  });

  it("concurrent begins with the same key: exactly one may make the call", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => beginExternalStep("t:job@1:gift")));
    expect(results.filter((r) => r.state === "run")).toHaveLength(1);
    expect(results.filter((r) => r.state === "unknown")).toHaveLength(5);
  });
});
