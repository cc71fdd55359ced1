/**
 * One Collections automation cycle (spec 2 §4 "Automation"; docs/collections.md):
 *
 *   mastic (16 requests) → 2 s → status → 2 s → send the set's gifts in stock (if any) → 2 s →
 *   status → "cycle completed" → the next cycle after the interval, until the run counter
 *   reaches the repeat count (0 = infinite).
 *
 * Exactly once (app/models/once.server.ts; docs/jobs.md "Exactly-once effects"). BullMQ may run a
 * cycle job again (a worker SIGKILLed mid-cycle leaves it stalled; the next worker runs it).
 * Every effect is a step keyed by the job:
 * - the mastic run and each send chunk are two-phase external steps; the gifts a cycle sends
 *   are fixed once (the `send-plan` step). A send whose outcome is unknown is reconciled with
 *   the platform (ids that left the inventory were sent and are never sent again);
 * - every Activity Log line and state change the cycle writes is a `runStepOnce` step written
 *   through its transaction: `start-<step>` (run counter, current step, progress text),
 *   `done-<step>` (the step's outcome: its error entry, "Sent n gifts to user {id}", the grid),
 *   `complete`, `stopped`, `failed`. A re-run reads what is done and carries on from there, so
 *   no line is written twice and none is lost, wherever the worker died.
 *
 * A worker cut off from Redis (or stalled) stops before its next platform call once it cannot
 * prove the job's lock (jobs/fence.server.ts, decision 0028); the worker that takes the job
 * back says so once on the Activity Log ("worker lost or cut off; continuing on another
 * worker") and carries on from the steps above.
 *
 * Auto off (another chain, or none, in the state row) stops the cycle at its next step
 * boundary: after a step, during the wait that follows it, or (a re-run) before the next
 * step. A step under way finishes (a send call is never cut). The cycle then writes "Cycle n
 * stopped after <step> (Auto off)" once and nothing more.
 */
import { alertAutoCycle } from "~/models/alert.server";
import type { Job } from "bullmq";
import fs from "node:fs";
import path from "node:path";
import { COLLECTIONS_LIMITS, COLLECTIONS_TEXTS as T, type ActivityStatus, type CollectionSetId } from "#api/collections";
import { collectionStatus, giftInventory, heldOf, runMasticRequests } from "~/platform/clay.server";
import { collectionsTimings } from "~/models/clay.server";
import { addActivity, collectionsChanged, finishActivity, ownedProfileCredentials, storeItems, updateState } from "~/models/collections.server";
import { autoChainLive, cycleJobId, lockLiveChain, stopLiveChain } from "~/models/automation.server";
import type { GalaxyCredentials } from "~/galaxy/services.server";
import { getGalaxyServices } from "~/platform/galaxy-services.server";
import { errorText } from "~/utils/errors";
import { assertLockProven, LockLetGoError } from "../fence.server";
import { isWorkerClosing } from "../closing.server";
import { pause } from "~/utils/pause";
import { beginExternalStep, doneStepResult, finishExternalStep, runStepOnce, stepKey } from "../../app/models/once.server";
import { enqueue, type AutomationJob } from "../../app/queue/queues.server";
import { countOf } from "~/utils/plural";
import { AppError } from "~/utils/app-error";

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/** How often a wait between steps looks whether Auto was turned off. */
const OFF_CHECK_MS = 250;

/**
 * Test-only fault injection (NODE_ENV=test): the worker SIGKILLs itself at a point of the
 * cycle. `COLLECTIONS_TEST_CRASH` lists points, each optionally for one send chunk (0-based)
 * and one account (`after-mastic@12345678,before-send:1`). With `COLLECTIONS_TEST_CRASH_DIR`
 * each listed point fires once across all worker processes (a marker file claims it), so a
 * test can keep replacing killed workers until the cycles end.
 */
