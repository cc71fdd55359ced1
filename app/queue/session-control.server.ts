/**
 * The producer side of the session host (docs/sessions.md): what web code and models use to
 * ask for a session and to talk to whichever process holds one. Imports no model; the host's
 * internals (jobs/session-host.server.ts) stay behind it.
 *
 * - `requestSession(purpose, key)` adds the session's job (`<purpose>-<key>`, idempotent);
 * - `sendSessionControl(purpose, key, "stop" | "wake")` publishes on the ONE control channel
 *   `<prefix>:sessions:control`; the holder ends the session (stop) or looks at its commands
 *   and rows now (wake). Best effort: holders also poll the database.
 */
import { HOSTED_PURPOSES, type HostedPurpose, type SessionPurpose } from "#api/sessions";
import { enqueue, getQueue, producerReady } from "./queues.server";
import { producerConnection, queuePrefix } from "./redis.server";

/** The queue of a purpose the host runs (the queue has the purpose's name); none for `relay-link`, held inside `relay`. */
export function sessionQueue(purpose: SessionPurpose): HostedPurpose | null {
  return (HOSTED_PURPOSES as readonly string[]).includes(purpose) ? (purpose as HostedPurpose) : null;
}

/** Which session holds the sub-sessions of a purpose (`relay-link` → the bot). */
export const HOSTED_BY: Partial<Record<SessionPurpose, { purpose: SessionPurpose; key: string }>> = {
  "relay-link": { purpose: "relay", key: "bot" },
};

export const controlChannel = () => `${queuePrefix()}:sessions:control`;

/**
 * Drained workers (issue 31, the Sessions page's "Drain"): a hash worker id → when it was asked
 * (ISO). The worker reads its own field every host beat (SESSION_HOST_BEAT_MS): while it is set
 * it hands its sessions back (as on SIGTERM) and takes no new ones. A restarted worker has a new
 * id, so a restart ends a drain; so does "Undrain" (the field deleted).
 */
export const drainKey = () => `${queuePrefix()}:sessions:drained`;

export type ControlMessage = { purpose: SessionPurpose; key: string; kind: "stop" | "wake" };

export function sessionJobId(purpose: SessionPurpose, key: string): string {
  return `${purpose}-${key}`;
}

/** Is Redis reachable for producers right now? (a start answers 503 when not). */
export async function sessionEngineReady(): Promise<boolean> {
  return producerReady(500);
}

/** Adds the session's job (no-op when it exists). Throws the 503 AppError while Redis is down. */
export async function requestSession(purpose: SessionPurpose, key: string, reason: "start" | "restore" = "start"): Promise<void> {
  const queue = sessionQueue(purpose);
  if (!queue) return;
  await enqueue(queue, { kind: "session", accountId: key, reason }, { jobId: sessionJobId(purpose, key) });
}

/**
 * Tells the holder of the session (or, for a sub-session, of its host session) to stop or to
 * wake up. Best effort: holders also poll. A stop also removes a job still waiting.
 */
export async function sendSessionControl(purpose: SessionPurpose, key: string, kind: ControlMessage["kind"]): Promise<void> {
  if (!(await producerReady(300))) return;
  try {
    const message: ControlMessage = { purpose, key, kind };
    await producerConnection().publish(controlChannel(), JSON.stringify(message));
    const queue = sessionQueue(purpose);
    if (kind === "stop" && queue) {
      const job = await getQueue(queue).getJob(sessionJobId(purpose, key));
      if (job && ((await job.isWaiting()) || (await job.isDelayed()))) await job.remove().catch(() => {});
    }
  } catch {
    // Redis went away in between: the holder's poll sees it.
  }
}
