/**
 * Processor of the `system` queue: the operators' probe, the daily logs clean-up (with the
 * audit trail's retention) and the daily backup.
 */
import { UnrecoverableError, type Job } from "bullmq";
import { PROBE_LIMITS } from "#api/jobs";
import { alertBackupOutcome } from "~/models/alert.server";
import { cleanupAudit } from "~/models/audit.server";
import { runAutomaticBackup } from "~/models/backup.server";
import { cleanupLogs, logEvent } from "~/models/log.server";
import { errorText } from "~/utils/errors";
import { pause } from "~/utils/pause";
import { pullDailyStats } from "~/platform/daily-stats.server";
import { pruneJobSteps, runStepOnce, stepKey } from "../../app/models/once.server";
import type { ProbeJob, SystemJob } from "../../app/queue/queues.server";

const PROBE_MAX_MS = PROBE_LIMITS.maxMs;
const PROBE_DEFAULT_MS = PROBE_LIMITS.defaultMs;

export function probeCompletedMessage(jobId: string) {
  return `Probe job ${jobId} completed`;
}

export async function processSystemJob(job: Job<SystemJob>, _token?: string, _signal?: AbortSignal, closing?: AbortSignal): Promise<unknown> {
  // The job name is the payload's kind (enqueue() and the scheduler template set both);
  // going by the name also serves jobs an operator adds by hand on the queue board.
  const kind = job.name as SystemJob["kind"];
  switch (kind) {
    case "probe":
      return runProbe(job as Job<ProbeJob>, closing);
    case "logs-cleanup": {
      const removed = await cleanupLogs();
      // Step records outlive their jobs by weeks (JOB_STEP_RETENTION_DAYS); drop older ones with the logs.
      const jobSteps = await pruneJobSteps();
      // The audit trail keeps AUDIT_RETENTION_DAYS (docs/decisions/0016).
      const audit = await cleanupAudit();
      await logEvent({
        type: "info",
        source: "system",
        message: `Logs clean-up removed ${removed} entries`,
        details: { jobId: job.id, removed, jobSteps, audit },
      });
      return { removed, jobSteps, audit };
    }
    case "backup": {
      try {
        const result = await runAutomaticBackup();
        if (result.file) await alertBackupOutcome(null);
        if (result.file) {
          await logEvent({
            type: "info",
            source: "system",
            message: `Daily backup written: ${result.file}`,
            details: { jobId: job.id, removed: result.removed },
          });
        }
        return result;
      } catch (err) {
        await logEvent({ type: "error", source: "system", message: `Daily backup failed: ${errorText(err)}`, details: { jobId: job.id } });
        await alertBackupOutcome(errorText(err));
        throw err;
      }
    }
    case "daily-stats-pull":
      // Idempotent (an upsert per account and day), so a re-run after a crash or a close is harmless.
      return pullDailyStats({ signal: closing });
    default:
      // A payload no code knows cannot succeed on a retry either.
      throw new UnrecoverableError(`Unknown system job "${job.name}"`);
  }
}

/**
 * Sleeps, then records its completion once. BullMQ runs a job at least once (a worker
 * killed mid-job, or between recording and completing, leaves it to run again), so the
 * record is an exactly-once step: the log row and the step's key commit in one transaction
 * (docs/jobs.md "Exactly-once effects"). A re-run sleeps again but records nothing. A worker
 * that closes during the sleep hands the probe back (jobs/closing.server.ts).
 */
async function runProbe(job: Job<ProbeJob>, closing?: AbortSignal) {
  const ms = Math.min(Math.max(0, Math.trunc(Number(job.data?.ms ?? PROBE_DEFAULT_MS)) || 0), PROBE_MAX_MS);
  await pause(ms, closing);
  closing?.throwIfAborted();
  const { recordedAt } = await runStepOnce(stepKey(job, "record"), async (tx) => {
    await logEvent(
      {
        type: "debug",
        source: "system",
        message: probeCompletedMessage(String(job.id)),
        details: { jobId: job.id, ms, attemptsStarted: job.attemptsStarted, stalledCounter: job.stalledCounter, worker: job.processedBy ?? null },
      },
      tx,
    );
    return { recordedAt: new Date().toISOString() };
  });
  return { sleptMs: ms, recordedAt };
}
