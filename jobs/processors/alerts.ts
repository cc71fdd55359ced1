/**
 * Processor of the `alerts` queue (issue 31 item 2): one alert to one destination. A failure
 * throws, so BullMQ retries it with the queue's backoff (jobs/queues.server.ts); the last
 * failed try is written to System Logs by the model.
 */
import type { Job } from "bullmq";
import { deliverAlert } from "~/models/alert.server";
import type { AlertJob } from "../../app/queue/queues.server";

export async function processAlertJob(job: Job<AlertJob>): Promise<unknown> {
  const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const result = await deliverAlert(job.data.destinationId, job.data.alert, final);
  return result ? { status: result.status } : { skipped: "destination removed" };
}
