/**
 * Web process memory under a burst over all pages (issue 20 §6: RSS ≤ 350 MB during the
 * 2,000-request burst). Prints figures; asserts nothing. See bench/README.md.
 *
 *   node --import tsx bench/burst.ts
 *
 * Starts the web process exactly as deployed (`node <build>/server.js`, no Redis, no worker)
 * on a fresh database — the embedded PGlite by default, through `npm start`'s launcher
 * (scripts/start.ts, which holds the database; its RSS is printed apart), or a private
 * PostgreSQL database with BENCH_DB=postgres — creates the
 * first operator through /setup (a real session cookie), seeds the demo exchange rates, then
 * sends BENCH_REQUESTS (2,000) full-page GETs round-robin over every section with
 * BENCH_CONCURRENCY (4) connections, sampling the server's VmRSS (and with PGlite the
 * launcher's, which holds the embedded database) every 20 ms. Aims (issue 32 item 3): web
 * process peak ≤ 350 MB, embedded database process peak ≤ 400 MB; printed met or MISSED with
 * the load average.
 *
 * Environment: BENCH_BUILD_DIR (reuse a build), BENCH_DB (pglite | postgres), BENCH_REQUESTS,
 * BENCH_CONCURRENCY, BENCH_PAGES (comma-separated URLs).
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { privateDatabase, removeRedisKeysAtEnd, type Cleanup } from "./db";
import { freePort, request, startLauncher, startServer } from "./net";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
// 4 at a time, as issue 32's measurement sends them (the README's earlier 215 MB was taken at 3 requests a second).
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const DB = process.env.BENCH_DB ?? "pglite";
const PAGES = (process.env.BENCH_PAGES ?? "/,/exchange-rates,/gifts,/characters,/trading-planets,/galacord,/collections,/logs,/settings").split(",");

/** VmRSS of a process in MB (Linux), or NaN when it is gone. */
function rssMb(pid: number | undefined): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

const children: ChildProcess[] = [];
const cleanups: Cleanup[] = [];

const mb = (x: number) => `${x.toFixed(0)} MB`;

async function main() {
  console.log(`# Burst over all pages — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; ${REQUESTS} GETs, ${CONCURRENCY} connections, database ${DB}\n`,
  );

  let buildDir = process.env.BENCH_BUILD_DIR;
  if (!buildDir) {
    buildDir = "build-bench";
    const built = spawnSync("npx", ["remix", "vite:build"], { cwd: ROOT, env: { ...process.env, BUILD_DIR: buildDir }, stdio: ["ignore", "ignore", "pipe"] });
    if (built.status !== 0) throw new Error(`build failed:\n${built.stderr.toString().slice(-3000)}`);
  }

  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    BUILD_DIR: buildDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    RUN_WORKER: "false",
    START_REDIS: "false",
    APP_SECRET: crypto.randomBytes(24).toString("hex"),
    QUEUE_PREFIX: `gt-burst-${process.pid}`,
  };
  removeRedisKeysAtEnd(cleanups, env.QUEUE_PREFIX!);
  if (DB === "postgres") {
    const { url, dataDir } = await privateDatabase("gt_burst", cleanups);
    Object.assign(env, { DATABASE_URL: url.toString(), DATA_DIR: dataDir });
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-burst-"));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    env.DATA_DIR = dataDir;
    delete env.DATABASE_URL;
    delete env.PGLITE_DIR;
  }
  // PostgreSQL: the web process alone. PGlite: `npm start`'s two processes — the launcher holds
  // the embedded database, the web process (measured) uses it through the loopback socket.
  let webPid: number;
  let dbPid: number | undefined;
  if (DB === "postgres") webPid = (await startServer(env, children)).pid!;
  else {
    const started = await startLauncher(env, children);
    webPid = started.webPid;
    dbPid = started.launcher.pid;
  }
  const started = rssMb(webPid);
  const origin = `http://127.0.0.1:${port}`;
  const password = crypto.randomBytes(12).toString("hex");
  const form = new URLSearchParams({ name: "bench", password, confirmPassword: password }).toString();
  const setup = await request(port, "POST", "/setup", { "content-type": "application/x-www-form-urlencoded", origin }, form);
  const cookie = [setup.headers["set-cookie"] ?? []]
    .flat()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (setup.status !== 302 || !cookie) throw new Error(`/setup → ${setup.status} ${setup.body.toString().slice(0, 300)}`);
  // The demo's exchange rates (with PGlite through the launcher's socket).
  const seeded = spawnSync(process.execPath, ["--import", "tsx", "scripts/seed.ts", "rates"], { cwd: ROOT, env, encoding: "utf8" });
  console.log(seeded.status === 0 ? seeded.stdout.trim() : `seed failed (${seeded.status}): ${seeded.stderr.slice(-300)}`);

  // One warm-up GET per page (route modules load lazily), then the idle figure.
  for (const page of PAGES) await request(port, "GET", page, { cookie });
  const idle = rssMb(webPid);

  let peak = idle;
  let dbPeak = dbPid ? rssMb(dbPid) : Number.NaN;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(webPid));
    if (dbPid) dbPeak = Math.max(dbPeak, rssMb(dbPid));
  }, 20);
  const statuses = new Map<string, Map<number, number>>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  let bytes = 0;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const page = PAGES[next++ % PAGES.length]!;
        const status = await new Promise<number>((resolve) => {
          const req = http.request({ host: "127.0.0.1", port, path: page, agent, headers: { cookie } }, (res) => {
            res.on("data", (c: Buffer) => (bytes += c.length));
            res.on("end", () => resolve(res.statusCode ?? 0));
          });
          req.on("error", () => resolve(0));
          req.end();
        });
        const byStatus = statuses.get(page) ?? new Map<number, number>();
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        statuses.set(page, byStatus);
      }
    }),
  );
  const seconds = (performance.now() - begin) / 1000;
  clearInterval(sampler);
  agent.destroy();
  peak = Math.max(peak, rssMb(webPid));
  const after = rssMb(webPid);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const settled = rssMb(webPid);

  console.log(`\n${REQUESTS} GETs in ${seconds.toFixed(1)} s (${(REQUESTS / seconds).toFixed(0)} req/s), ${(bytes / 1e6).toFixed(1)} MB of HTML`);
  for (const [page, byStatus] of statuses) console.log(`  ${page.padEnd(18)} ${[...byStatus].map(([s, n]) => `${n} × ${s}`).join(", ")}`);
  console.log(
    `\nweb process RSS: just started ${mb(started)}, idle (after one GET per page) ${mb(idle)}, peak during the burst ${mb(peak)}, at the end ${mb(after)}, 2 s later ${mb(settled)}`,
  );
  if (dbPid) console.log(`launcher (embedded database, not the web process) RSS: peak during the burst ${mb(dbPeak)}, at the end ${mb(rssMb(dbPid))}`);
  const load = os.loadavg()[0]!.toFixed(2);
  console.log(`aim: web process peak ≤ 350 MB — ${peak <= 350 ? "met" : "MISSED"} (${mb(peak)}; load average ${load}, ${CONCURRENCY} at a time)`);
  if (dbPid) console.log(`aim: embedded database process peak ≤ 400 MB — ${dbPeak <= 400 ? "met" : "MISSED"} (${mb(dbPeak)}; load average ${load})`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const c of children) c.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  });
