/**
 * Bench: stalker sessions on the session host (issue 9 "Proof" (b) and (c)).
 *
 *  (b) N stalker sessions (default 200) in one worker process: its RSS idle, once all are
 *      active and after a steady minute's worth of keepalives, and the time from the first
 *      start call until every session is active (state "active" in the database, i.e. 900 seen).
 *  (c) failover: a second worker is running; the first is SIGKILLed; seconds until every
 *      session is active again, held by the second worker (aim ≤ 15 s with the default
 *      SESSION_LOCK_DURATION_MS 8000 + SESSION_STALLED_INTERVAL_MS 4000).
 *
 * Real worker processes (`node --import tsx jobs/worker.ts`), a private PostgreSQL database,
 * Redis at REDIS_URL (default 127.0.0.1:6379) under its own prefix, the simulator in this
 * process. Prints figures; asserts nothing.
 *
 *   node --import tsx bench/sessions.ts [--sessions 200] [--steady 20]
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { startSimulator } from "#sim/server";
import { spawnWorker, deleteKeys, type WorkerChild } from "#jobs/test-helpers";
import { privateDatabase } from "./db";

const { values } = parseArgs({ options: { sessions: { type: "string", default: "200" }, steady: { type: "string", default: "20" } } });
const N = Number(values.sessions);
const STEADY_S = Number(values.steady);

function rssMb(pid: number | undefined): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
const fmt = (mb: number | null) => (mb === null ? "n/a" : `${mb.toFixed(0)} MB`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const cleanups: (() => Promise<void>)[] = [];
  const children: WorkerChild[] = [];
  try {
    console.log(`# Session host benchmark — ${new Date().toISOString()}`);
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}; ${N} sessions\n`,
    );

    const { url, dbName, dataDir } = await privateDatabase("gt_bench", cleanups);

    const sim = await startSimulator({ port: 0 });
    cleanups.unshift(() => sim.close());
    const env = {
      NODE_ENV: "production",
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      APP_SECRET: crypto.randomBytes(24).toString("hex"),
      QUEUE_PREFIX: `gt-bench-${dbName}`,
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      RUN_WORKER: "false",
      START_REDIS: "false",
      GALAXY_WS_URL: sim.wsUrl,
    };
    Object.assign(process.env, env);
    cleanups.push(async () => deleteKeys(env.REDIS_URL, env.QUEUE_PREFIX));

    const { upsertUser } = await import("~/models/user.server");
    const { listStalkerStatuses, startStalker } = await import("~/models/stalker.server");
    const { closeDb } = await import("~/db/client.server");
    const { closeQueues } = await import("#jobs/queues.server");
    cleanups.unshift(async () => {
      await closeQueues();
      await closeDb();
    });

    // Any simulator account can be a stalker here; the platform allows one session per account.
    const accounts = sim.world.accounts.slice(0, N);
    if (accounts.length < N) throw new Error(`the simulator has ${accounts.length} accounts`);
    // Room for everyone on the general planets (capacity 60): spread homes over them evenly.
    const generals = sim.world.planets.filter((p) => p.kind === "general" && !p.closed && p.capacity >= 60);
    for (const p of generals) p.capacity = 1_000;
    for (const a of accounts) await upsertUser({ accountId: a.id, nick: a.nick, password: a.password, type: "stalker" });

    const worker = async () => {
      const w = spawnWorker({ NODE_ENV: "production" });
      children.push(w);
      const t = Date.now();
      for (;;) {
        const m = /\[jobs\] worker (\S+) processing/.exec(w.output());
        if (m) return Object.assign(w, { id: m[1] });
        if (w.child.exitCode !== null) throw new Error(`worker exited:\n${w.output()}`);
        if (Date.now() - t > 60_000) throw new Error(`worker not ready:\n${w.output()}`);
        await sleep(100);
      }
    };
    const allActive = async (holder: string | null, timeoutMs: number) => {
      const t = Date.now();
      for (;;) {
        const s = await listStalkerStatuses();
        const active = s.filter((x) => x.state === "active" && (holder === null || x.holder === holder)).length;
        if (active >= N) return Date.now();
        if (Date.now() - t > timeoutMs) throw new Error(`only ${active} of ${N} active after ${timeoutMs} ms`);
        await sleep(50);
      }
    };

    // --- (b) ------------------------------------------------------------------------------
    const a = await worker();
    await sleep(1_000);
    const idle = rssMb(a.child.pid);
    const t0 = Date.now();
    for (const acc of accounts) await startStalker(acc.id);
    const tStarted = Date.now();
    const tActive = await allActive(a.id, 120_000);
    const activeRss = rssMb(a.child.pid);
    await sleep(STEADY_S * 1_000);
    const steadyRss = rssMb(a.child.pid);
    console.log(`## (b) ${N} stalker sessions in one worker`);
    console.log(`- start calls: ${N} in ${((tStarted - t0) / 1000).toFixed(2)} s (${((tStarted - t0) / N).toFixed(1)} ms each, sequential)`);
    console.log(`- time from the first start until all ${N} active: ${((tActive - t0) / 1000).toFixed(2)} s`);
    console.log(`- worker RSS: idle ${fmt(idle)}, all active ${fmt(activeRss)}, after ${STEADY_S} s steady ${fmt(steadyRss)}`);
    if (idle !== null && steadyRss !== null) console.log(`- per session: ${(((steadyRss - idle) * 1024) / N).toFixed(0)} KB`);
    console.log(`- simulator sessions online: ${sim.sockets.sessions().length}\n`);

    // --- (c) ------------------------------------------------------------------------------
    const b = await worker();
    await sleep(1_000);
    const kill = Date.now();
    a.child.kill("SIGKILL");
    await a.exited;
    const tBack = await allActive(b.id, 120_000);
    const perSession = (await listStalkerStatuses()).map((s) => new Date(s.since).getTime() - kill).sort((x, y) => x - y);
    console.log(
      `## (c) failover of ${N} sessions (SESSION_LOCK_DURATION_MS ${process.env.SESSION_LOCK_DURATION_MS ?? 8000}, SESSION_STALLED_INTERVAL_MS ${process.env.SESSION_STALLED_INTERVAL_MS ?? 4000})`,
    );
    console.log(`- SIGKILL → every session active again on the second worker: ${((tBack - kill) / 1000).toFixed(2)} s`);
    console.log(`- first session active again after ${(perSession[0] / 1000).toFixed(2)} s, median ${(perSession[Math.floor(N / 2)] / 1000).toFixed(2)} s`);
    console.log(`- second worker RSS with all ${N}: ${fmt(rssMb(b.child.pid))}`);
  } finally {
    for (const w of children) if (w.child.exitCode === null) w.child.kill("SIGKILL");
    for (const c of cleanups) await c().catch((e: Error) => console.warn(`cleanup: ${e.message}`));
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(err);
    process.exit(1);
  },
);