export type CrashPoint = "before-mastic" | "after-mastic" | "before-send" | "after-send" | "after-send-log" | "after-complete";
function crashPoint(where: CrashPoint, accountId: string, chunkNo?: number) {
  if (process.env.NODE_ENV !== "test" || !process.env.COLLECTIONS_TEST_CRASH) return;
  for (const raw of process.env.COLLECTIONS_TEST_CRASH.split(",")) {
    const spec = raw.trim();
    const [pointAndChunk = "", account] = spec.split("@");
    const [point, chunk] = pointAndChunk.split(":");
    if (point !== where || (account && account !== accountId) || (chunk !== undefined && Number(chunk) !== chunkNo)) continue;
    const dir = process.env.COLLECTIONS_TEST_CRASH_DIR;
    if (dir) {
      try {
        fs.writeFileSync(path.join(dir, spec), String(process.pid), { flag: "wx" });
      } catch {
        continue; // fired already
      }
    }
    process.kill(process.pid, "SIGKILL");
  }
}

export type CycleResult = { run: number; stopped?: string; sent: number; next: string | null };

/** The cycle's steps, in order; the names are those of "Cycle n stopped after <step> (Auto off)". */
const STEPS = ["mastic", "status", "send", "status again"] as const;
type StepName = (typeof STEPS)[number];
/** `collections_state.auto_step` while a step runs (the screen shows it next to the run counter). */
const STATE_STEP: Record<StepName, string> = { mastic: "mastic", status: "status", send: "send", "status again": "status-again" };
/** The cycle entry's progress text while a step runs. */
const PROGRESS: Record<StepName, string> = {
  mastic: "running mastic",
  status: "reading collection status",
  send: "sending gifts",
  "status again": "reading collection status",
};
const slug = (step: StepName) => step.replace(" ", "-");

/** What a step's `done-<step>` record keeps: its error, and for the send the count sent. */
type StepOutcome = { error?: string; sent?: number };

export async function processAutomationJob(job: Job<AutomationJob>, token?: string, _signal?: AbortSignal, closing?: AbortSignal): Promise<CycleResult> {
  try {
    return await runCycle(job, token, closing);
  } catch (err) {
    // Let go (its lock unproven), or handed back by a closing worker (jobs/closing.server.ts):
    // another worker continues the cycle; Auto stays on.
    if (err instanceof LockLetGoError || isWorkerClosing(err)) throw err;
    // An unexpected failure (database, Redis, a password that cannot be decrypted) is retried
    // with done steps skipped; after the last attempt Auto stops, said once.
    if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await autoStoppedByFailure(job, err).catch(() => {});
    throw err;
  }
}

