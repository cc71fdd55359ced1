/**
 * Which queues have a processor. A queue gets a worker only when it is listed here, so
 * a queue whose processor a later issue adds does not pretend to work in the meantime:
 * its jobs simply wait (and show as waiting on the queue board).
 */
import type { Job, Worker } from "bullmq";
import type { QueueName, QueuePayloads } from "../queues.server";
import { processAutomationJob } from "./automation";
import { processCollectionsSession } from "./collections";
import { processBulkRefreshJob, processStatusRefreshJob } from "./characters";
import { attachSessionWorker, sessionWorkerOptions } from "../session-host.server";
import { processRelayJob } from "./relay";
import { processStalkerJob } from "./stalker";
import { processSystemJob } from "./system";
import { processTraderJob } from "./trader";

export type ProcessorSpec<Q extends QueueName> = {
  /** BullMQ passes the lock token and (for processors declaring it) an abort signal. */
  process: (job: Job<QueuePayloads[Q]>, token?: string, signal?: AbortSignal) => Promise<unknown>;
  /** Jobs of this queue one worker process runs at the same time. */
  concurrency: number;
  /** Worker options of this queue instead of the engine-wide ones (session queues: jobs/session-host.server.ts). */
  workerOptions?: () => { concurrency?: number; lockDuration?: number; stalledInterval?: number; maxStalledCount?: number };
  /** Called with the queue's Worker once created; the returned function runs before the worker closes. */
  attach?: (worker: Worker, poolId: string) => () => Promise<void>;
};

export const PROCESSORS: { [Q in QueueName]?: ProcessorSpec<Q> } = {
  system: { process: processSystemJob, concurrency: 2 },
  // One refresh at a time per worker: each already runs its calls in parallel (services client limits).
  "status-refresh": { process: processStatusRefreshJob, concurrency: 1 },
  "bulk-refresh": { process: processBulkRefreshJob, concurrency: 1 },
  // Long-lived sessions (jobs/session-host.server.ts): one job per started stalker.
  automation: { process: processAutomationJob, concurrency: 20 },
  collections: { process: processCollectionsSession, concurrency: 500, workerOptions: sessionWorkerOptions, attach: attachSessionWorker },
  stalker: { process: processStalkerJob, concurrency: 500, workerOptions: sessionWorkerOptions, attach: attachSessionWorker },
  trader: { process: processTraderJob, concurrency: 500, workerOptions: sessionWorkerOptions, attach: attachSessionWorker },
  // GalaCord (docs/galacord.md): one session, job `relay-bot`, holding the Discord client and every relay connection.
  relay: { process: processRelayJob, concurrency: 10, workerOptions: sessionWorkerOptions, attach: attachSessionWorker },
};

export const PROCESSED_QUEUES = Object.keys(PROCESSORS) as QueueName[];
