/**
 * Exactly-once effects for job processors (docs/jobs.md "Exactly-once effects").
 *
 * BullMQ runs a job at least once: a worker that dies after an effect but before the job
 * is marked complete leaves the job to run again. Whatever is recorded in Redis (the job's
 * data, its return value) is written after the effect, so it cannot guard the effect. The
 * guard is a row in `job_steps`, keyed by the job and the step:
 *
 * - `runStepOnce(key, (tx) => …)`: effects that are database writes. The key and the
 *   effect commit in one transaction, so either both happened or neither did.
 * - `beginExternalStep(key)` / `finishExternalStep(key, result)`: effects outside the
 *   database (a platform call, e.g. sending a gift). The intent is committed before the
 *   call and marked done after; a re-run that finds the intent without "done" cannot know
 *   whether the call happened and must reconcile with the platform instead of repeating it.
 */
import type { Job } from "bullmq";
import { and, eq, lt, sql } from "drizzle-orm";
import { getDb, type Db } from "~/db/client.server";
import { jobSteps } from "~/db/schema";

/** The transaction handed to a `runStepOnce` effect; every write of the effect goes through it. */
export type DbTx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * How long step rows are kept (`pruneJobSteps`, run by the daily logs-cleanup job). Longer
 * than any job stays in Redis: a failed job is kept 7 days and can be retried from the
 * board until then, and its retry must still find its steps.
 */
export const JOB_STEP_RETENTION_DAYS = 30;

/**
 * The key of one step of one job: `<queue>:<jobId>@<created ms>:<step>`. The creation time
 * is part of it because custom job ids come back (`probe-<key>`, `stalker-<accountId>`:
 * once retention removes a finished job, adding the same id makes a new job, which must
 * not find the old job's steps done); it stays the same across retries and stalls.
 */
export function stepKey(job: Pick<Job, "queueName" | "id" | "timestamp">, step: string): string {
  if (!job.id) throw new Error("stepKey: the job has no id");
  if (!step) throw new Error("stepKey: name the step");
  return `${job.queueName}:${job.id}@${job.timestamp}:${step}`;
}

/**
 * Runs `effect` once per `key`, ever. In ONE transaction: claims the key (insert … on
 * conflict do nothing), runs the effect with that transaction, stores its result. When the
 * key is already done, returns the stored result without running the effect. Concurrent
 * calls with the same key wait for each other on the key's row, so only one runs it.
 *
 * Every write of the effect must go through `tx` (e.g. `logEvent(entry, tx)`); a write on
 * another connection is not covered. If the effect throws, nothing is kept (neither its
 * writes nor the key) and the error propagates, so the job's retry runs it again.
 *
 * The result is stored as JSON and both the first and later calls return it as stored
 * (a Date comes back as its ISO string): return plain JSON.
 */
export async function runStepOnce<T>(key: string, effect: (tx: DbTx) => Promise<T>): Promise<T> {
  const db = await getDb();
  let ran = false;
  const result = await db.transaction(async (tx) => {
    const [claimed] = await tx.insert(jobSteps).values({ key, state: "started" }).onConflictDoNothing().returning({ key: jobSteps.key });
    if (!claimed) {
      // The insert waited for the transaction holding the key; this new statement sees its commit.
      const [row] = await tx.select().from(jobSteps).where(eq(jobSteps.key, key));
      if (!row) throw new Error(`Job step ${key} vanished while it was being claimed`);
      if (row.state !== "done") throw new Error(`Job step ${key} is a two-phase step (beginExternalStep), not a runStepOnce step`);
      return row.result as T;
    }
    const value = await effect(tx);
    const [row] = await tx
      .update(jobSteps)
      .set({ state: "done", result: value ?? null, doneAt: sql`now()` })
      .where(eq(jobSteps.key, key))
      .returning({ result: jobSteps.result });
    ran = true;
    return row!.result as T;
  });
  if (ran) crashPointAfterEffect();
  return result;
}