async function runCycle(job: Job<AutomationJob>, token: string | undefined, closing: AbortSignal | undefined): Promise<CycleResult> {
  const p = job.data;
  const t = collectionsTimings();
  const key = (step: string) => stepKey(job, step);
  const changed = () => collectionsChanged(p.operatorId);
  const off = async () => !(await autoChainLive(p.operatorId, p.chain));
  const of = p.repeat === 0 ? "∞" : String(p.repeat);
  const line = (text: string) => `Cycle ${p.run} of ${of}: ${text}`;

  // A re-run first reads how far earlier runs got.
  const [begun, stoppedBefore, failedBefore, completedBefore] = await Promise.all(
    ["begin", "stopped", "failed", "complete"].map((s) => doneStepResult<unknown>(key(s))),
  );
  if (stoppedBefore || failedBefore) return { run: p.run, stopped: "earlier run", sent: 0, next: null };
  if (!begun && (await off())) return { run: p.run, stopped: "auto off", sent: 0, next: null }; // never began: nothing to log

  const stored = await credentialsOfJob(p);
  if (!stored) {
    await runStepOnce(key("no-profile"), async (tx) => {
      if (await stopLiveChain(tx, p.operatorId, p.chain)) await addActivity(p.operatorId, "error", `Auto stopped: ${T.noProfile}`, tx);
    });
    changed();
    return { run: p.run, stopped: "no profile", sent: 0, next: null };
  }
  const creds: GalaxyCredentials = { userID: stored.userID, password: stored.password };
  const set = p.collectionId as CollectionSetId;

  // The run counter and this cycle's one entry; checked against Auto off in the same
  // transaction (the state row locked), so a cycle never begins after "Auto off".
  const entry = await runStepOnce(key("begin"), async (tx): Promise<number | null> => {
    if (!(await lockLiveChain(tx, p.operatorId, p.chain))) return null;
    await updateState(p.operatorId, { runCount: p.run }, tx);
    return addActivity(p.operatorId, "in-progress", line(PROGRESS.mastic), tx);
  });
  changed();
  if (entry === null) return { run: p.run, stopped: "auto off", sent: 0, next: null };

  // Taken back from a worker that stopped renewing its lock (it died, or was cut off and let
  // go): said once per cycle (a second loss of the same cycle adds nothing new for the
  // operator), on a cycle that had begun and not completed.
  if (begun && !completedBefore && job.stalledCounter > 0) {
    await runStepOnce(key("moved"), async (tx) => {
      await addActivity(p.operatorId, "error", line(T.workerLost), tx);
    });
    changed();
  }

  let lastDone: StepName | null = null;
  let sent = 0;
  const failed: StepName[] = [];

  /** "Cycle n stopped after <step> (Auto off)", once for the job; nothing is written after it. */
  const stop = async (): Promise<CycleResult> => {
    // A worker that cannot prove its lock writes nothing more: the cycle may be another's now,
    // and "Auto off" may be that other worker's completion of it (the last of its repeats).
    assertLockProven(token);
    const after = await runStepOnce(key("stopped"), async (tx) => {
      const text = lastDone ? `Cycle ${p.run} stopped after ${lastDone} (Auto off)` : `Cycle ${p.run} stopped before mastic (Auto off)`;
      await finishActivity(entry, "stopped", text, tx);
      return lastDone;
    });
    changed();
    return { run: p.run, stopped: after ? `after ${after}` : "before mastic", sent, next: null };
  };

  /**
   * The wait after a step; true as soon as Auto is off (checked at once, then every OFF_CHECK_MS).
   * A closing worker ends it at once: the cycle goes back to the queue and its re-run continues
   * after the step just done (jobs/closing.server.ts).
   */
  const waitUnlessOff = async (ms: number): Promise<boolean> => {
    const until = Date.now() + ms;
    for (;;) {
      if (await off()) return true;
      closing?.throwIfAborted();
      const left = until - Date.now();
      if (left <= 0) return false;
      await pause(Math.min(left, OFF_CHECK_MS), closing);
    }
  };

  if (!completedBefore) {
    for (const step of STEPS) {
      const doneKey = key(`done-${slug(step)}`);
      const done = await doneStepResult<StepOutcome>(doneKey);
      if (done) {
        // Done by an earlier run of this job: its lines are written; only the tally is needed.
        lastDone = step;
        if (done.result.error) failed.push(step);
        sent += done.result.sent ?? 0;
        continue;
      }
      if (await off()) return stop();
      closing?.throwIfAborted();
      assertLockProven(token);

      await runStepOnce(key(`start-${slug(step)}`), async (tx) => {
        await updateState(p.operatorId, { autoStep: STATE_STEP[step] }, tx);
        if (step !== "mastic") await finishActivity(entry, "in-progress", line(PROGRESS[step]), tx);
      });
      changed();

      const outcome = await runStep(step, { job, token, closing, creds, set, recipientId: p.recipientId });
      // The step's lines and its outcome, in one transaction with its key.
      await runStepOnce(doneKey, async (tx) => {
        if (outcome.items) await storeItems(p.operatorId, set, outcome.items, tx);
        if (outcome.giftIds) await updateState(p.operatorId, { giftIds: outcome.giftIds, giftsAt: new Date() }, tx);
        if (outcome.sent) await addActivity(p.operatorId, "success", T.sent(outcome.sent, p.recipientId), tx);
        if (outcome.error) await addActivity(p.operatorId, "error", `Cycle ${p.run} (${step}): ${outcome.error}`, tx);
        return { ...(outcome.error ? { error: outcome.error } : {}), ...(outcome.sent ? { sent: outcome.sent } : {}) } satisfies StepOutcome;
      });
      changed();
      if (step === "send") crashPoint("after-send-log", p.accountId);
      lastDone = step;
      if (outcome.error) failed.push(step);
      sent += outcome.sent ?? 0;

      // After the last status read the cycle is complete: Auto off then only stops the next one.
      if (step === "status again") break;
      if (await waitUnlessOff(t.stepWaitMs)) return stop();
    }
  }

  // "cycle completed" (an error entry naming the failed steps; their errors have entries of
  // their own), and at the repeat count the end of the run, in one transaction.
  const last = p.repeat !== 0 && p.run >= p.repeat;
  const { live } = await runStepOnce(key("complete"), async (tx) => {
    const status: ActivityStatus = failed.length ? "error" : "success";
    await finishActivity(entry, status, line(failed.length ? `${T.cycleCompleted} (failed: ${failed.join(", ")})` : T.cycleCompleted), tx);
    const stillOn = await lockLiveChain(tx, p.operatorId, p.chain);
    if (stillOn && last) {
      await updateState(p.operatorId, { auto: false, autoChain: null, autoStep: null }, tx);
      await addActivity(p.operatorId, "success", `Auto finished: ${p.run} of ${countOf(p.repeat, "cycles")}`, tx);
    } else if (stillOn) {
      await updateState(p.operatorId, { autoStep: "waiting" }, tx);
    }
    return { live: stillOn && !last };
  });
  if (!failed.length) await alertAutoCycle(p, null);
  changed();
  crashPoint("after-complete", p.accountId);

  // The next cycle. Its id is idempotent, so a re-run of this cycle adds nothing; Auto off
  // meanwhile removes it (or it finds its chain gone and ends without a line).
  if (!live || (await off())) return { run: p.run, sent, next: null };
  const nextId = cycleJobId(p.chain, p.run + 1);
  await enqueue("automation", { ...p, run: p.run + 1 }, { jobId: nextId, delay: p.intervalSeconds * t.secondMs });
  return { run: p.run, sent, next: nextId };
}

