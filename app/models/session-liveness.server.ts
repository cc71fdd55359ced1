import { publishLive } from "~/queue/live.server";
import { jobEngineDetails, sweepDeadWorkers } from "~/queue/status.server";
import { errorText } from "~/utils/errors";
import { remember } from "~/utils/remember.server";
import { checkWorkerAlerts } from "./alert.server";
import { publishHolderLoss, waitingSessions } from "./session.server";

/**
 * The beat watcher (issue 29 "Holder liveness", decision 0027): notices a worker whose beat
 * expired and tells every open page, even when no worker is left to tell them.
 *
 * Every web process and every worker runs one. Each second it sweeps the workers set
 * (app/queue/status.server.ts `sweepDeadWorkers`): a worker whose beat key expired is moved to the
 * lost list by exactly one watcher (an atomic SREM), which then publishes the SessionView of
 * every session that worker held — now "Worker lost · waiting for a worker" — and a `workers`
 * event (the header re-reads its counts). With 0 workers the web processes still watch; with
 * several web processes only one announces each death.
 */
const WATCH_MS = 1_000;

const g = remember("holder-watcher", (): { stop?: () => void; users: number } => ({ users: 0 }));

/** One sweep: the ids of the workers this call found dead (and announced). */
export async function watchHoldersOnce(): Promise<string[]> {
  const dead = await sweepDeadWorkers();
  if (dead.length) {
    const n = await publishHolderLoss(dead);
    publishLive("workers", { data: { lost: dead, sessions: n } });
    console.warn(`[sessions] worker${dead.length > 1 ? "s" : ""} ${dead.join(", ")} lost (beat expired); ${n} session${n === 1 ? "" : "s"} wait for a worker`);
  }
  // Alerts (issue 31): a worker lost, no worker for more than a minute, and their "back to normal".
  const engine = await jobEngineDetails();
  await checkWorkerAlerts({
    lost: dead,
    waiting: async () => (await waitingSessions()).length,
    alive: engine.redis === "up" ? engine.workers.length : null,
    redisUp: engine.redis === "up",
  });
  return dead;
}

/** Starts this process's watcher (once per process however often it is called); returns its stop. */
export function startHolderWatcher(): () => void {
  g.users += 1;
  if (!g.stop) {
    let busy = false;
    let failing = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      watchHoldersOnce()
        .then(() => {
          failing = false;
        })
        .catch((err: unknown) => {
          // Redis or the database away (or slow): the next sweep tries again. Said once per
          // streak, not every second.
          if (!failing && process.env.NODE_ENV !== "test") console.warn(`[sessions] beat watcher: ${errorText(err)}; retrying every second`);
          failing = true;
        })
        .finally(() => {
          busy = false;
        });
    }, WATCH_MS);
    timer.unref();
    g.stop = () => clearInterval(timer);
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    g.users = Math.max(0, g.users - 1);
    if (!g.users) {
      g.stop?.();
      g.stop = undefined;
    }
  };
}
