/**
 * One Collections automation cycle (spec 2 §4 "Automation"; docs/collections.md):
 *
 *   mastic (16 requests) → 2 s → status → 2 s → send the set's gifts in stock (if any) → 2 s →
 *   status → "cycle completed" → the next cycle after the interval, until the run counter
 *   reaches the repeat count (0 = infinite).
 *
 * Exactly-once (jobs/once.server.ts): BullMQ may run a cycle job twice (a worker SIGKILLed
 * mid-cycle leaves it stalled; the next worker runs it again). Every effect is a step keyed by
 * the job: the mastic run and each send chunk are two-phase external steps, and the list of
 * gifts a cycle sends is fixed once (a `runStepOnce` plan). A re-run skips steps that are done;
 * a send whose outcome is unknown (the worker died around the call) is reconciled with the
 * platform: the ids that left the inventory were sent and are never sent again; only ids
 * still held are sent. Turning Auto off (another chain in the state row) stops the cycle
 * after its current step.
 */
import type { Job } from "bullmq";
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { collectionsActivity, collectionsState, jobSteps } from "~/db/schema";
import { COLLECTIONS_LIMITS, COLLECTIONS_TEXTS as T, type CollectionSetId } from "#api/collections";
import { ClayError, collectionStatus, collectionsTimings, giftInventory, heldOf, runMasticRequests } from "~/models/clay.server";
import { addActivity, finishActivity, getState, ownedProfileCredentials, storeItems, updateState } from "~/models/collections.server";
import { cycleJobId } from "~/models/automation.server";
import { getGalaxyServices, type GalaxyCredentials } from "~/galaxy/services.server";
import { beginExternalStep, finishExternalStep, runStepOnce, stepKey } from "../once.server";
import { enqueue, type AutomationJob } from "../queues.server";

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Test-only fault injection (NODE_ENV=test): SIGKILL the worker around a send call. */
function crashPoint(where: "before-send" | "after-send") {
  if (process.env.NODE_ENV === "test" && process.env.COLLECTIONS_TEST_CRASH === where) process.kill(process.pid, "SIGKILL");
}

export type CycleResult = { run: number; stopped?: string; sent: number; next: string | null };

export async function processAutomationJob(job: Job<AutomationJob>): Promise<CycleResult> {
  try {
    return await runCycle(job);
  } catch (err) {
    // An unexpected failure (database, Redis) is retried; after the last attempt Auto stops visibly.
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (last) {
      const p = job.data;
      const s = await getState(p.operatorId).catch(() => null);
      if (s?.autoChain === p.chain) {
        await updateState(p.operatorId, { auto: false, autoChain: null, autoStep: null }).catch(() => {});
        await addActivity(p.operatorId, "error", `Auto stopped: cycle ${p.run} failed (${err instanceof Error ? err.message : String(err)})`).catch(() => {});
      }
    }
    throw err;
  }
}