type StepRun = {
  job: Job<AutomationJob>;
  token: string | undefined;
  /** The worker is closing: mastic stops between requests, the send between chunks (jobs/closing.server.ts). */
  closing: AbortSignal | undefined;
  creds: GalaxyCredentials;
  set: CollectionSetId;
  recipientId: string;
};
type StepResult = {
  error?: string;
  sent?: number;
  items?: { firstRow: unknown[]; secondRow: unknown[] };
  giftIds?: string[];
};

/**
 * One step's platform work. A platform failure (AppError) is the step's outcome, written
 * once by the caller; anything else throws and the job is retried.
 */
async function runStep(step: StepName, r: StepRun): Promise<StepResult> {
  const accountId = r.creds.userID;
  const clay = async (fn: () => Promise<StepResult>): Promise<StepResult> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof AppError) return { error: err.message };
      throw err;
    }
  };
  switch (step) {
    case "mastic": {
      // An external effect: never repeated by a re-run.
      const k = stepKey(r.job, "mastic");
      const begun = await beginExternalStep(k);
      if (begun.state === "done") return (begun.result as StepResult | null) ?? {};
      if (begun.state === "unknown") {
        // The worker died during the run: some requests may have been made; do not repeat them.
        await finishExternalStep(k, { interrupted: true });
        return {};
      }
      crashPoint("before-mastic", accountId);
      assertLockProven(r.token);
      let out: StepResult;
      try {
        out = await clay(async () => {
          await runMasticRequests(r.creds, r.set, COLLECTIONS_LIMITS.masticRequests, r.closing ? { signal: r.closing } : {});
          return {};
        });
      } catch (err) {
        // A closing worker stopped it between two requests: done as far as it went (a re-run
        // never repeats mastic requests, as after a crash above).
        if (isWorkerClosing(err)) await finishExternalStep(k, { interrupted: true });
        throw err;
      }
      crashPoint("after-mastic", accountId);
      await finishExternalStep(k, out);
      return out;
    }
    case "status":
    case "status again":
      return clay(async () => ({ items: await collectionStatus(r.creds, r.set, { skipCache: true }) }));
    case "send": {
      // The gifts to send are fixed once per cycle. The platform read is made outside any
      // transaction (the services client reads the database itself: a transaction held across
      // it deadlocks the embedded one-connection database); a re-run uses the stored plan.
      const planKey = stepKey(r.job, "send-plan");
      let plan = (await doneStepResult<string[]>(planKey))?.result ?? null;
      if (!plan) {
        const read = await clay(async () => ({ giftIds: await giftInventory(r.creds, r.set) }));
        if (read.error) return read;
        const ids = read.giftIds!;
        plan = await runStepOnce(planKey, async () => ids);
      }
      let sent = 0;
      let error: string | undefined;
      for (let i = 0, chunkNo = 0; i < plan.length; i += COLLECTIONS_LIMITS.sendChunk, chunkNo++) {
        // Between chunks (never within one): the re-run skips the chunks sent and sends the rest.
        r.closing?.throwIfAborted();
        const chunk = plan.slice(i, i + COLLECTIONS_LIMITS.sendChunk);
        const out = await clay(async () => ({
          sent: await sendChunkOnce(stepKey(r.job, `send-${chunkNo}`), r.token, r.creds, r.recipientId, chunk, chunkNo),
        }));
        if (out.error) {
          error = out.error;
          break;
        }
        sent += out.sent ?? 0;
      }
      // What is left in stock, for "Send (n)". A failed read keeps the last known list: the
      // step's own outcome is what the log reports (its failure has a System Logs entry).
      const left = await giftInventory(r.creds, r.set).catch(() => undefined);
      return { sent, ...(error ? { error } : {}), ...(left ? { giftIds: left } : {}) };
    }
  }
}

