/**
 * Background sessions as every screen and /api answer shows them (issue 18 "One truthful state
 * per session"; docs/sessions.md). Client-safe: no server imports.
 *
 * One shape for every purpose: the stalker, the trading run, the Collections connection, the
 * GalaCord bot and each GalaCord relay connection.
 */

/**
 * Purposes the session host runs, each as jobs of the queue of the same name (jobs/queues.server.ts
 * and jobs/session-control.server.ts derive theirs from this list). Adding a purpose: its name
 * here, its label and page below, its runner in jobs/processors/sessions.ts.
 */
export const HOSTED_PURPOSES = ["stalker", "trader", "collections", "relay"] as const;
export type HostedPurpose = (typeof HOSTED_PURPOSES)[number];

/** What a session is for. `relay-link` sessions live inside the `relay` (GalaCord bot) session. */
export type SessionPurpose = HostedPurpose | "relay-link";

/** What the operator asked for. */
export type SessionDesired = "run" | "stop";

/**
 * What is, as the holder (or the host) last wrote it:
 * - `waiting`: asked for, no worker has taken it yet (all busy or none running);
 * - `connecting`: a worker holds it and is logging in (first attempt);
 * - `active`: logged in (the purpose's own sub-state, e.g. the trader's planet, in `info`);
 * - `reconnecting`: the connection dropped or the platform refused for now; `attempt` and
 *   `nextRetryAt` say when the next try is;
 * - `stopped`: not running (by the operator, a takeover, or never started);
 * - `failed`: ended by itself; `error` has the platform's words.
 */
export type SessionActual = "waiting" | "connecting" | "active" | "reconnecting" | "stopped" | "failed";

export type SessionView = {
  purpose: SessionPurpose;
  /** The account id (or "bot" for the GalaCord bot). */
  key: string;
  /** The Galaxy account it logs in; null when none (the GalaCord bot). */
  accountId: string | null;
  desired: SessionDesired;
  actual: SessionActual;
  /** When `actual` last changed (ISO). */
  since: string;
  /** The last error, in the platform's words (failures, and why it is reconnecting). */
  error: string | null;
  /** Why it stopped when it was not the operator's own stop (e.g. taken over by another purpose). */
  note: string | null;
  /** Reconnect attempt number (0 once it is up). */
  attempt: number;
  /** When the next attempt is due (ISO), while reconnecting. */
  nextRetryAt: string | null;
  /** The worker process holding it, null when none. */
  holder: string | null;
  /** False when the holder's heartbeat expired (it died; another worker takes over soon). Null when unknown. */
  holderAlive: boolean | null;
  /** The planet it is on, when that applies. */
  planet: string | null;
  /** Purpose-specific detail (the trader's step, the bot's channel count…). */
  info: Record<string, unknown>;
};

/** Is the session meant to run and not (yet) up? */
export function isStarting(s: Pick<SessionView, "desired" | "actual">): boolean {
  return s.desired === "run" && (s.actual === "waiting" || s.actual === "connecting" || s.actual === "reconnecting");
}

/** Is it meant to run (whatever the connection does right now)? */
export function isRunning(s: Pick<SessionView, "desired" | "actual">): boolean {
  return s.desired === "run" && s.actual !== "failed" && s.actual !== "stopped";
}

/** Labels of each purpose, as messages name them ("in use by the stalker"). */
export const PURPOSE_LABELS: Record<SessionPurpose, string> = {
  stalker: "the stalker",
  trader: "the trading run",
  collections: "Collections",
  relay: "the GalaCord bot",
  "relay-link": "GalaCord",
};

/** Where each purpose is shown (for "in use by … (open)" links). */
export const PURPOSE_PAGES: Record<SessionPurpose, string> = {
  stalker: "/characters",
  trader: "/trading-planets",
  collections: "/collections",
  relay: "/galacord",
  "relay-link": "/galacord",
};

export const SESSION_TEXTS = {
  waiting: "Waiting for a worker",
  holderGone: "Its worker stopped; another worker takes it over",
  /** "Taken over by Collections". */
  takenOverBy: (purpose: SessionPurpose) => `Taken over by ${PURPOSE_LABELS[purpose]}`,
  /** "Account Nick (12345678) is in use by the stalker." */
  held: (account: string, by: SessionPurpose) => `Account ${account} is in use by ${PURPOSE_LABELS[by]}. Take it over to use it here.`,
  takeOver: "Take over",
  tookOver: (account: string, from: SessionPurpose) => `Took account ${account} over from ${PURPOSE_LABELS[from]}`,
} as const;

/** The System Logs page filtered to one session's entries. */
export function sessionLogsUrl(s: Pick<SessionView, "accountId" | "purpose">): string {
  const params = new URLSearchParams();
  if (s.accountId) params.set("account", s.accountId);
  else params.set("source", s.purpose === "relay" ? "discord" : "bot");
  return `/logs?${params}`;
}
