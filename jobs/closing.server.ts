/**
 * A worker that is closing hands its long jobs back (issue 30 A8; docs/jobs.md "Stopping").
 *
 * BullMQ's `Worker.close()` waits for every active job, and a refresh (its calls go through
 * one acting account's token bucket), an Auto cycle (mastic, three 2-s waits, send chunks 2 s
 * apart) or a probe runs for many seconds: Ctrl-C printed "active jobs did not finish within
 * 6000 ms". So the pool aborts one signal, `closing`, as it starts to close, with a
 * WorkerClosingError as its reason. Processors watch it at their safe points (between platform
 * calls, before a cycle step or a send chunk, in their waits) and stop there with
 * `closing.throwIfAborted()`; the pool then hands the job back to the queue (delayed by 0, as
 * a session is on shutdown), so the next worker runs it again. A closed worker's job is never
 * completed, failed or lost; what it did is kept by the exactly-once steps (a gift is never
 * sent twice) or is a read the re-run repeats.
 */
import { setMaxListeners } from "node:events";
import { DelayedError, type Job } from "bullmq";

export class WorkerClosingError extends Error {
  constructor() {
    super("The worker is closing: the job goes back to the queue for the next worker");
    this.name = "WorkerClosingError";
  }
}

/**
 * The pool's `closing` controller. Every platform call in flight watches its signal (a refresh of
 * 200 characters has up to 400 calls waiting at once), so it has no listener limit: Node's
 * default of 10 printed "MaxListenersExceededWarning: Possible EventTarget memory leak" on a
 * refresh of 6 characters, though each call removes its listener when it settles.
 */
export function closingController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** True when `err` is the stop of a closing worker (the reason of its `closing` signal). */
export function isWorkerClosing(err: unknown): err is WorkerClosingError {
  return err instanceof WorkerClosingError;
}

/** Puts the job back to wait at once (BullMQ then neither completes nor fails it). */
export async function handBack(job: Job, token: string): Promise<never> {
  await job.moveToDelayed(Date.now(), token);
  throw new DelayedError();
}
