/**
 * Exchange-rates benchmark (printed figures, not asserted). See bench/README.md.
 *
 *   node --import tsx bench/rates.ts
 *
 * 1. GET /api/rates with 1,000 pairs through the real server (server.ts: helmet,
 *    compression, the auth gate with a Bearer token, Remix) against a bare Express handler
 *    returning the same bytes, in the same run, alternating; the ratio is the figure.
 * 2. Server render time of the Exchange Rates section (/exchange-rates) with 1,000 pairs.
 * 3. Batch import of 5,000 pairs: POST /api/rates/batch over HTTP, and batchUpsert in-process.
 *
 * Environment: BENCH_DATABASE_URL (a PostgreSQL server where it may create and drop a
 * database; default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test),
 * BENCH_SECONDS (per measurement, default 5), BENCH_CONCURRENCY (default 8),
 * BENCH_BUILD_DIR (reuse an existing production build instead of building into build-bench).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { benchGiftNames, benchPairs } from "./rates-data";
import { freePort, request } from "./net";
import { privateDatabase, removeRedisKeysAtEnd } from "./db";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PARTS = new Set((process.env.BENCH_PARTS ?? "get,render,import").split(","));
/** Set to a directory to write a V8 CPU profile of the server process (for digging, not figures). */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;

type Load = { rps: number; p50: number; p99: number; errors: number; bytes: number; cpuUs: number };

/** CPU time (user + system, all threads) a process has used so far, in microseconds (Linux). */
function cpuMicros(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100; // clock ticks of 1/100 s
  } catch {
    return Number.NaN;
  }
}

const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

