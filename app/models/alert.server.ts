import crypto from "node:crypto";
import { eq, and } from "drizzle-orm";
import {
  ALERT_TEXTS,
  destinationTarget,
  type AlertEvent,
  type AlertPayload,
  type AlertSeverity,
  type AlertsResponse,
  type DeliveryResult,
  type DestinationInput,
  type DestinationView,
} from "#api/alerts";
import { PURPOSE_LABELS, PURPOSE_PAGES, type SessionPurpose } from "#api/sessions";
import { enqueue } from "~/queue/queues.server";
import { producerConnection, queuePrefix } from "~/queue/redis.server";
import { getDb } from "~/db/client.server";
import { appSettings, galacordAccounts, sessions, users } from "~/db/schema";
import { sendAlert, type Destination, type DiscordBot } from "~/utils/alert-send.server";
import { AppError } from "~/utils/app-error";
import { getEnv } from "~/utils/env.server";
import { errorText } from "~/utils/errors";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import { logEvent } from "./log.server";

/**
 * Alerts (issue 31 item 2; docs/decisions/0036): where they go, and the engine.
 *
 * Destinations live in `app_settings` under "alerts" (a webhook's secret encrypted at rest with
 * `encryptSecret`, never answered: views say `secret: "set"`).
 *
 * The engine: `raiseAlert` for an incident (a failed session, a lost worker, …) and
 * `clearAlert` when it is over. Both never throw and never wait on a destination:
 * - **one alert per incident**: the incident's key is set in Redis (`SET NX`) by the first
 *   raise; a raise while it is open sends nothing; `clearAlert` deletes it and sends one
 *   "back to normal";
 * - **rate-limited**: at most `ALERTS_PER_MINUTE` alerts a minute leave the app; beyond that
 *   they are only on System Logs (and their "back to normal" is not sent either);
 * - **retried with backoff**: one job per destination on the `alerts` queue (6 tries, 2 s
 *   doubling), run by any worker;
 * - **each alert on System Logs** (source `system`, details `{ alert: event, accountId, … }`).
 */

export const ALERTS_PER_MINUTE = 20;
/** An incident forgotten after this long (a raise after it alerts again). */
const INCIDENT_TTL_S = 7 * 24 * 3600;
const SETTINGS_KEY = "alerts";

type Stored =
  | { id: string; kind: "webhook"; url: string; secret: string | null }
  | { id: string; kind: "discord-webhook"; url: string }
  | { id: string; kind: "discord-channel"; channelId: string };

function destinationId(kind: string, target: string): string {
  return `d${crypto.createHash("sha256").update(`${kind}|${target}`).digest("hex").slice(0, 12)}`;
}

async function readStored(): Promise<Stored[]> {
  const db = await getDb();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, SETTINGS_KEY));
  const value = row?.value as { destinations?: Stored[] } | undefined;
  return Array.isArray(value?.destinations) ? value.destinations : [];
}

function view(d: Stored): DestinationView {
  if (d.kind === "webhook") return { id: d.id, kind: d.kind, url: d.url, ...(d.secret ? { secret: "set" as const } : {}) };
  if (d.kind === "discord-webhook") return { id: d.id, kind: d.kind, url: d.url };
  return { id: d.id, kind: d.kind, channel_id: d.channelId };
}

/** GET /api/alerts and the Settings card: the destinations, secrets as "set". */
export async function alertsView(): Promise<AlertsResponse> {
  return { destinations: (await readStored()).map(view) };
}

/** The destinations with their secrets decrypted (the senders only). */
export async function alertDestinations(): Promise<Destination[]> {
  return (await readStored()).map((d): Destination => {
    if (d.kind !== "webhook") return d;
    let secret: string | null = null;
    try {
      secret = d.secret ? decryptSecret(d.secret) : null;
    } catch {
      secret = null; // a key that changed: sent unsigned rather than not at all (System Logs says so on the test)
    }
    return { ...d, secret };
  });
}

