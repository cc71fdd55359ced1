import { and, asc, eq, ilike, inArray, notInArray, or, sql, type SQL } from "drizzle-orm";
import {
  OPS_TEXTS,
  SESSIONS_PAGE_SIZE,
  bulkOutcomeText,
  type BulkAction,
  type RelayCounters,
  type SessionListItem,
  type SessionsListAnswer,
  type WorkerItem,
} from "#api/operations";
import { HOSTED_PURPOSES, PURPOSE_PAGES, sessionLogsUrl, type SessionPhase, type SessionPurpose, type SessionView } from "#api/sessions";
import { jobEngineDetails, setWorkerDrained, type WorkerInfo } from "~/queue/status.server";
import { getDb } from "~/db/client.server";
import { collectionsProfiles, galacordAccounts, galaxyUserAgents, sessions, users } from "~/db/schema";
import { AppError } from "~/utils/app-error";
import { errorText } from "~/utils/errors";
import { connectAccount as connectCollections, disconnectAccount as disconnectCollections } from "./collections-connection.server";
import { connectAccount as connectRelayLink, getSavedAccount, startBot, stopBot, stopConnection } from "./galacord.server";
import { sessionLiveness, toView } from "./session.server";
import { startStalker, stopStalker } from "./stalker.server";
import { startTrader, stopTrader } from "./trader.server";

/**
 * The Sessions page (issue 31 item 1; docs/sessions.md "The Sessions page"): every session of
 * every purpose in one list, one bounded page at a time, filtered by purpose, state (the phase
 * every screen shows) and worker, searched by nick or account id; the workers with their
 * beats; bulk stop/start/restart through each purpose's own model (so a bulk start checks what
 * the section's own Start checks); drain.
 *
 * One source of truth: the rows of `sessions` joined with the workers' beats at read time
 * (decision 0027), the same `SessionView` the section screens show.
 */

export type SessionsQuery = {
  purpose?: SessionPurpose;
  state?: SessionPhase;
  worker?: string;
  q?: string;
  page: number;
};

/**
 * The phase of a row in SQL (api/sessions.ts `sessionPhase`, the same rules), so the state
 * filter and the order run in the database. `alive` is the live workers' ids (null: Redis cannot
 * tell, every holder counts as alive, as the views do).
 */
function phaseSql(alive: readonly string[] | null): SQL<SessionPhase> {
  const dead =
    alive === null
      ? sql`false`
      : alive.length
        ? sql`(${sessions.holder} is not null and ${notInArray(sessions.holder, [...alive])})`
        : sql`(${sessions.holder} is not null)`;
  return sql<SessionPhase>`case
    when ${sessions.actual} = 'failed' then 'failed'
    when ${sessions.desired} <> 'run' or ${sessions.actual} = 'stopped' then 'stopped'
    when ${dead} or ${sessions.actual} = 'waiting' then 'waiting'
    when ${sessions.actual} = 'connecting' and ${sessions.holder} is null and ${inArray(sessions.purpose, [...HOSTED_PURPOSES])} then 'waiting'
    when ${sessions.actual} = 'reconnecting' and ${sessions.nextRetryAt} > now() then 'retrying'
    when ${sessions.actual} in ('connecting', 'reconnecting') then 'connecting'
    else 'active' end`;
}

/** Problems first: waiting, failed, retrying, connecting, then active, then stopped. */
const PHASE_RANK: Record<SessionPhase, number> = { waiting: 0, failed: 1, retrying: 2, connecting: 3, active: 4, stopped: 5 };

/**
 * The nick of a session's account: the Characters user, else GalaCord's saved account, else a
 * Collections profile, else a registered user agent (one indexed lookup each, per row of a page).
 */