async function runCycle(job: Job<AutomationJob>): Promise<CycleResult> {
  const p = job.data;
  const t = collectionsTimings();
  const key = (step: string) => stepKey(job, step);
  const live = async () => {
    const s = await getState(p.operatorId);
    return s.auto && s.autoChain === p.chain;
  };
  if (!(await live())) return { run: p.run, stopped: "auto off", sent: 0, next: null };

  const stored = await credentialsOfJob(p);
  if (!stored) {
    await updateState(p.operatorId, { auto: false, autoChain: null, autoStep: null });
    await addActivity(p.operatorId, "error", `Auto stopped: ${T.noProfile}`);
    return { run: p.run, stopped: "no profile", sent: 0, next: null };
  }
  const creds: GalaxyCredentials = { userID: stored.userID, password: stored.password };
  const set = p.collectionId as CollectionSetId;
  const of = p.repeat === 0 ? "∞" : String(p.repeat);

  // The run counter and this cycle's in-progress entry (once per cycle, also across re-runs).
  const entry = await runStepOnce(key("begin"), async (tx) => {
    await tx.update(collectionsState).set({ runCount: p.run, autoStep: "mastic", updatedAt: new Date() }).where(eq(collectionsState.operatorId, p.operatorId));
    const [row] = await tx
      .insert(collectionsActivity)
      .values({ operatorId: p.operatorId, status: "in-progress", message: `Cycle ${p.run} of ${of}: running mastic` })
      .returning({ id: collectionsActivity.id });
    return row!.id;
  });
  const progress = (text: string) => finishActivity(entry, "in-progress", `Cycle ${p.run} of ${of}: ${text}`);
  const stopAfter = async (step: string): Promise<CycleResult | null> => {
    if (await live()) return null;
    await finishActivity(entry, "success", `Cycle ${p.run} stopped after ${step} (Auto off)`);
    return { run: p.run, stopped: `after ${step}`, sent: 0, next: null };
  };
  const errors: string[] = [];
  const attempt = async <R>(fn: () => Promise<R>): Promise<R | null> => {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ClayError)) throw err; // unexpected: the job is retried, done steps are skipped
      errors.push(err.message);
      await addActivity(p.operatorId, "error", `Cycle ${p.run}: ${err.message}`);
      return null;
    }
  };

  // 1. Mastic (an external effect: never repeated by a re-run).
  const mastic = await beginExternalStep(key("mastic"));
  if (mastic.state === "run") {
    const out = await attempt(() => runMasticRequests(creds, set, COLLECTIONS_LIMITS.masticRequests));
    await finishExternalStep(key("mastic"), out ? { succeeded: out.succeeded } : { failed: true });
  } else if (mastic.state === "unknown") {
    // The worker died during the run: some requests may have been made; do not repeat them.
    await finishExternalStep(key("mastic"), { interrupted: true });
  }
  await sleep(t.stepWaitMs);
  let stop = await stopAfter("mastic");
  if (stop) return stop;

  // 2. Status.
  await updateState(p.operatorId, { autoStep: "status" });
  await progress("reading collection status");
  const first = await attempt(() => collectionStatus(creds, set, { skipCache: true }));
  if (first) await storeItems(p.operatorId, set, first);
  await sleep(t.stepWaitMs);
  stop = await stopAfter("status");
  if (stop) return stop;

  // 3. Send the set's gifts in stock, if any: the list is fixed once per cycle.
  await updateState(p.operatorId, { autoStep: "send" });
  await progress("sending gifts");
  // The platform read is made outside any transaction (the services client reads the database
  // itself: a transaction held across it deadlocks the embedded one-connection database); the
  // plan is then fixed once, and a re-run uses the stored one.
  const planKey = key("send-plan");
  const plan =
    (await storedPlan(planKey)) ??
    (await attempt(async () => {
      const ids = await giftInventory(creds, set);
      return runStepOnce(planKey, async () => ids);
    }));
  let sent = 0;
  if (plan && plan.length) {
    for (let i = 0, chunkNo = 0; i < plan.length; i += COLLECTIONS_LIMITS.sendChunk, chunkNo++) {
      const chunk = plan.slice(i, i + COLLECTIONS_LIMITS.sendChunk);
      const n = await attempt(() => sendChunkOnce(key(`send-${chunkNo}`), creds, p.recipientId, chunk, chunkNo > 0 ? t.sendChunkGapMs : 0));
      if (n === null) break;
      sent += n;
    }
    if (sent > 0) await addActivity(p.operatorId, "success", T.sent(sent, p.recipientId));
  }
  await updateState(p.operatorId, { giftIds: (await attempt(() => giftInventory(creds, set))) ?? [], giftsAt: new Date() });
  await sleep(t.stepWaitMs);
  stop = await stopAfter("send");
  if (stop) return { ...stop, sent };

  // 4. Status again, then "cycle completed".
  await updateState(p.operatorId, { autoStep: "status-again" });
  await progress("reading collection status");
  const second = await attempt(() => collectionStatus(creds, set, { skipCache: true }));
  if (second) await storeItems(p.operatorId, set, second);

  await finishActivity(
    entry,
    errors.length ? "error" : "success",
    `Cycle ${p.run} of ${of}: ${T.cycleCompleted}${errors.length ? ` (${errors.join("; ")})` : ""}`,
  );

  // 5. The next cycle, or the end of the run.
  if (!(await live())) return { run: p.run, stopped: "auto off", sent, next: null };
  if (p.repeat !== 0 && p.run >= p.repeat) {
    await updateState(p.operatorId, { auto: false, autoChain: null, autoStep: null });
    await addActivity(p.operatorId, "success", `Auto finished: ${p.run} of ${p.repeat} cycles`);
    return { run: p.run, sent, next: null };
  }
  const nextId = cycleJobId(p.chain, p.run + 1);
  await updateState(p.operatorId, { autoStep: "waiting" });
  // Idempotent job id: a re-run of this cycle adds nothing.
  await enqueue("automation", { ...p, run: p.run + 1 }, { jobId: nextId, delay: p.intervalSeconds * t.secondMs });
  return { run: p.run, sent, next: nextId };
}

/**
 * Whose credentials act (issue 21 item 4; docs/decisions/0018): a cycle acts only with a saved
 * profile of the operator it runs for. A job naming another operator's profile (added by hand
 * on the queue board, or a stale chain) finds none and stops like a deleted profile would.
 */
function credentialsOfJob(p: AutomationJob) {
  return ownedProfileCredentials(p.operatorId, p.profileId);
}

/** The gift list a cycle fixed before (a re-run), or null. */
async function storedPlan(key: string): Promise<string[] | null> {
  const db = await getDb();
  const [row] = await db.select({ state: jobSteps.state, result: jobSteps.result }).from(jobSteps).where(eq(jobSteps.key, key));
  return row?.state === "done" && Array.isArray(row.result) ? (row.result as string[]) : null;
}

/**
 * One send chunk, exactly once. A first run records the intent, sends, and marks it done. A
 * re-run finding the intent without "done" reconciles: ids no longer held were sent (never
 * sent again); the ids still held are sent now.
 */
async function sendChunkOnce(stepKeyText: string, creds: GalaxyCredentials, recipientId: string, ids: string[], gapMs: number): Promise<number> {
  const step = await beginExternalStep(stepKeyText);
  if (step.state === "done") return Number((step.result as { sent?: number } | null)?.sent ?? 0);
  let toSend = ids;
  if (step.state === "unknown") {
    toSend = await heldOf(creds, ids);
    if (!toSend.length) {
      await finishExternalStep(stepKeyText, { sent: ids.length, reconciled: true });
      return ids.length;
    }
  } else {
    // Not held any more (e.g. sent by hand meanwhile): nothing to do for those.
    toSend = await heldOf(creds, ids);
  }
  if (!toSend.length) {
    await finishExternalStep(stepKeyText, { sent: 0 });
    return 0;
  }
  if (gapMs) await sleep(gapMs);
  crashPoint("before-send");
  try {
    await getGalaxyServices().sendGifts(creds, recipientId, toSend);
  } catch (err) {
    // Refused by the platform: nothing moved, but keep the intent so a re-run reconciles.
    throw new ClayError(502, `${T.sendFailed}: ${err instanceof Error ? err.message : String(err)}`);
  }
  crashPoint("after-send");
  await finishExternalStep(stepKeyText, { sent: toSend.length });
  return toSend.length;
}
