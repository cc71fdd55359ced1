/**
 * Operations (issue 31): `GET /metrics` at 1,000 sessions (aim ≤ 50 ms) and how long a failed
 * session's alert takes to reach a local webhook (aim ≤ 5 s). Prints figures; asserts nothing.
 *
 *   node --import tsx bench/ops.ts          # or: npm run bench ops
 *
 * A private PostgreSQL database and Redis prefix; the metrics handler served by node:http as the
 * web process mounts it; the alert goes the whole way: `endSession(… failed …)` (what the
 * supervisor calls on a 451) → the engine → the `alerts` queue → a BullMQ worker in this
 * process → an HTTP POST to a receiver on loopback. Knobs: BENCH_SESSIONS (1000), BENCH_SCRAPES (50), BENCH_ALERTS (10).
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { privateDatabase, removeRedisKeysAtEnd, type Cleanup } from "./db";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1000);
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 50);
const ALERTS = Number(process.env.BENCH_ALERTS ?? 10);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function main() {
  const cleanups: Cleanup[] = [];
  try {
    const { url, dataDir } = await privateDatabase("gt_bench_ops", cleanups);
    const prefix = `gt-bench-ops-${crypto.randomBytes(3).toString("hex")}`;
    Object.assign(process.env, { DATABASE_URL: url.toString(), DATA_DIR: dataDir, QUEUE_PREFIX: prefix, START_REDIS: "false", NODE_ENV: "production" });
    removeRedisKeysAtEnd(cleanups, prefix);

    const { getDb, closeDb } = await import("~/db/client.server");
    const { sessions } = await import("~/db/schema");
    const { installMetricsCollectors } = await import("~/models/metrics.server");
    const { serveMetrics } = await import("~/utils/metrics.server");
    const { saveAlertDestinations } = await import("~/models/alert.server");
    const { endSession } = await import("~/models/session.server");
    const { processAlertJob } = await import("#jobs/processors/alerts");
    const { createWorkerConnection, queuePrefix } = await import("~/queue/redis.server");
    const { closeQueues } = await import("~/queue/queues.server");
    const { Worker } = await import("bullmq");

    const db = await getDb();
    const purposes = ["stalker", "trader", "collections", "relay-link"] as const;
    const actuals = ["active", "active", "active", "reconnecting", "waiting", "failed"] as const;
    const rows = Array.from({ length: SESSIONS }, (_, i) => ({
      purpose: purposes[i % purposes.length]!,
      key: String(80_000_000 + i),
      accountId: String(80_000_000 + i),
      desired: "run" as const,
      actual: actuals[i % actuals.length]!,
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insert(sessions).values(rows.slice(i, i + 500));

    // /metrics
    installMetricsCollectors();
    const server = http.createServer((req, res) => void serveMetrics(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    await fetch(base).then((r) => r.text()); // warm-up
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < SCRAPES; i++) {
      const t = performance.now();
      const text = await fetch(base).then((r) => r.text());
      times.push(performance.now() - t);
      bytes = text.length;
    }
    console.log(
      `GET /metrics at ${SESSIONS} sessions: median ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (${SCRAPES} scrapes, ${bytes} bytes; aim ≤ 50 ms)`,
    );
    server.close();

    // Alert latency
    const arrivals = new Map<string, number>();
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const p = JSON.parse(body) as { account_id?: string };
        if (p.account_id) arrivals.set(p.account_id, performance.now());
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    await saveAlertDestinations([{ kind: "webhook", url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, secret: "bench" }]);
    const worker = new Worker("alerts", processAlertJob, { connection: createWorkerConnection(), prefix: queuePrefix(), concurrency: 5 });
    worker.on("error", () => {});
    await worker.waitUntilReady();
    const latencies: number[] = [];
    for (let i = 0; i < ALERTS; i++) {
      const key = String(80_000_000 + i * purposes.length); // stalker rows
      const t = performance.now();
      await endSession("stalker", key, null, { actual: "failed", error: "Login failed: Invalid credentials" });
      for (;;) {
        const at = arrivals.get(key);
        if (at !== undefined) {
          latencies.push(at - t);
          break;
        }
        if (performance.now() - t > 30_000) {
          console.log(`alert for ${key}: not received within 30 s`);
          break;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    console.log(
      `failed session → alert at a local webhook: median ${pct(latencies, 50).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms (${latencies.length} of ${ALERTS} received; aim ≤ 5 s)`,
    );
    await worker.close();
    receiver.close();
    await closeQueues();
    await closeDb();
  } finally {
    for (const c of cleanups.reverse()) await c().catch((err: Error) => console.warn(`cleanup: ${err.message}`));
  }
  process.exit(0);
}

void main();