// Qualified by hand: drizzle names a column bare in a one-table select, and inside these
// subqueries a bare "account_id" would be the subquery's own table's.
const sessionAccount = sql.raw(`"sessions"."account_id"`);
const nickSql = sql<string | null>`coalesce(
  (select ${users.nick} from ${users} where ${users.accountId} = ${sessionAccount} limit 1),
  (select ${galacordAccounts.nick} from ${galacordAccounts} where ${galacordAccounts.accountId} = ${sessionAccount} limit 1),
  (select ${collectionsProfiles.nick} from ${collectionsProfiles} where ${collectionsProfiles.accountId} = ${sessionAccount} order by ${collectionsProfiles.lastUsed} desc limit 1),
  (select ${galaxyUserAgents.nick} from ${galaxyUserAgents} where ${galaxyUserAgents.accountId} = ${sessionAccount} limit 1))`;

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** GET /api/sessions and the page's list: one page, its total, in the order above. */
export async function listSessions(query: SessionsQuery): Promise<SessionsListAnswer> {
  const db = await getDb();
  const jobs = await jobEngineDetails().catch(() => null);
  const alive = jobs && jobs.redis === "up" ? jobs.workers.map((w) => w.id) : null;
  const phase = phaseSql(alive);
  const where: (SQL | undefined)[] = [];
  if (query.purpose) where.push(eq(sessions.purpose, query.purpose));
  if (query.state) where.push(sql`${phase} = ${query.state}`);
  if (query.worker) where.push(eq(sessions.holder, query.worker));
  const q = query.q?.trim();
  if (q) {
    const like = `%${escapeLike(q)}%`;
    where.push(or(ilike(sessions.key, like), ilike(sessions.accountId, like), sql`${nickSql} ilike ${like}`));
  }
  const cond = and(...where);
  const size = SESSIONS_PAGE_SIZE;
  const rank = sql`case ${phase} ${sql.raw(
    Object.entries(PHASE_RANK)
      .map(([p, r]) => `when '${p}' then ${r}`)
      .join(" "),
  )} end`;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ row: sessions, nick: nickSql })
      .from(sessions)
      .where(cond)
      .orderBy(rank, asc(sessions.purpose), asc(sessions.key))
      .limit(size)
      .offset((query.page - 1) * size),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(sessions)
      .where(cond) as Promise<{ total: number }[]>,
  ]);
  const live = rows.some((r) => r.row.desired === "run") ? await sessionLiveness(rows.map((r) => r.row.holder)) : null;
  return {
    sessions: rows.map((r) => listItem(toView(r.row, live), r.nick)),
    total,
    page: query.page,
    page_size: size,
    page_count: Math.ceil(total / size),
  };
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

function relayCounters(s: SessionView): RelayCounters | null {
  if (s.purpose !== "relay-link") return null;
  const i = s.info;
  return {
    to_galaxy: num(i.toGalaxy),
    to_discord: num(i.toDiscord),
    dropped: num(i.dropped),
    queued: num(i.queued),
    last_message_at: typeof i.lastMessageAt === "string" ? i.lastMessageAt : null,
  };
}

export function listItem(s: SessionView, nick: string | null): SessionListItem {
  return {
    purpose: s.purpose,
    key: s.key,
    account_id: s.accountId,
    nick,
    desired: s.desired,
    actual: s.actual,
    phase: s.phase,
    status: s.status,
    since: s.since,
    holder: s.holder,
    holder_alive: s.holderAlive,
    attempt: s.attempt,
    next_try_at: s.nextRetryAt,
    last_error: s.error,
    note: s.note,
    logs_url: sessionLogsUrl(s),
    page_url: PURPOSE_PAGES[s.purpose],
    relay: relayCounters(s),
  };
}

// --- workers --------------------------------------------------------------------------------

export function workerItem(w: WorkerInfo): WorkerItem {
  return {
    id: w.id,
    host: w.host,
    pid: w.pid,
    mode: w.mode,
    state: w.state,
    started_at: w.startedAt,
    beat_at: new Date(Date.now() - w.beatAgeMs).toISOString(),
    beat_age_seconds: Math.round(w.beatAgeMs / 100) / 10,
    sessions: w.sessions,
    capacity: w.capacity,
    rss_bytes: w.rssBytes,
    version: w.version,
    drained_at: w.drainedAt,
    lost_at: w.lostAt ?? null,
  };
}

/** GET /api/workers: the live workers, then the ones lost within the last 10 minutes. 503 while Redis is down. */
export async function listWorkers(): Promise<WorkerItem[]> {
  const jobs = await jobEngineDetails();
  if (jobs.redis !== "up") throw jobEngineDown();
  return [...jobs.workers, ...jobs.lost].map(workerItem);
}

function jobEngineDown(): AppError {
  return new AppError(503, "Job engine offline: Redis is not reachable", { headers: { "Retry-After": "5" } });
}

/** Drain (or undrain) a live worker; 404 when no live worker has the id. Returns it as it is now. */
export async function drainWorker(id: string, drained: boolean): Promise<{ worker: WorkerItem; message: string }> {
  let found: boolean;
  try {
    found = await setWorkerDrained(id, drained);
  } catch {
    throw jobEngineDown();
  }
  if (!found) throw new AppError(404, OPS_TEXTS.workerNotFound(id));
  const jobs = await jobEngineDetails();
  const info = jobs.workers.find((w) => w.id === id);
  const worker = info ? workerItem(info) : null;
  const now = new Date().toISOString();
  return {
    worker: worker
      ? { ...worker, drained_at: drained ? (worker.drained_at ?? now) : null }
      : {
          id,
          host: "",
          pid: 0,
          mode: "standalone",
          state: "alive",
          started_at: "",
          beat_at: now,
          beat_age_seconds: 0,
          sessions: {},
          capacity: {},
          rss_bytes: null,
          version: null,
          drained_at: drained ? now : null,
          lost_at: null,
        },
    message: drained ? OPS_TEXTS.draining(id) : OPS_TEXTS.undrained(id),
  };
}

