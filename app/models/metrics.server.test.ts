/**
 * GET /metrics (issue 31 item 3): the web process's and a standalone worker's, scraped over
 * real HTTP and read with a Prometheus text-format parser (parse-prometheus-text-format):
 * sessions by purpose and actual state, workers alive, queue jobs by state, HTTP requests by
 * route and status, the default process metrics; bounded labels (no account id); the guard
 * (METRICS_TOKEN as a bearer token, or loopback only and not through a proxy without it).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import parse, { type MetricFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { enqueue, getQueue } from "~/queue/queues.server";
import { deleteKeys, freePort, spawnWorker, waitFor, type WorkerChild } from "#jobs/test-helpers";
import { getDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { getEnv, resetEnv } from "~/utils/env.server";
import { httpMetrics, METRICS_REFUSED, routeLabel, serveMetrics } from "~/utils/metrics.server";
import { installMetricsCollectors } from "./metrics.server";

let server: http.Server;
let base = "";

beforeAll(async () => {
  installMetricsCollectors();
  // As app/boot.server.ts mounts it: the request counter, then /metrics.
  const app = express();
  app.use(httpMetrics());
  app.get("/metrics", (req, res, next) => void serveMetrics(req, res).catch(next));
  app.get("/api/users/:id", (_req, res) => void res.json({ ok: true }));
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});
beforeEach(async () => {
  await (await getDb()).delete(sessions);
  delete process.env.METRICS_TOKEN;
  resetEnv();
});

async function scrape(url = `${base}/metrics`, headers: Record<string, string> = {}): Promise<MetricFamily[]> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}
const family = (all: MetricFamily[], name: string) => all.find((f) => f.name === name);
const value = (all: MetricFamily[], name: string, labels: Record<string, string>) =>
  family(all, name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value;

describe("GET /metrics on the web process", () => {
  it("sessions by purpose and actual state, queue jobs by state, workers alive, HTTP requests by route template, the process metrics", async () => {
    const db = await getDb();
    await db.insert(sessions).values([
      { purpose: "stalker", key: "73000001", accountId: "73000001", desired: "run", actual: "active" },
      { purpose: "stalker", key: "73000002", accountId: "73000002", desired: "run", actual: "active" },
      { purpose: "trader", key: "73000003", accountId: "73000003", desired: "stop", actual: "failed", error: "Login failed: Invalid credentials" },
    ]);
    await getQueue("system").obliterate({ force: true });
    await enqueue("system", { kind: "probe", ms: 1 }, { delay: 60_000 });
    await fetch(`${base}/api/users/73000001`);

    const all = await scrape();
    expect(value(all, "gt_sessions", { purpose: "stalker", state: "active" })).toBe("2");
    expect(value(all, "gt_sessions", { purpose: "trader", state: "failed" })).toBe("1");
    expect(value(all, "gt_sessions", { purpose: "collections", state: "active" })).toBe("0");
    expect(family(all, "gt_sessions")?.type).toBe("GAUGE");
    expect(value(all, "gt_queue_jobs", { queue: "system", state: "delayed" })).toBe("1");
    expect(value(all, "gt_queue_jobs", { queue: "alerts", state: "waiting" })).toBe("0");
    expect(family(all, "gt_workers_alive")?.metrics[0]?.value).toMatch(/^\d+$/);
    // The route template, not the account id.
    expect(value(all, "gt_http_requests_total", { route: "/api/users/:id", method: "GET", status: "200" })).toBe("1");
    expect(family(all, "gt_http_request_duration_seconds")?.type).toBe("HISTOGRAM");
    for (const name of ["gt_galaxy_logins_total", "gt_relay_messages_total", "gt_relay_latency_seconds", "gt_job_duration_seconds", "gt_live_streams_open"])
      expect(family(all, name), name).toBeDefined();
    expect(family(all, "gt_process_resident_memory_bytes")?.metrics[0]?.value).toMatch(/^\d+/);
    expect(family(all, "gt_nodejs_eventloop_lag_seconds")).toBeDefined();
    // Labels stay bounded: no account id anywhere.
    for (const f of all) for (const m of f.metrics) expect(JSON.stringify(m.labels ?? {}), f.name).not.toMatch(/7300000\d/);
  });

  it("route labels are bounded: ids become :id, unanswered paths one label", () => {
    expect(routeLabel("/api/users/73000001", 200)).toBe("/api/users/:id");
    expect(routeLabel("/api/rates/3f2a7c1e-0b4d-4c8e-9f00-1a2b3c4d5e6f", 204)).toBe("/api/rates/:id");
    expect(routeLabel("/wp-admin/anything", 404)).toBe("unmatched");
    expect(routeLabel("/characters.data", 200)).toBe("/characters");
  });

  it("with METRICS_TOKEN: 401 {error, message} without the bearer token or with another, 200 with it", async () => {
    process.env.METRICS_TOKEN = "metrics-token-0123456789";
    resetEnv();
    for (const headers of [{}, { Authorization: "Bearer wrong-token-000000000" }] as Record<string, string>[]) {
      const res = await fetch(`${base}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: METRICS_REFUSED, message: METRICS_REFUSED });
    }
    expect(family(await scrape(`${base}/metrics`, { Authorization: "Bearer metrics-token-0123456789" }), "gt_sessions")).toBeDefined();
  });

  it("without METRICS_TOKEN: loopback only, and not a request a proxy forwarded", async () => {
    const res = await fetch(`${base}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.9" } });
    expect(res.status).toBe(401);
  });
});

describe("GET /metrics on a standalone worker (METRICS_PORT)", () => {
  let worker: WorkerChild | undefined;
  afterAll(async () => {
    worker?.child.kill("SIGTERM");
    await worker?.exited;
  });

  it("serves the same metrics on its own port, guarded by METRICS_TOKEN", async () => {
    const port = await freePort();
    worker = spawnWorker({ METRICS_PORT: String(port), METRICS_TOKEN: "worker-metrics-token-42" });
    const url = `http://127.0.0.1:${port}/metrics`;
    await waitFor(
      "the worker's metrics port",
      () =>
        fetch(url).then(
          (r) => r.status === 401,
          () => false,
        ),
      30_000,
    );
    const all = await scrape(url, { Authorization: "Bearer worker-metrics-token-42" });
    expect(family(all, "gt_sessions")).toBeDefined();
    expect(family(all, "gt_queue_jobs")).toBeDefined();
    expect(family(all, "gt_process_cpu_seconds_total")).toBeDefined();
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });
});