function start(label: string, args: string[], env: NodeJS.ProcessEnv, ready: (line: string) => boolean): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let log = "";
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.split("\n").some(ready)) resolve(child);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c: Buffer) => (log += c.toString()));
    child.on("exit", (code) => reject(new Error(`${label} exited (${code}):\n${log.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`${label} did not start in 120 s:\n${log.slice(-2000)}`)), 120_000).unref();
  });
}

/** Closed-loop load: CONCURRENCY connections, each sending the next request when the last ends. */
async function load(port: number, headers: Record<string, string>, seconds: number, pid?: number, target = "/api/rates"): Promise<Load> {
  const cpuBefore = cpuMicros(pid);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const begin = performance.now();
  const end = begin + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const t = performance.now();
      const req = http.request({ host: "127.0.0.1", port, path: target, agent, headers }, (res) => {
        let n = 0;
        res.on("data", (c: Buffer) => (n += c.length));
        res.on("end", () => {
          if (res.statusCode === 200) {
            latencies.push(performance.now() - t);
            bytes = n;
          } else errors++;
          resolve();
        });
      });
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end();
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const cpuUs = (cpuMicros(pid) - cpuBefore) / Math.max(1, latencies.length);
  return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors, bytes, cpuUs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

async function main() {
  console.log(`# Exchange rates benchmark — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(`measurements: ${SECONDS} s each, ${CONCURRENCY} connections, ${ROUNDS} alternating rounds per side\n`);

  // --- A private PostgreSQL database -------------------------------------------------
  const { url, dbName, dataDir } = await privateDatabase("gt_bench", cleanups);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(24).toString("hex"),
    QUEUE_PREFIX: `gt-bench-${dbName}`,
    RUN_WORKER: "false",
    START_REDIS: "false",
  };
  Object.assign(process.env, env);
  removeRedisKeysAtEnd(cleanups, env.QUEUE_PREFIX!);

  // The app's modules read the environment on first use, so import them only now.
  const { createOperator } = await import("~/models/operator.server");
  const { createApiToken } = await import("~/models/api-token.server");
  const rates = await import("~/models/rate.server");
  const { closeDb } = await import("~/db/client.server");
  cleanups.unshift(async () => closeDb());
  rates.allowExtraGiftNames(benchGiftNames());
  const operator = await createOperator("bench", crypto.randomBytes(12).toString("hex"));
  const { token } = await createApiToken(operator.id, "bench");
  const auth = { authorization: `Bearer ${token}` };

  // --- The real server ------------------------------------------------------------------
  let buildDir = process.env.BENCH_BUILD_DIR;
  if (!buildDir) {
    buildDir = "build-bench";
    process.stdout.write("building the app into build-bench … ");
    const t = performance.now();
    const built = spawnSync("npx", ["remix", "vite:build"], { cwd: ROOT, env: { ...env, BUILD_DIR: buildDir }, stdio: ["ignore", "ignore", "pipe"] });
    if (built.status !== 0) throw new Error(`build failed:\n${built.stderr.toString().slice(-3000)}`);
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const appPort = await freePort();
  const appServer = await start(
    "server.ts",
    [...(CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF_DIR}`] : []), "--import", "tsx", "--import", "./bench/rates-preload.ts", "server.ts"],
    { ...env, BUILD_DIR: buildDir, PORT: String(appPort), HOST: "127.0.0.1" },
    (line) => line.includes("listening on"),
  );
  console.log(`server.ts (production build ${buildDir}) on port ${appPort}\n`);

  const post = async (pathName: string, payload: unknown) => {
    const t = performance.now();
    const res = await request(appPort, "POST", pathName, { ...auth, "content-type": "application/json" }, JSON.stringify(payload));
    const took = performance.now() - t;
    if (res.status !== 200) throw new Error(`${pathName} → ${res.status} ${res.body.toString().slice(0, 300)}`);
    return { took, body: JSON.parse(res.body.toString()) };
  };

  // --- 1. GET /api/rates with 1,000 pairs ------------------------------------------------
  const thousand = benchPairs(1000);
  await post("/api/rates/batch", { updates: thousand });
  const plain = await request(appPort, "GET", "/api/rates", auth);
  const zipped = await request(appPort, "GET", "/api/rates", { ...auth, "accept-encoding": "gzip" });
  if (plain.status !== 200 || zipped.status !== 200) throw new Error(`GET /api/rates → ${plain.status}/${zipped.status}`);
  const map = JSON.parse(plain.body.toString()) as Record<string, Record<string, unknown>>;
  const pairCount = Object.values(map).reduce((n, o) => n + Object.keys(o).length, 0);
  console.log(`## 1. GET /api/rates, ${pairCount} pairs (${Object.keys(map).length} inputs): ${kb(plain.body.length)} JSON, ${kb(zipped.body.length)} gzip`);

  const bodyFile = path.join(dataDir, "rates.json");
  const gzipFile = path.join(dataDir, "rates.json.gz");
  fs.writeFileSync(bodyFile, plain.body);
  fs.writeFileSync(gzipFile, zipped.body);
  const barePort = await freePort();
  const bareServer = await start(
    "bare handler",
    ["--import", "tsx", "./bench/rates-bare.ts"],
    { ...process.env, PORT: String(barePort), BENCH_BODY_FILE: bodyFile, BENCH_GZIP_FILE: gzipFile },
    (line) => line.trim() === "ready",
  );
  const bare = await request(barePort, "GET", "/api/rates", {});
  if (!bare.body.equals(plain.body)) throw new Error("the bare handler's bytes differ from the app's");

  const rows: string[] = [];
  const summary: string[] = [];
  if (PARTS.has("get")) {
    // Every path the API serves it on (issue 32 item 5): the plain path and one with a query
    // string (a cache buster, as clients add), each with and without gzip.
    for (const [mode, headers, target] of [
      ["identity", {}, "/api/rates"],
      ["gzip", { "accept-encoding": "gzip" }, "/api/rates"],
      ["identity", {}, "/api/rates?v=1"],
      ["gzip", { "accept-encoding": "gzip" }, "/api/rates?v=1"],
    ] as const) {
      const results: Record<"bare" | "api", Load[]> = { bare: [], api: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of ["bare", "api"] as const) {
          const [port, pid] = side === "bare" ? [barePort, bareServer.pid] : [appPort, appServer.pid];
          await load(port, { ...auth, ...headers }, 1, undefined, target); // warm-up
          results[side].push(await load(port, { ...auth, ...headers }, SECONDS, pid, target));
        }
      }
      for (const [side, label] of [
        ["bare", "bare Express handler"],
        ["api", "GET /api/rates (server.ts)"],
      ] as const) {
        const rs = results[side];
        const pick = (f: (r: Load) => number) => median(rs.map(f));
        rows.push(
          `| ${target.padEnd(14)} | ${mode.padEnd(8)} | ${label.padEnd(26)} | ${pick((r) => r.rps)
            .toFixed(0)
            .padStart(6)} | ${rs
            .map((r) => r.rps.toFixed(0))
            .join(", ")
            .padEnd(
              17,
            )} | ${ms(pick((r) => r.p50)).padStart(8)} | ${ms(pick((r) => r.p99)).padStart(8)} | ${(pick((r) => r.cpuUs) / 1000).toFixed(2).padStart(7)} ms | ${kb(rs[0].bytes).padStart(9)} | ${String(rs.reduce((n, r) => n + r.errors, 0)).padStart(6)} |`,
        );
      }
      // Rounds run back to back (bare, then API), so each round's ratio compares like with like.
      const paired = median(results.api.map((a, i) => a.rps / results.bare[i].rps));
      const cpu = median(results.bare.map((b) => b.cpuUs)) / median(results.api.map((a) => a.cpuUs));
      const met = (x: number) => (x >= 0.7 ? "met" : "MISSED");
      summary.push(
        `${target} ${mode}: ${met(paired)} (throughput), ${met(cpu)} (CPU); load average ${os.loadavg()[0]!.toFixed(2)}; throughput ratio ${(paired * 100).toFixed(0)} % (median of per-round API/bare), CPU-per-request ratio ${(cpu * 100).toFixed(0)} % (bare CPU / API CPU)`,
      );
    }
    console.log(
      "| path           | encoding | server                     |  req/s | rounds (req/s)    |      p50 |      p99 | server CPU/req |      body | errors |",
    );
    console.log(
      "|----------------|----------|----------------------------|--------|-------------------|----------|----------|----------------|-----------|--------|",
    );
    for (const r of rows) console.log(r);
    console.log("(req/s, p50, p99 and CPU/req are medians over the rounds; CPU/req is the server process's user+system time)");
    console.log(`\nAPI vs bare handler, aim ≥ 70 % on every path (issue 32 item 5):`);
    for (const line of summary) console.log(`  ${line}`);
    console.log("");
  }

  // --- 2. Server render of the section with 1,000 pairs ----------------------------------
  if (PARTS.has("render")) {
    const renders: number[] = [];
    let html = "";
    let status = 0;
    for (let i = 0; i < 35; i++) {
      const t = performance.now();
      const res = await request(appPort, "GET", "/exchange-rates", auth);
      const took = performance.now() - t;
      status = res.status;
      html = res.body.toString();
      if (i >= 5) renders.push(took);
    }
    renders.sort((a, b) => a - b);
    const sample = thousand[thousand.length - 1];
    const rendered = [sample.inputItem, sample.outputItem].every((n) => html.includes(n));
    console.log(`## 2. Server render of /exchange-rates with ${pairCount} pairs (30 sequential requests after 5 warm-up)`);
    console.log(
      `status ${status}, HTML ${kb(html.length)}, median ${ms(median(renders))}, p95 ${ms(renders[Math.floor(renders.length * 0.95)])}, min ${ms(renders[0])}`,
    );
    console.log(`the HTML ${rendered ? "contains" : "does NOT contain"} the last pair's gift names ("${sample.inputItem}" → "${sample.outputItem}")\n`);
  }

  // --- 3. Batch import of 5,000 pairs ----------------------------------------------------
  if (!PARTS.has("import")) return;
  const fiveThousand = benchPairs(5000);
  const payload = JSON.stringify({ updates: fiveThousand });
  console.log(`## 3. Batch import of ${fiveThousand.length} pairs (${kb(payload.length)} JSON), PostgreSQL`);
  const httpFresh: number[] = [];
  const httpAgain: number[] = [];
  const modelFresh: number[] = [];
  for (let i = 0; i < 3; i++) {
    await rates.deleteAllRates();
    let r = await post("/api/rates/batch", { updates: fiveThousand });
    if (r.body.count !== fiveThousand.length) throw new Error(`count ${r.body.count}`);
    httpFresh.push(r.took);
    r = await post("/api/rates/batch", { updates: fiveThousand });
    httpAgain.push(r.took);
    await rates.deleteAllRates();
    const t = performance.now();
    await rates.batchUpsert(fiveThousand);
    modelFresh.push(performance.now() - t);
  }
  console.log(`POST /api/rates/batch over HTTP, empty table:      median ${ms(median(httpFresh))} (runs ${httpFresh.map((x) => x.toFixed(0)).join(", ")} ms)`);
  console.log(`POST /api/rates/batch over HTTP, all pairs exist:  median ${ms(median(httpAgain))} (runs ${httpAgain.map((x) => x.toFixed(0)).join(", ")} ms)`);
  console.log(
    `batchUpsert() in-process, empty table:             median ${ms(median(modelFresh))} (runs ${modelFresh.map((x) => x.toFixed(0)).join(", ")} ms)`,
  );
  console.log(`Aim: under 1 s.`);
}

async function cleanup() {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
  for (const fn of cleanups) await fn().catch((err: Error) => console.warn("cleanup:", err.message));
}

export async function runRatesBench() {
  try {
    await main();
  } finally {
    await cleanup();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runRatesBench().then(
    () => process.exit(0),
    (err: Error) => {
      console.error(err.stack ?? err.message);
      process.exit(1);
    },
  );
}
