/**
 * The Sessions page and its /api (issue 31 item 1; docs/sessions.md "The Sessions page").
 * Client-safe: no server imports, no zod (the answers' zod schemas, for the OpenAPI document,
 * are in api/operations-schemas.ts).
 *
 *   GET  /api/sessions?purpose=&state=&worker=&q=&page=
 *        → { sessions: [SessionListItem], total, page, page_size, page_count }
 *   GET  /api/workers → { workers: [WorkerItem] }
 *   POST /api/workers/{id}/drain   → 202 { worker, message }  (operators and admins)
 *   DELETE /api/workers/{id}/drain → 200 { worker, message }  (undrain)
 */
import type { SessionActual, SessionDesired, SessionPhase, SessionPurpose } from "./sessions";

/** Every purpose a session row can have, as the filter offers them. */
export const LIST_PURPOSES = ["stalker", "trader", "collections", "relay", "relay-link"] as const satisfies readonly SessionPurpose[];
/** The `state` filter: the one phase every screen shows (api/sessions.ts `sessionPhase`). */
export const LIST_STATES = ["waiting", "connecting", "active", "retrying", "stopped", "failed"] as const satisfies readonly SessionPhase[];

/** Rows per page (like All Characters and System Logs). */
export const SESSIONS_PAGE_SIZE = 50;
/** The highest `page` accepted (50 × 10,000 rows is far beyond any fleet). */
export const SESSIONS_PAGE_MAX = 10_000;
/** Sessions one bulk action takes at most (a page and then some). */
export const BULK_MAX = 200;

/** How the list names each purpose (column and filter). */
export const PURPOSE_NAMES: Record<SessionPurpose, string> = {
  stalker: "Stalker",
  trader: "Trading run",
  collections: "Collections",
  relay: "GalaCord bot",
  "relay-link": "GalaCord relay",
};

/** Relay connection counters (GalaCord relay rows only), as the bot's holder last wrote them. */
export type RelayCounters = {
  /** Lines said on Galaxy (Discord → Galaxy). */
  to_galaxy: number;
  /** Messages posted on Discord (Galaxy → Discord). */
  to_discord: number;
  /** Lines dropped (a backlog beyond its limit). */
  dropped: number;
  /** Lines waiting (both ways). */
  queued: number;
  /** When the last line went either way (ISO), null when none yet. */
  last_message_at: string | null;
};

export type SessionListItem = {
  purpose: SessionPurpose;
  /** The session's key (the account id; "bot" for the GalaCord bot). */
  key: string;
  account_id: string | null;
  nick: string | null;
  desired: SessionDesired;
  /** The row as its holder last wrote it. */
  actual: SessionActual;
  /** The one state every screen shows (joined with the holder's beat; decision 0027) and its words. */
  phase: SessionPhase;
  status: string;
  since: string;
  holder: string | null;
  /** False when the holder's beat expired; null when nobody holds it or Redis cannot tell. */
  holder_alive: boolean | null;
  attempt: number;
  next_try_at: string | null;
  /** The last error in the platform's words. */
  last_error: string | null;
  /** Why it stopped when the operator did not stop it (a takeover). */
  note: string | null;
  /** System Logs filtered to this session's entries. */
  logs_url: string;
  /** Where the purpose's own screen is. */
  page_url: string;
  relay: RelayCounters | null;
};

export type SessionsListAnswer = {
  sessions: SessionListItem[];
  total: number;
  page: number;
  page_size: number;
  page_count: number;
};

export type WorkerItem = {
  id: string;
  host: string;
  pid: number;
  mode: "in-process" | "standalone";
  state: "alive" | "lost";
  started_at: string;
  /** Its last beat (ISO) and how old it was when read. */
  beat_at: string;
  beat_age_seconds: number;
  /** Sessions held per purpose, as of its last beat. */
  sessions: Record<string, number>;
  capacity: Record<string, number>;
  /** Resident memory (bytes), null from a worker older than issue 31. */
  rss_bytes: number | null;
  version: string | null;
  /** Since when it is drained (it takes no sessions), null when it takes them. */
  drained_at: string | null;
  lost_at: string | null;
};

export type WorkersAnswer = { workers: WorkerItem[] };
export type DrainAnswer = { worker: WorkerItem; message: string };

