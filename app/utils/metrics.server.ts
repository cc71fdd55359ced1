/**
 * Prometheus metrics (issue 31 item 3; docs/deploy.md "Metrics"): one prom-client registry per
 * process, the default Node process metrics, the counters and histograms the code feeds as it
 * works (HTTP requests, job durations, Galaxy logins, relay messages), and gauges read at
 * scrape time by collectors the process's entry registers (sessions, workers, queues: they
 * need the database and Redis, which this layer does not import).
 *
 * Labels stay bounded: purposes, states, queue names, outcome codes, route templates — never an
 * account id, a nick or a raw path.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import crypto from "node:crypto";
import client from "prom-client";
import { getEnv } from "./env.server";
import { remember } from "./remember.server";

type Metrics = ReturnType<typeof createMetrics>;

function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "gt_" });
  const httpRequests = new client.Counter({
    name: "gt_http_requests_total",
    help: "HTTP requests answered, by route template, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new client.Histogram({
    name: "gt_http_request_duration_seconds",
    help: "HTTP request durations, by route template, method and status",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const jobDuration = new client.Histogram({
    name: "gt_job_duration_seconds",
    help: "How long finished jobs ran, by queue and outcome (long-lived session jobs excluded)",
    labelNames: ["queue", "outcome"] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const galaxyLogins = new client.Counter({
    name: "gt_galaxy_logins_total",
    help: "Galaxy logins by outcome code (999 logged in, 451, 452, 950 … refused, connection: the server unreachable)",
    labelNames: ["code"] as const,
    registers: [registry],
  });
  const relayMessages = new client.Counter({
    name: "gt_relay_messages_total",
    help: "GalaCord relay messages by direction (to_discord, to_galaxy) and outcome (relayed, dropped)",
    labelNames: ["direction", "outcome"] as const,
    registers: [registry],
  });
  const relayLatency = new client.Histogram({
    name: "gt_relay_latency_seconds",
    help: "From a relayed message's arrival to its delivery on the other side, by direction",
    labelNames: ["direction"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });
  const liveStreams = new client.Gauge({
    name: "gt_live_streams_open",
    help: "Live-event streams (GET /api/events) this process holds open",
    registers: [registry],
  });
  return {
    registry,
    httpRequests,
    httpDuration,
    jobDuration,
    galaxyLogins,
    relayMessages,
    relayLatency,
    liveStreams,
    collectors: new Set<() => Promise<void>>(),
  };
}

export function metrics(): Metrics {
  return remember("metrics", createMetrics);
}

/** A gauge of this process's registry (created once), for scrape-time collectors. */
export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): client.Gauge<L> {
  const { registry } = metrics();
  return (registry.getSingleMetric(name) as client.Gauge<L> | undefined) ?? new client.Gauge({ name, help, labelNames, registers: [registry] });
}

/** Runs before each scrape (reads the database and Redis); registered once per process by its entry. */
export function addMetricsCollector(id: string, collect: () => Promise<void>): void {
  const g = remember(`metrics-collector:${id}`, () => ({ collect }));
  metrics().collectors.add(g.collect);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A bounded route label from a path: ids (digits, uuids, long tokens) become `:id`, at most
 * four segments; asset files one label. A path no route answered is `unmatched` (404s would
 * otherwise mint a label per probe).
 */
export function routeLabel(path: string, status: number): string {
  if (status === 404) return "unmatched";
  if (path.startsWith("/assets/")) return "/assets";
  const parts = path
    .replace(/\.data$/, "")
    .split("/")
    .filter(Boolean)
    .slice(0, 4)
    .map((p) => (/^\d+$/.test(p) || UUID.test(p) || p.length > 40 || /\d{5,}/.test(p) ? ":id" : p.toLowerCase()));
  return `/${parts.join("/")}`;
}

/** Express middleware: counts every answered request with its duration. */
export function httpMetrics() {
  const m = metrics();
  return (req: IncomingMessage & { path?: string }, res: ServerResponse, next: () => void) => {
    const start = process.hrtime.bigint();
    res.on("finish", () => {
      const path = req.path ?? new URL(req.url ?? "/", "http://x").pathname;
      const labels = { route: routeLabel(path, res.statusCode), method: (req.method ?? "GET").toUpperCase(), status: String(res.statusCode) };
      m.httpRequests.inc(labels);
      m.httpDuration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
    });
    next();
  };
}

export function countGalaxyLogin(code: string | null): void {
  metrics().galaxyLogins.inc({ code: code && /^\d{3}$/.test(code) ? code : (code ?? "other").replace(/[^a-z_]/gi, "").slice(0, 20) || "other" });
}

export type RelayDirection = "to_discord" | "to_galaxy";
export function countRelayMessage(direction: RelayDirection, outcome: "relayed" | "dropped", sinceMs?: number): void {
  const m = metrics();
  m.relayMessages.inc({ direction, outcome });
  if (outcome === "relayed" && sinceMs !== undefined) m.relayLatency.observe({ direction }, Math.max(0, Date.now() - sinceMs) / 1000);
}

export function observeJob(queue: string, outcome: "completed" | "failed", seconds: number): void {
  metrics().jobDuration.observe({ queue, outcome }, seconds);
}

/** Is this scrape allowed? A bearer METRICS_TOKEN when one is set; otherwise loopback only, and not through a proxy. */
export function metricsAllowed(req: IncomingMessage): boolean {
  const token = getEnv().METRICS_TOKEN;
  if (token) {
    const m = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "");
    if (!m) return false;
    const a = crypto.createHash("sha256").update(m[1]!).digest();
    const b = crypto.createHash("sha256").update(token).digest();
    return crypto.timingSafeEqual(a, b);
  }
  const ip = req.socket.remoteAddress ?? "";
  const loopback = ip === "127.0.0.1" || ip === "::1" || ip === "::ffff:127.0.0.1";
  return loopback && !req.headers["x-forwarded-for"] && !req.headers.forwarded;
}

export const METRICS_REFUSED = "Metrics need Authorization: Bearer <METRICS_TOKEN> (or, without METRICS_TOKEN, a request from this machine)";

/** The Prometheus text of this process (collectors run first, each bounded by their own timeouts). */
export async function metricsText(): Promise<string> {
  const m = metrics();
  await Promise.all([...m.collectors].map((c) => c().catch(() => undefined)));
  return m.registry.metrics();
}

/** GET /metrics for Express and a bare node:http server alike. */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!metricsAllowed(req)) {
    const text = METRICS_REFUSED;
    res.writeHead(401, { "Content-Type": "application/json", "Cache-Control": "no-store", "WWW-Authenticate": 'Bearer realm="metrics"' });
    res.end(JSON.stringify({ error: text, message: text }));
    return;
  }
  const body = await metricsText();
  res.writeHead(200, { "Content-Type": metrics().registry.contentType, "Cache-Control": "no-store" });
  res.end(body);
}