/**
 * Replaces the destinations (PUT /api/alerts, the Settings forms). A webhook without `secret`
 * keeps the secret stored for the same URL; `secret: ""` removes it.
 */
export async function saveAlertDestinations(input: readonly DestinationInput[]): Promise<AlertsResponse> {
  const before = await readStored();
  const seen = new Set<string>();
  const next: Stored[] = input.map((d) => {
    const target = d.kind === "discord-channel" ? d.channel_id : d.url;
    const id = destinationId(d.kind, target);
    if (seen.has(id)) throw new AppError(400, ALERT_TEXTS.duplicate);
    seen.add(id);
    if (d.kind === "discord-channel") return { id, kind: d.kind, channelId: d.channel_id };
    if (d.kind === "discord-webhook") return { id, kind: d.kind, url: d.url };
    const old = before.find((b) => b.id === id);
    const secret = d.secret === undefined ? (old?.kind === "webhook" ? old.secret : null) : d.secret ? encryptSecret(d.secret) : null;
    return { id, kind: "webhook", url: d.url, secret };
  });
  const db = await getDb();
  const value = { destinations: next };
  await db
    .insert(appSettings)
    .values({ key: SETTINGS_KEY, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
  return { destinations: next.map(view) };
}

/** The GalaCord bot as a sender: its token and REST base, and whether its session is up. */
async function discordBot(): Promise<DiscordBot> {
  const env = getEnv();
  const db = await getDb();
  const [bot] = await db
    .select({ actual: sessions.actual })
    .from(sessions)
    .where(and(eq(sessions.purpose, "relay"), eq(sessions.key, "bot")));
  return { token: env.DISCORD_TOKEN ?? null, apiUrl: env.DISCORD_API_URL, running: bot?.actual === "active" };
}

/** Where links in alerts point: PUBLIC_URL, else this process's own address. */
export function appUrl(path: string): string {
  const env = getEnv();
  const base = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  return `${base.replace(/\/+$/, "")}${path}`;
}

/** POST /api/alerts/test and the Settings button: one test alert to each destination, now, and what each answered. */
export async function sendTestAlerts(by: string): Promise<DeliveryResult[]> {
  const dests = await alertDestinations();
  if (!dests.length) throw new AppError(400, ALERT_TEXTS.none);
  const alert: AlertPayload = {
    event: "test",
    severity: "info",
    message: `${ALERT_TEXTS.testMessage} (sent by ${by})`,
    since: new Date().toISOString(),
    url: appUrl("/settings"),
  };
  const bot = await discordBot();
  const results = await Promise.all(dests.map((d) => sendAlert(d, alert, bot)));
  const failed = results.filter((r) => !r.ok);
  await logEvent({
    type: failed.length ? "error" : "info",
    source: "system",
    message: `Test alert sent by ${by}: ${results.map((r) => `${r.target} → ${r.ok ? "delivered" : r.message}`).join("; ")}`,
    details: { alert: "test", results: results.map((r) => ({ target: r.target, ok: r.ok, status: r.status })) },
  });
  return results;
}

// ——— the engine ———

export type AlertInput = {
  /** One incident, one alert: "session:stalker:123", "worker:<id>", "backup". */
  incident: string;
  event: Exclude<AlertEvent, "test">;
  severity: Exclude<AlertSeverity, "resolved" | "info">;
  message: string;
  accountId?: string | null;
  nick?: string | null;
  purpose?: SessionPurpose;
  /** A path of this app ("/logs?account=123"). */
  path: string;
  since?: Date;
};

type OpenIncident = Omit<AlertPayload, "severity"> & { suppressed?: boolean };

const keys = {
  incident: (id: string) => `${queuePrefix()}:alerts:open:${id}`,
  rate: (minute: number) => `${queuePrefix()}:alerts:rate:${minute}`,
};

/** Within the minute's budget? Counts this alert. */
async function withinRate(): Promise<boolean> {
  const redis = producerConnection();
  const key = keys.rate(Math.floor(Date.now() / 60_000));
  const [[, n]] = (await redis.multi().incr(key).expire(key, 120).exec()) as [[unknown, number], unknown];
  return n <= ALERTS_PER_MINUTE;
}

/** The nick of an account as the app knows it (characters, GalaCord), for the alert's text. */
export async function accountNick(accountId: string): Promise<string | null> {
  const db = await getDb();
  const [u] = await db.select({ nick: users.nick }).from(users).where(eq(users.accountId, accountId));
  if (u) return u.nick;
  const [g] = await db.select({ nick: galacordAccounts.nick }).from(galacordAccounts).where(eq(galacordAccounts.accountId, accountId));
  return g?.nick ?? null;
}

async function dispatch(alert: AlertPayload, incident: string): Promise<number> {
  const dests = await readStored();
  for (const d of dests) {
    // The job id makes a re-raise of the same alert (a retried caller) one delivery.
    const jobId = `alert-${crypto.createHash("sha256").update(`${incident}|${alert.severity}|${alert.since}|${d.id}`).digest("hex").slice(0, 24)}`;
    await enqueue("alerts", { kind: "deliver", destinationId: d.id, alert, incident }, { jobId });
  }
  return dests.length;
}

function logLine(alert: AlertPayload, note = ""): Parameters<typeof logEvent>[0] {
  return {
    type: alert.severity === "resolved" ? "info" : "error",
    source: "system",
    message: `Alert: ${alert.message}${note}`,
    details: {
      alert: alert.event,
      severity: alert.severity,
      ...(alert.account_id ? { accountId: alert.account_id } : {}),
      ...(alert.purpose ? { purpose: alert.purpose } : {}),
      since: alert.since,
      url: alert.url,
    },
  };
}

/**
 * Raises an alert for an incident (once per incident until `clearAlert`). Never throws, and
 * returns as soon as the deliveries are queued: callers do not wait on a destination.
 */
export async function raiseAlert(input: AlertInput): Promise<"sent" | "off" | "duplicate" | "rate-limited" | "failed"> {
  try {
    // Alerts are off until an admin names a destination: nothing is counted, opened or logged.
    if (!(await readStored()).length) return "off";
    const nick = input.nick ?? (input.accountId ? await accountNick(input.accountId).catch(() => null) : null);
    const alert: AlertPayload = {
      event: input.event,
      severity: input.severity,
      ...(input.accountId ? { account_id: input.accountId } : {}),
      ...(nick ? { nick } : {}),
      ...(input.purpose ? { purpose: input.purpose } : {}),
      message: input.message,
      since: (input.since ?? new Date()).toISOString(),
      url: appUrl(input.path),
    };
    const redis = producerConnection();
    const open: OpenIncident = { ...alert };
    const first = await redis.set(keys.incident(input.incident), JSON.stringify(open), "EX", INCIDENT_TTL_S, "NX");
    if (first !== "OK") return "duplicate";
    if (!(await withinRate())) {
      await redis.set(keys.incident(input.incident), JSON.stringify({ ...open, suppressed: true }), "EX", INCIDENT_TTL_S);
      await logEvent(logLine(alert, ` (not sent: more than ${ALERTS_PER_MINUTE} alerts this minute)`));
      return "rate-limited";
    }
    await logEvent(logLine(alert));
    await dispatch(alert, input.incident);
    return "sent";
  } catch (err) {
    await logEvent({
      type: "error",
      source: "system",
      message: `Alert could not be sent: ${input.message} (${errorText(err)})`,
      details: { alert: input.event },
    });
    return "failed";
  }
}

/** Is this incident open (an alert was raised and not cleared)? */
export async function alertOpen(incident: string): Promise<boolean> {
  return (await producerConnection().exists(keys.incident(incident))) === 1;
}

/**
 * Ends an incident: one "back to normal" when an alert was sent for it. Never throws; a
 * call for an incident that is not open does nothing (cheap: one Redis GETDEL).
 */
export async function clearAlert(incident: string, text: string | ((open: AlertPayload) => string)): Promise<boolean> {
  let message = typeof text === "string" ? text : incident;
  try {
    const raw = await producerConnection().getdel(keys.incident(incident));
    if (!raw) return false;
    const open = JSON.parse(raw) as OpenIncident;
    if (typeof text === "function") message = text({ ...open, severity: "resolved" });
    const alert: AlertPayload = {
      event: open.event,
      severity: "resolved",
      ...(open.account_id ? { account_id: open.account_id } : {}),
      ...(open.nick ? { nick: open.nick } : {}),
      ...(open.purpose ? { purpose: open.purpose } : {}),
      message: `Back to normal: ${message}`,
      since: open.since,
      url: open.url,
    };
    await logEvent(logLine(alert, open.suppressed ? " (not sent: its alert was not sent either)" : ""));
    if (!open.suppressed) await dispatch(alert, incident);
    return true;
  } catch (err) {
    await logEvent({ type: "error", source: "system", message: `Alert could not be sent: Back to normal: ${message} (${errorText(err)})` });
    return false;
  }
}

/**
 * The `alerts` queue's work: one alert to one destination. Throws on a failure so the queue
 * retries with backoff; the last failure is on System Logs (`final`).
 */
export async function deliverAlert(destinationId: string, alert: AlertPayload, final: boolean): Promise<DeliveryResult | null> {
  const dest = (await alertDestinations()).find((d) => d.id === destinationId);
  if (!dest) return null; // removed meanwhile: nothing to do
  const result = await sendAlert(dest, alert, await discordBot());
  if (!result.ok) {
    if (final) {
      await logEvent({
        type: "error",
        source: "system",
        message: `Alert not delivered to ${result.target}: ${result.message} (gave up after its retries): ${alert.message}`,
        details: { alert: alert.event, ...(alert.account_id ? { accountId: alert.account_id } : {}) },
      });
    }
    throw new Error(result.message);
  }
  return result;
}

// ——— the events (issue 31 item 2 "Alerts for: …") ———

/** "Stalker", "Trading run", "GalaCord bot": a session's kind at the start of an alert. */
function sessionLabel(purpose: SessionPurpose): string {
  const label = PURPOSE_LABELS[purpose].replace(/^the /, "");
  return `${label[0]!.toUpperCase()}${label.slice(1)}`;
}

/** A session that failed and will not retry (451, 452 after its retries, 950, the server down). */
export function alertSessionFailed(row: { purpose: SessionPurpose; key: string; accountId: string | null; error: string | null; since: Date }): void {
  const who = row.accountId ?? row.key;
  void (async () => {
    const nick = row.accountId ? await accountNick(row.accountId).catch(() => null) : null;
    const label = sessionLabel(row.purpose);
    const name = nick ? `${nick} (${who})` : who;
    await raiseAlert({
      incident: `session:${row.purpose}:${row.key}`,
      event: "session.failed",
      severity: "critical",
      accountId: row.accountId,
      nick,
      purpose: row.purpose,
      message: `${label} session of ${name} failed: ${row.error ?? "no reason given"}`,
      path: row.accountId ? `/logs?account=${encodeURIComponent(row.accountId)}` : PURPOSE_PAGES[row.purpose],
      since: row.since,
    });
  })();
}

/** The session is up again: its failure alert (if any) gets its "back to normal". */
export function clearSessionAlert(purpose: SessionPurpose, key: string): void {
  const label = sessionLabel(purpose);
  void clearAlert(`session:${purpose}:${key}`, (open) => `${label} session of ${open.nick ? `${open.nick} (${open.account_id ?? key})` : key} is active again`);
}

export { destinationTarget };

/** A refresh (Bowling Bots, Characters) where every account failed; a later one that reached any clears it. */
export async function alertRefreshOutcome(section: "bowling" | "characters", r: { total: number; failed: number; reason?: string | null }): Promise<void> {
  const incident = `refresh:${section}`;
  const name = section === "bowling" ? "Bowling Bots" : "Characters";
  if (r.total > 0 && r.failed >= r.total) {
    await raiseAlert({
      incident,
      event: "refresh.failed",
      severity: "critical",
      message: `${name} refresh failed for every account (${r.total})${r.reason ? `: ${r.reason}` : ""}`,
      path: section === "bowling" ? "/gifts" : "/characters",
    });
  } else await clearAlert(incident, `${name} refresh reached ${r.total - r.failed} of ${r.total} accounts`);
}

/** The daily backup failed; the next one that is written clears it. */
export async function alertBackupOutcome(failure: string | null): Promise<void> {
  if (failure)
    await raiseAlert({ incident: "backup", event: "backup.failed", severity: "critical", message: `Daily backup failed: ${failure}`, path: "/settings" });
  else await clearAlert("backup", "the daily backup was written");
}

/** An Auto cycle that failed (Auto stopped); the next cycle of that profile that completes clears it. */
export async function alertAutoCycle(p: { operatorId: string; profileId: string; accountId: string; run: number }, failure: string | null): Promise<void> {
  const incident = `auto:${p.operatorId}:${p.profileId}`;
  if (!failure) {
    await clearAlert(incident, `an Auto cycle of ${p.accountId} completed`);
    return;
  }
  const nick = await accountNick(p.accountId).catch(() => null);
  await raiseAlert({
    incident,
    event: "auto.failed",
    severity: "critical",
    accountId: p.accountId,
    nick,
    purpose: "collections",
    message: `Auto cycle ${p.run} of ${nick ? `${nick} (${p.accountId})` : p.accountId} failed: ${failure}`,
    path: "/collections",
  });
}

const NO_WORKER_AFTER_MS = 60_000;

/**
 * The beat watcher's part (app/models/session-liveness.server.ts, each second): a worker lost
 * (one alert per worker, "back to normal" once no session waits for a worker any more), and
 * no worker at all for more than a minute ("back to normal" when one beats again).
 */
export async function checkWorkerAlerts(s: { lost: readonly string[]; waiting: () => Promise<number>; alive: number | null; redisUp: boolean }): Promise<void> {
  if (!s.redisUp) return;
  const redis = producerConnection();
  const lostSet = `${queuePrefix()}:alerts:lost-workers`;
  // The count is read only when a worker was lost or one's alert is open (not every second).
  const waiting = s.lost.length || (await redis.scard(lostSet)) ? await s.waiting() : 0;
  for (const id of s.lost) {
    const outcome = await raiseAlert({
      incident: `worker:${id}`,
      event: "worker.lost",
      severity: "warning",
      message: `Worker ${id} lost (its heartbeat expired): ${waiting} session${waiting === 1 ? "" : "s"} wait for a worker`,
      path: "/sessions",
    });
    // Watched for its "back to normal" only when an alert was opened (alerts on).
    if (outcome === "sent" || outcome === "rate-limited") await redis.sadd(lostSet, id);
  }
  if (!s.lost.length && waiting === 0) {
    const open = await redis.smembers(lostSet);
    for (const id of open) {
      await redis.srem(lostSet, id);
      await clearAlert(`worker:${id}`, `the sessions of worker ${id} run on other workers`);
    }
  }
  if (s.alive === null) return;
  const sinceKey = `${queuePrefix()}:alerts:no-worker-since`;
  if (s.alive > 0) {
    if (await redis.del(sinceKey)) await clearAlert("worker:none", "a worker is running again");
    return;
  }
  await redis.set(sinceKey, String(Date.now()), "EX", INCIDENT_TTL_S, "NX");
  const since = Number(await redis.get(sinceKey));
  if (Date.now() - since > NO_WORKER_AFTER_MS) {
    await raiseAlert({
      incident: "worker:none",
      event: "worker.none",
      severity: "critical",
      message: "No worker is running: sessions, refreshes and Auto cycles wait",
      path: "/sessions",
      since: new Date(since),
    });
  }
}