/**
 * Whose credentials act (issue 21 item 4; docs/decisions/0018): a cycle acts only with a saved
 * profile of the operator it runs for. A job naming another operator's profile (added by hand
 * on the queue board, or a stale chain) finds none and stops like a deleted profile would.
 */
function credentialsOfJob(p: AutomationJob) {
  return ownedProfileCredentials(p.operatorId, p.profileId);
}

/**
 * After the last attempt: Auto off (if this chain is still the live one) and the failure said
 * once, on the cycle's own entry when it has one ("Auto stopped: cycle n failed (<reason>)").
 */
async function autoStoppedByFailure(job: Job<AutomationJob>, err: unknown) {
  const p = job.data;
  const entry = (await doneStepResult<number | null>(stepKey(job, "begin")))?.result ?? null;
  const reason = errorText(err);
  await runStepOnce(stepKey(job, "failed"), async (tx) => {
    const wasLive = await stopLiveChain(tx, p.operatorId, p.chain);
    const text = wasLive ? `Auto stopped: cycle ${p.run} failed (${reason})` : `Cycle ${p.run} failed (${reason})`;
    // The cycle's own entry, unless it is finished already (its completion stands): then a line of its own.
    const onEntry = entry !== null && (await finishActivity(entry, "error", text, tx));
    if (!onEntry && wasLive) await addActivity(p.operatorId, "error", text, tx);
  });
  collectionsChanged(p.operatorId);
  // Issue 31: the operators are told (never waited on: the alert is queued).
  await alertAutoCycle(p, reason);
}

/**
 * One send chunk, exactly once. A first run records the intent, sends, and marks it done. A
 * re-run finding the intent without "done" reconciles: ids no longer held were sent by the run
 * that died (never sent again); the ids still held are sent now.
 */
async function sendChunkOnce(
  stepKeyText: string,
  token: string | undefined,
  creds: GalaxyCredentials,
  recipientId: string,
  ids: string[],
  chunkNo: number,
): Promise<number> {
  const step = await beginExternalStep(stepKeyText);
  if (step.state === "done") return Number((step.result as { sent?: number } | null)?.sent ?? 0);
  const held = await heldOf(creds, ids);
  // Unknown outcome: what left the inventory went with the earlier call. A first run: ids no
  // longer held (sent by hand meanwhile) are not ours to count.
  const sentBefore = step.state === "unknown" ? ids.length - held.length : 0;
  if (!held.length) {
    await finishExternalStep(stepKeyText, { sent: sentBefore, ...(step.state === "unknown" ? { reconciled: true } : {}) });
    return sentBefore;
  }
  // galaxy-runtime.md §3.3: chunks go 2 s apart.
  if (chunkNo > 0) await sleep(collectionsTimings().sendChunkGapMs);
  crashPoint("before-send", creds.userID, chunkNo);
  // Fencing (decision 0028): a worker that cannot prove the lock any more (cut off, stalled)
  // sends nothing: the worker that took the job reconciles this chunk from the inventory.
  assertLockProven(token);
  let sentNow: number;
  try {
    // Held: read just above. Confirmed by the answer's status and a fresh inventory read (issue 34).
    sentNow = (await getGalaxyServices().sendGifts(creds, recipientId, held, { held: true })).sent;
  } catch (err) {
    // Refused by the platform: nothing moved, but keep the intent so a re-run reconciles.
    throw new AppError(502, `${T.sendFailed}: ${err instanceof Error ? err.message : String(err)}`);
  }
  crashPoint("after-send", creds.userID, chunkNo);
  await finishExternalStep(stepKeyText, { sent: sentBefore + sentNow });
  return sentBefore + sentNow;
}