// --- bulk actions ---------------------------------------------------------------------------

export type SessionTarget = { purpose: SessionPurpose; key: string };

async function startOne(t: SessionTarget): Promise<void> {
  switch (t.purpose) {
    case "stalker":
      await startStalker(t.key);
      return;
    case "trader":
      await startTrader(t.key);
      return;
    case "collections":
      await connectCollections(t.key);
      return;
    case "relay":
      await startBot();
      return;
    case "relay-link": {
      const saved = await getSavedAccount(t.key);
      if (!saved) throw new AppError(404, OPS_TEXTS.badSelection);
      await connectRelayLink(t.key, saved.channelId);
      return;
    }
  }
}

async function stopOne(t: SessionTarget): Promise<void> {
  switch (t.purpose) {
    case "stalker":
      await stopStalker(t.key);
      return;
    case "trader":
      await stopTrader(t.key);
      return;
    case "collections":
      await disconnectCollections(t.key);
      return;
    case "relay":
      await stopBot();
      return;
    case "relay-link":
      await stopConnection(t.key);
      return;
  }
}

/** The rows of these targets that exist (a bulk action names only sessions the list showed). */
async function existing(targets: readonly SessionTarget[]): Promise<Map<string, { nick: string | null; accountId: string | null; desired: string }>> {
  if (!targets.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ purpose: sessions.purpose, key: sessions.key, accountId: sessions.accountId, desired: sessions.desired, nick: nickSql })
    .from(sessions)
    .where(or(...targets.map((t) => and(eq(sessions.purpose, t.purpose), eq(sessions.key, t.key)))));
  return new Map(rows.map((r) => [`${r.purpose}:${r.key}`, r]));
}

export type BulkOutcome = { ok: boolean; message: string; done: SessionTarget[]; failed: { target: SessionTarget; message: string }[] };

/**
 * Stop, start or restart the selected sessions, each through its purpose's own model (the same
 * checks and texts as the section's buttons: a held account is refused with the holder named).
 * A restart stops then starts (the holder sends QUIT :ds first; the job runs again as soon as
 * it ended). Tells the truth: how many, and which failed with the platform's or the model's words.
 */
export async function bulkSessions(action: BulkAction, targets: readonly SessionTarget[]): Promise<BulkOutcome> {
  const rows = await existing(targets);
  const done: SessionTarget[] = [];
  const failed: BulkOutcome["failed"] = [];
  // The bot before its relay connections on a start (they connect once it runs); after them on a stop.
  const order = [...targets].sort((a, b) => (a.purpose === "relay" ? -1 : b.purpose === "relay" ? 1 : 0) * (action === "stop" ? -1 : 1));
  for (const t of order) {
    const row = rows.get(`${t.purpose}:${t.key}`);
    if (!row) {
      failed.push({ target: t, message: OPS_TEXTS.badSelection });
      continue;
    }
    try {
      if (action !== "start") await stopOne(t);
      if (action !== "stop") await startOne(t);
      done.push(t);
    } catch (err) {
      failed.push({ target: t, message: err instanceof AppError ? err.message : errorText(err) });
    }
  }
  const label = (t: SessionTarget) => {
    const row = rows.get(`${t.purpose}:${t.key}`);
    const id = row?.accountId ?? t.key;
    return row?.nick ? `${row.nick} (${id})` : id;
  };
  return {
    ok: failed.length === 0,
    message: bulkOutcomeText(
      action,
      done.length,
      failed.map((f) => ({ label: label(f.target), message: f.message })),
    ),
    done,
    failed,
  };
}

/** Sessions among these whose stop loses something (a trading run's position and counts: its next start is a fresh run). */
export function stopLoses(targets: readonly SessionTarget[]): SessionTarget[] {
  return targets.filter((t) => t.purpose === "trader");
}

/** The workers (alive and lost) for the filter's choices, by id. */
export async function workerIds(): Promise<string[]> {
  const jobs = await jobEngineDetails().catch(() => null);
  return jobs ? [...jobs.workers, ...jobs.lost].map((w) => w.id) : [];
}
