/**
 * Which queues have a processor. A queue gets a worker only when it is listed here, so
 * a queue whose processor a later issue adds does not pretend to work in the meantime:
 * its jobs simply wait (and show as waiting on the queue board).
 */
import type { Job } from "bullmq";
import type { QueueName, QueuePayloads } from "../queues.server";
import { processBulkRefreshJob, processStatusRefreshJob } from "./characters";
import { processSystemJob } from "./system";

export type ProcessorSpec<Q extends QueueName> = {
  process: (job: Job<QueuePayloads[Q]>) => Promise<unknown>;
  /** Jobs of this queue one worker process runs at the same time. */
  concurrency: number;
};

export const PROCESSORS: { [Q in QueueName]?: ProcessorSpec<Q> } = {
  system: { process: processSystemJob, concurrency: 2 },
  // One refresh at a time per worker: each already runs its calls in parallel (services client limits).
  "status-refresh": { process: processStatusRefreshJob, concurrency: 1 },
  "bulk-refresh": { process: processBulkRefreshJob, concurrency: 1 },
};

export const PROCESSED_QUEUES = Object.keys(PROCESSORS) as QueueName[];
