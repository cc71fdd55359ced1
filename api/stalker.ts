/**
 * The /api contract of stalker sessions (spec 2 §7 "Characters"). Client-safe.
 *
 *   GET  /api/stalker/active              → { connections: string[] }   (account ids, connecting or active)
 *   POST /api/stalker/start {account_id, takeover?}
 *                                         → 200 { success, message: "Stalker started successfully", stalker } once active,
 *                                           202 { success, message: "Stalker is connecting", stalker } while it still connects
 *                                           (within START_WAIT_MS), 502 { error: the platform's words, stalker } when the
 *                                           login was refused; 409 { error, holder } when another purpose holds the account
 *   POST /api/stalker/stop  {account_id}  → 200 { success, message: "Stalker stopped successfully", stalker | null }
 *
 * `stalker` is the session's status; the UI shows "Connecting Stalker" until `state` is
 * "active" (spec 2 §4 "Stalker"), and a failure's reason as soon as it happens. Errors `{ error, message }`: 400 (bad account_id, or the user
 * is not of type stalker), 404 (unknown user), 503 (job engine offline: nothing changed), 500
 * with the spec 2 §8 fallbacks "Failed to start stalker" / "Failed to stop stalker".
 */
import type { SessionView } from "./sessions";

/** The spec's three card states (spec 2 §2 "Stalker status card"), plus error for a failed one. */
export type StalkerSessionState = "inactive" | "connecting" | "active" | "error";

/**
 * The card state (spec 2 §2): active (up on a live worker), connecting while it tries (or
 * waits: the card says which beside it, from `phase`), inactive, error when it failed.
 * Client-safe: the model answers it, and a page applies it to a session's live event (issue 30 A3).
 */
export function stalkerSessionState(s: Pick<SessionView, "desired" | "actual"> & Partial<Pick<SessionView, "phase">>): StalkerSessionState {
  if (s.actual === "failed") return "error";
  if (s.desired !== "run" || s.actual === "stopped") return "inactive";
  // Issue 29: a session whose holder died is not active, whatever its row last said.
  return (s.phase ?? s.actual) === "active" ? "active" : "connecting";
}

/** A stalker's session (api/sessions.ts SessionView) with its card state. */
export type StalkerSessionStatus = SessionView & { state: StalkerSessionState };

export type StalkerActiveResponse = { connections: string[] };
export type StalkerStartResponse = { success: true; message: string; stalker: StalkerSessionStatus };
export type StalkerStopResponse = { success: true; message: string; stalker: StalkerSessionStatus | null };
