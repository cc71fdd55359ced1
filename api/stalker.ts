/**
 * The /api contract of stalker sessions (spec 2 §7 "Characters"). Client-safe.
 *
 *   GET  /api/stalker/active              → { connections: string[] }   (account ids, connecting or active)
 *   POST /api/stalker/start {account_id}  → 202 { success, message: "Stalker started successfully", stalker }
 *   POST /api/stalker/stop  {account_id}  → 200 { success, message: "Stalker stopped successfully", stalker | null }
 *
 * `stalker` is the session's status; the UI shows "Connecting Stalker" until `state` is
 * "active" (spec 2 §4 "Stalker"). Errors `{ error, message }`: 400 (bad account_id, or the user
 * is not of type stalker), 404 (unknown user), 503 (job engine offline: nothing changed), 500
 * with the spec 2 §8 fallbacks "Failed to start stalker" / "Failed to stop stalker".
 */
export type StalkerSessionState = "inactive" | "connecting" | "active" | "error";

export type StalkerSessionStatus = {
  accountId: string;
  desired: "started" | "stopped";
  state: StalkerSessionState;
  planet: string | null;
  error: string | null;
  since: string;
  worker: string | null;
};

export type StalkerActiveResponse = { connections: string[] };
export type StalkerStartResponse = { success: true; message: string; stalker: StalkerSessionStatus };
export type StalkerStopResponse = { success: true; message: string; stalker: StalkerSessionStatus | null };
