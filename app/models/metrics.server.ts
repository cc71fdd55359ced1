import { count, sql } from "drizzle-orm";
import { HOSTED_PURPOSES, type SessionActual } from "#api/sessions";
import { getQueue, producerReady, QUEUE_NAMES } from "~/queue/queues.server";
import { withTimeout } from "~/queue/redis.server";
import { jobEngineDetails } from "~/queue/status.server";
import { getDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { addMetricsCollector, gauge } from "~/utils/metrics.server";

/**
 * The scrape-time gauges of /metrics (issue 31 item 3; app/utils/metrics.server.ts): sessions by
 * purpose and actual state (one grouped count: bench/metrics.ts, ≤ 50 ms at 1,000 sessions),
 * workers alive (their heartbeats, decision 0027), and the jobs of every queue by state.
 * Registered once per process by its entry (the web process, each worker).
 */
const ACTUALS: SessionActual[] = ["waiting", "connecting", "active", "reconnecting", "stopped", "failed"];
const JOB_STATES = ["waiting", "active", "delayed", "failed", "completed"] as const;
/** A scrape answers within this even when Redis is slow (the gauges keep their last values). */
const REDIS_WAIT_MS = 1_000;

export function installMetricsCollectors(): void {
  const sessionsGauge = gauge("gt_sessions", "Sessions by purpose and actual state (the sessions table)", ["purpose", "state"]);
  const workersGauge = gauge("gt_workers_alive", "Workers whose heartbeat is alive", []);
  const queueGauge = gauge("gt_queue_jobs", "Jobs of each queue by state", ["queue", "state"]);

  addMetricsCollector("sessions", async () => {
    const db = await getDb();
    const rows = await db
      .select({ purpose: sessions.purpose, actual: sessions.actual, n: count() })
      .from(sessions)
      .groupBy(sessions.purpose, sessions.actual)
      .orderBy(sql`1`);
    const purposes = new Set<string>([...HOSTED_PURPOSES, "relay-link", ...rows.map((r) => r.purpose)]);
    for (const purpose of purposes) for (const state of ACTUALS) sessionsGauge.set({ purpose, state }, 0);
    for (const r of rows) sessionsGauge.set({ purpose: r.purpose, state: r.actual }, Number(r.n));
  });

  addMetricsCollector("workers", async () => {
    const engine = await jobEngineDetails();
    if (engine.redis === "up") workersGauge.set(engine.workers.length);
  });

  addMetricsCollector("queues", async () => {
    if (!(await producerReady())) return;
    await withTimeout(
      Promise.all(
        QUEUE_NAMES.map(async (name) => {
          const counts = await getQueue(name).getJobCounts(...JOB_STATES);
          for (const state of JOB_STATES) queueGauge.set({ queue: name, state }, counts[state] ?? 0);
        }),
      ),
      REDIS_WAIT_MS,
      "Queue counts",
    );
  });
}