export const OPS_TEXTS = {
  badPurpose: `purpose must be one of: ${LIST_PURPOSES.join(", ")}`,
  badState: `state must be one of: ${LIST_STATES.join(", ")}`,
  badPage: `page must be a whole number from 1 to ${SESSIONS_PAGE_MAX}`,
  badWorker: "worker must be a worker id of at most 200 characters",
  workerNotFound: (id: string) => `No running worker has the id ${id}`,
  draining: (id: string) => `Worker ${id} is draining: its sessions move to other workers, and it takes no new ones until it is undrained or restarted`,
  undrained: (id: string) => `Worker ${id} takes sessions again`,
  noneSelected: "Select at least one session",
  tooMany: `Select at most ${BULK_MAX} sessions at a time`,
  badSelection: "A selected session does not exist any more; reload the page",
  failedList: "Failed to load sessions",
  failedWorkers: "Failed to load workers",
  failedDrain: "Failed to drain worker",
  failedBulk: { stop: "Failed to stop sessions", start: "Failed to start sessions", restart: "Failed to restart sessions" },
} as const;

export type BulkAction = "stop" | "start" | "restart";

/** "Stopped 3 sessions" / "Started 1 session"; with failures: "…; 1 failed: <why>". */
export function bulkOutcomeText(action: BulkAction, done: number, failures: { label: string; message: string }[]): string {
  const verb = action === "stop" ? "Stopped" : action === "start" ? "Started" : "Restarted";
  const base = `${verb} ${done} session${done === 1 ? "" : "s"}`;
  if (!failures.length) return base;
  const first = failures.slice(0, 3).map((f) => `${f.label}: ${f.message}`);
  return `${base}; ${failures.length} failed: ${first.join("; ")}${failures.length > 3 ? "; …" : ""}`;
}

/** A session's id in forms and URLs: "purpose:key". */
export function sessionRef(s: { purpose: SessionPurpose; key: string }): string {
  return `${s.purpose}:${s.key}`;
}

export function parseSessionRef(ref: string): { purpose: SessionPurpose; key: string } | null {
  const i = ref.indexOf(":");
  if (i <= 0) return null;
  const purpose = ref.slice(0, i);
  const key = ref.slice(i + 1);
  if (!(LIST_PURPOSES as readonly string[]).includes(purpose) || !key || key.length > 100) return null;
  return { purpose: purpose as SessionPurpose, key };
}

/** "12.3 MB" */
export function formatBytes(n: number | null): string {
  if (n === null) return "—";
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} kB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export type SessionsFilter = {
  purpose?: SessionPurpose;
  state?: SessionPhase;
  worker?: string;
  q?: string;
  page: number;
};

/**
 * The list's query from a URL: strict for /api (a bad value is a 400 naming it), lenient for
 * the page (a stale bookmark still opens: a bad value is dropped).
 */
export function parseSessionsFilter(search: URLSearchParams, strict: boolean): { filter: SessionsFilter } | { error: string } {
  const one = (k: string) => {
    const v = search.getAll(k);
    return v.length ? v[v.length - 1]!.trim() : "";
  };
  const filter: SessionsFilter = { page: 1 };
  const purpose = one("purpose");
  if (purpose) {
    if ((LIST_PURPOSES as readonly string[]).includes(purpose)) filter.purpose = purpose as SessionPurpose;
    else if (strict) return { error: OPS_TEXTS.badPurpose };
  }
  const state = one("state");
  if (state) {
    if ((LIST_STATES as readonly string[]).includes(state)) filter.state = state as SessionPhase;
    else if (strict) return { error: OPS_TEXTS.badState };
  }
  const worker = one("worker");
  if (worker) {
    if (worker.length <= 200) filter.worker = worker;
    else if (strict) return { error: OPS_TEXTS.badWorker };
  }
  const q = one("q").slice(0, 100);
  if (q) filter.q = q;
  const page = one("page");
  if (page) {
    const n = /^\d{1,6}$/.test(page) ? Number(page) : NaN;
    if (n >= 1 && n <= SESSIONS_PAGE_MAX) filter.page = n;
    else if (strict) return { error: OPS_TEXTS.badPage };
  }
  return { filter };
}

/** The page's URL for a filter (defaults left out). */
export function sessionsUrl(f: Partial<SessionsFilter>, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  if (f.purpose) p.set("purpose", f.purpose);
  if (f.state) p.set("state", f.state);
  if (f.worker) p.set("worker", f.worker);
  if (f.q) p.set("q", f.q);
  if (f.page && f.page > 1) p.set("page", String(f.page));
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `/sessions?${s}` : "/sessions";
}
