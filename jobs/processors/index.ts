/**
 * Which queues have a processor. A queue gets a worker only when it is listed here, so
 * a queue whose processor a later issue adds does not pretend to work in the meantime:
 * its jobs simply wait (and show as waiting on the queue board).
 */
import type { Job, Worker } from "bullmq";
import { HOSTED_PURPOSES, type HostedPurpose } from "#api/sessions";
import type { QueueName, QueuePayloads } from "../../app/queue/queues.server";
import { processAutomationJob } from "./automation";
import { processBulkRefreshJob, processStatusRefreshJob } from "./characters";
import { attachSessionWorker, sessionProcessor, sessionSettings, sessionWorkerOptions } from "../session-host.server";
import { SESSIONS } from "./sessions";
import { processSystemJob } from "./system";
import { processAlertJob } from "./alerts";

export type ProcessorSpec<Q extends QueueName> = {
  /**
   * BullMQ passes the lock token and (for processors declaring it) an abort signal; the pool
   * adds `closing`, aborted when the worker starts to close: a long processor stops at its next
   * safe point with `closing.throwIfAborted()` and its job goes back to the queue (jobs/closing.server.ts).
   */
  process: (job: Job<QueuePayloads[Q]>, token?: string, signal?: AbortSignal, closing?: AbortSignal) => Promise<unknown>;
  /** Jobs of this queue one worker process runs at the same time. */
  concurrency: number;
  /** Worker options of this queue instead of the engine-wide ones (session queues: jobs/session-host.server.ts). */
  workerOptions?: () => { concurrency?: number; lockDuration?: number; lockRenewTime?: number; stalledInterval?: number; maxStalledCount?: number };
  /** Called with the queue's Worker once created; the returned function runs before the worker closes. */
  attach?: (worker: Worker, poolId: string) => () => Promise<void>;
};

/** A session purpose's queue: the host's processor, its worker options, its attachment. */
function session<Q extends HostedPurpose>(purpose: Q): ProcessorSpec<Q> {
  const concurrency = SESSIONS.purposes[purpose].concurrency;
  return {
    process: sessionProcessor(SESSIONS, purpose),
    concurrency: concurrency ?? 500,
    workerOptions: () => sessionWorkerOptions(concurrency),
    attach: (worker, poolId) => attachSessionWorker(SESSIONS, worker, poolId),
  };
}

/**
 * Auto cycles and refreshes: a cycle whose worker died or was cut off continues on another
 * worker within lock + stalled interval (≤ 10 s), so they use the sessions' lock setting and
 * its fencing rule (decision 0028) instead of the engine-wide 30 s.
 */
function cycleWorkerOptions() {
  const s = sessionSettings();
  return { lockDuration: s.SESSION_LOCK_DURATION_MS, stalledInterval: s.SESSION_STALLED_INTERVAL_MS };
}

export const PROCESSORS: { [Q in QueueName]?: ProcessorSpec<Q> } = {
  system: { process: processSystemJob, concurrency: 2 },
  // Alerts never wait behind other work: their own queue, several destinations at once.
  alerts: { process: processAlertJob, concurrency: 5 },
  // One refresh at a time per worker: each already runs its calls in parallel (services client limits).
  "status-refresh": { process: processStatusRefreshJob, concurrency: 1, workerOptions: cycleWorkerOptions },
  "bulk-refresh": { process: processBulkRefreshJob, concurrency: 1, workerOptions: cycleWorkerOptions },
  automation: { process: processAutomationJob, concurrency: 20, workerOptions: cycleWorkerOptions },
  // Long-lived sessions (jobs/session-host.server.ts, registry jobs/processors/sessions.ts): one job per session.
  ...(Object.fromEntries(HOSTED_PURPOSES.map((p) => [p, session(p)])) as { [P in HostedPurpose]: ProcessorSpec<P> }),
};

export const PROCESSED_QUEUES = Object.keys(PROCESSORS) as QueueName[];