/** What `beginExternalStep` found. */
export type ExternalStep =
  /** The intent is now recorded: make the call, then `finishExternalStep`. */
  | { state: "run" }
  /** The call happened before: use `result`, do not call again. */
  | { state: "done"; result: unknown; doneAt: Date }
  /**
   * An earlier run recorded the intent but not the outcome: it may have died before, during
   * or after the call. Reconcile with the platform (e.g. read the inventory): if the call
   * happened, `finishExternalStep`; if it certainly did not, make it, then `finishExternalStep`.
   */
  | { state: "unknown"; startedAt: Date };

/**
 * Phase one of an effect outside the database: records (and commits) the intent to make
 * the call under `key`, unless a row for `key` exists already (see `ExternalStep`).
 */
export async function beginExternalStep(key: string): Promise<ExternalStep> {
  const db = await getDb();
  const [claimed] = await db.insert(jobSteps).values({ key, state: "started" }).onConflictDoNothing().returning({ key: jobSteps.key });
  if (claimed) return { state: "run" };
  const [row] = await db.select().from(jobSteps).where(eq(jobSteps.key, key));
  if (!row) throw new Error(`Job step ${key} vanished while it was being claimed`);
  if (row.state === "done") return { state: "done", result: row.result, doneAt: row.doneAt! };
  return { state: "unknown", startedAt: row.startedAt };
}

/**
 * Phase two: the call happened (it succeeded, or reconciliation found it done); stores
 * `result` (JSON) for later runs. Finishing a step already done keeps the first result.
 */
export async function finishExternalStep(key: string, result?: unknown): Promise<void> {
  const db = await getDb();
  const [updated] = await db
    .update(jobSteps)
    .set({ state: "done", result: result ?? null, doneAt: sql`now()` })
    .where(and(eq(jobSteps.key, key), eq(jobSteps.state, "started")))
    .returning({ key: jobSteps.key });
  if (updated) return;
  const [row] = await db.select({ state: jobSteps.state }).from(jobSteps).where(eq(jobSteps.key, key));
  if (!row) throw new Error(`finishExternalStep: no step ${key} (call beginExternalStep first)`);
}

/**
 * The call certainly did not happen (it was refused before anything was sent, or
 * reconciliation found nothing): drops the intent so a later run makes the call again
 * without reconciling. Refuses to drop a step that is done.
 */
export async function releaseExternalStep(key: string): Promise<void> {
  const db = await getDb();
  const [deleted] = await db
    .delete(jobSteps)
    .where(and(eq(jobSteps.key, key), eq(jobSteps.state, "started")))
    .returning({ key: jobSteps.key });
  if (deleted) return;
  const [row] = await db.select({ state: jobSteps.state }).from(jobSteps).where(eq(jobSteps.key, key));
  if (row?.state === "done") throw new Error(`releaseExternalStep: step ${key} is done; its effect happened`);
}

/** The stored result of a step that is done, or null (not begun, or begun and not finished). */
export async function doneStepResult<T>(key: string): Promise<{ result: T } | null> {
  const db = await getDb();
  const [row] = await db.select({ state: jobSteps.state, result: jobSteps.result }).from(jobSteps).where(eq(jobSteps.key, key));
  return row?.state === "done" ? { result: row.result as T } : null;
}

/** Removes step rows older than JOB_STEP_RETENTION_DAYS; returns how many. */
export async function pruneJobSteps(now = new Date()): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - JOB_STEP_RETENTION_DAYS * 86_400_000);
  const rows = await db.delete(jobSteps).where(lt(jobSteps.startedAt, cutoff)).returning({ key: jobSteps.key });
  return rows.length;
}

/**
 * Fault injection for jobs/worker.test.ts, inert outside tests: with NODE_ENV=test and
 * JOB_TEST_CRASH_AFTER_EFFECT=1 the worker process SIGKILLs itself right after a step's
 * effect committed, before BullMQ marks the job complete: the window in which a crash used
 * to repeat the effect.
 */
function crashPointAfterEffect() {
  if (process.env.NODE_ENV === "test" && process.env.JOB_TEST_CRASH_AFTER_EFFECT === "1") process.kill(process.pid, "SIGKILL");
}
