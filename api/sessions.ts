/**
 * Background sessions as every screen and /api answer shows them (issue 18 "One truthful state
 * per session"; docs/sessions.md). Client-safe: no server imports.
 *
 * One shape for every purpose: the stalker, the trading run, the Collections connection, the
 * GalaCord bot and each GalaCord relay connection.
 */

/**
 * Purposes the session host runs, each as jobs of the queue of the same name (app/queue/queues.server.ts
 * and app/queue/session-control.server.ts derive theirs from this list). Adding a purpose: its name
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

// What a holder writes, and the commands it runs: declared once here for the session host
// (jobs/session-host.server.ts), its runners and the store (app/models/session.server.ts).

/** What a holder reports while it runs (`ctx.report`). */
export type SessionPatch = Partial<{
  actual: Exclude<SessionActual, "stopped" | "failed">;
  error: string | null;
  attempt: number;
  nextRetryAt: Date | null;
  planet: string | null;
  info: Record<string, unknown>;
}>;
/** How a session ended by itself (`ctx.end`). */
export type SessionEnd = { actual: "failed" | "stopped"; error?: string | null; note?: string | null };
/** A command for the live session (a planet change), run by whichever process holds it. */
export type SessionCommand = { id: number; purpose: SessionPurpose; key: string; kind: string; arg: unknown };
/** What the holder answers a command: its result, or a refusal with a status and text. */
export type CommandOutcome = { ok: true; result?: unknown } | { ok: false; status: number; message: string };

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
  /**
   * The ONE state every screen shows (issue 29, decision 0027): `actual` joined with its holder's
   * beat and the workers' capacity. A session whose holder died is `waiting` ("worker lost"),
   * never `active`; a reconnect wait is `retrying`, not connecting.
   */
  phase: SessionPhase;
  /** The phase in words, the same on every screen and in /api ("Worker lost · waiting for a worker"). */
  status: string;
};

/** One state per badge (issue 29): what a screen shows of a session. */
export type SessionPhase = "waiting" | "connecting" | "active" | "retrying" | "stopped" | "failed";

/** What the reader knew of the workers when it built the view (null: Redis could not tell). */
export type SessionLiveness = {
  /** Ids of workers whose beat is alive. */
  alive: ReadonlySet<string>;
  /** Per purpose: "all workers are full (N of M)" when every live worker is at its capacity. */
  full: Partial<Record<SessionPurpose, string>>;
};

/** Texts of the phases (issue 29). */
export const PHASE_TEXTS = {
  waiting: "Waiting for a worker",
  workerLost: "Worker lost · waiting for a worker",
  noWorker: "Waiting for a worker: no worker is running",
  /** "Waiting for a worker: all workers are full (1000 of 1000)" — sessions held of the live workers' capacity. */
  full: (held: number, capacity: number) => `Waiting for a worker: all workers are full (${held} of ${capacity})`,
  moving: (to: string) => `Moving to worker ${to}`,
  connecting: "Connecting",
  active: "Active",
  /** "Retrying at 17:03:12" (UTC on the server; screens show a local countdown). */
  retrying: (at: string | null) => (at ? `Retrying at ${at.slice(11, 19)} UTC` : "Retrying now"),
  stopped: "Stopped",
  failed: (error: string | null) => (error ? `Failed: ${error}` : "Failed"),
} as const;

/**
 * The phase of a session (issue 29): its row as the holder wrote it, joined with the holder's
 * beat (`holderAlive`) and, for a session no worker took, why (`liveness`).
 */
export function sessionPhase(
  s: Pick<SessionView, "purpose" | "desired" | "actual" | "holder" | "holderAlive" | "nextRetryAt" | "error" | "info">,
  liveness: SessionLiveness | null = null,
): { phase: SessionPhase; status: string } {
  if (s.actual === "failed") return { phase: "failed", status: PHASE_TEXTS.failed(s.error) };
  if (s.desired !== "run" || s.actual === "stopped") return { phase: "stopped", status: PHASE_TEXTS.stopped };
  // A holder whose beat expired holds nothing: whatever its row last said, nobody runs it now.
  if (s.holder && s.holderAlive === false) return { phase: "waiting", status: PHASE_TEXTS.workerLost };
  // "Connecting" with no worker holding it: its runner returned while the session was still
  // wanted and let go of it (the row keeps its last state); nobody connects it until a worker
  // takes it again. It showed "Connecting" for good beside full workers (holder-liveness.test).
  const letGo = s.actual === "connecting" && !s.holder && (HOSTED_PURPOSES as readonly string[]).includes(s.purpose);
  if (s.actual === "waiting" || letGo) {
    if (s.purpose === "relay-link") return { phase: "waiting", status: PHASE_TEXTS.waiting };
    if (liveness && liveness.alive.size === 0) return { phase: "waiting", status: PHASE_TEXTS.noWorker };
    return { phase: "waiting", status: liveness?.full[s.purpose] ?? PHASE_TEXTS.waiting };
  }
  if (s.actual === "reconnecting") {
    if (s.nextRetryAt && new Date(s.nextRetryAt).getTime() > Date.now()) return { phase: "retrying", status: PHASE_TEXTS.retrying(s.nextRetryAt) };
    return { phase: "connecting", status: PHASE_TEXTS.connecting };
  }
  if (s.actual === "connecting") {
    const from = typeof s.info.movedFrom === "string" ? s.info.movedFrom : null;
    return { phase: "connecting", status: from ? PHASE_TEXTS.moving(s.holder ?? "another worker") : PHASE_TEXTS.connecting };
  }
  return { phase: "active", status: PHASE_TEXTS.active };
}

/** Is the session meant to run and not (yet) up? (A session whose holder died is not up.) */
export function isStarting(s: Pick<SessionView, "desired" | "actual"> & Partial<Pick<SessionView, "phase">>): boolean {
  if (s.phase) return s.phase === "waiting" || s.phase === "connecting" || s.phase === "retrying";
  return s.desired === "run" && (s.actual === "waiting" || s.actual === "connecting" || s.actual === "reconnecting");
}

/** Is it up now, held by a live worker? (Lists such as /api/stalker/active and "N active connections".) */
export function isUp(s: Pick<SessionView, "actual"> & Partial<Pick<SessionView, "phase">>): boolean {
  return (s.phase ?? s.actual) === "active";
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
  /** Issue 29: said only while a live worker exists to take it; otherwise PHASE_TEXTS.workerLost alone. */
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
