/**
 * A web that degrades (issue 29 item 3; printed figures, not asserted). See bench/README.md.
 *
 *   node --import tsx bench/degrade.ts          # or: npm run bench degrade
 *
 * The production server (server.ts, the worker in-process) reaches PostgreSQL and Redis
 * through TCP proxies (tests/kit/tcp-proxy.ts). For each scenario — PostgreSQL, Redis, both —
 * the proxies drop every packet (open connections held silent, never to come back) for
 * BENCH_DROP_S seconds (default 20) while five calls (GET /api/health, GET /api/logs, the
 * /characters and /logs pages, POST /api/jobs/probe) are made in parallel every second; it
 * prints the slowest answer in the first second of the outage and after it, the statuses seen,
 * and how long after the heal /api/health says both dependencies are up again.
 *
 * Aims (issue 29): every answer ≤ 2 s during the outage; healthy ≤ 5 s after the heal.
 *
 * Environment: BENCH_DATABASE_URL (default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test),
 * REDIS_URL (default redis://127.0.0.1:6379), BENCH_BUILD_DIR (reuse a production build
 * instead of building into build-bench), BENCH_DROP_S.
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TcpProxy } from "#tests/kit/tcp-proxy";
import { privateDatabase, removeRedisKeysAtEnd, type Cleanup } from "./db";
import { freePort } from "./net";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DROP_S = Number(process.env.BENCH_DROP_S ?? 20);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const cleanups: Cleanup[] = [];
  try {
    await run(cleanups);
  } finally {
    for (const c of cleanups.reverse()) await c().catch((e: Error) => console.warn("cleanup:", e.message));
  }
}

async function run(cleanups: Cleanup[]) {
  let buildDir = process.env.BENCH_BUILD_DIR;
  if (!buildDir) {
    buildDir = "build-bench";
    const built = spawnSync("npx", ["remix", "vite:build"], { cwd: ROOT, env: { ...process.env, BUILD_DIR: buildDir }, stdio: ["ignore", "ignore", "pipe"] });
    if (built.status !== 0) throw new Error(`build failed:\n${built.stderr.toString().slice(-3000)}`);
  }
  const { url, dataDir } = await privateDatabase("gt_bench_degrade", cleanups);
  const redisUrl = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  const pg = await new TcpProxy(url.hostname, Number(url.port || 5432)).start();
  const redis = await new TcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379)).start();
  cleanups.push(() => pg.stop());
  cleanups.push(() => redis.stop());
  const prefix = `gt-bench-degrade-${process.pid}`;
  removeRedisKeysAtEnd(cleanups, prefix, redisUrl.toString());

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    BUILD_DIR: buildDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: pg.url(url.toString()),
    REDIS_URL: redis.url(redisUrl.toString()),
    QUEUE_PREFIX: prefix,
    START_REDIS: "false",
    RUN_WORKER: "true",
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(24).toString("hex"),
    OPERATOR_PASSWORD: "correct horse battery",
  };
  // The operator CLI reaches the database through the proxy too: run it asynchronously.
  const cli = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/operator.ts", ...args], { cwd: ROOT, env });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`operator ${args[0]} exited ${code}`))));
    });
  await cli(["create", "bench"]);
  const token = (await cli(["token", "bench", "bench"])).trim().split(/\s+/).pop()!;

  const server = spawn(process.execPath, [path.join(buildDir, "server.js")], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  server.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  cleanups.push(async () => {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  });
  for (let i = 0; ; i++) {
    if (
      await fetch(base + "/healthz").then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 200) throw new Error(`server did not start:\n${stderr}`);
    await sleep(150);
  }

  const call = async (label: string, path: string, init: RequestInit & { accept?: string } = {}) => {
    const t = performance.now();
    try {
      const res = await fetch(base + path, {
        redirect: "manual",
        signal: AbortSignal.timeout(20_000),
        ...init,
        headers: { Authorization: `Bearer ${token}`, Accept: init.accept ?? "application/json", ...(init.headers as Record<string, string> | undefined) },
      });
      const body = await res.text();
      return { label, status: res.status, ms: performance.now() - t, body };
    } catch {
      return { label, status: 0, ms: performance.now() - t, body: "" };
    }
  };
  const round = () =>
    Promise.all([
      call("health", "/api/health"),
      call("api/logs", "/api/logs"),
      call("page /characters", "/characters", { accept: "text/html" }),
      call("page /logs", "/logs", { accept: "text/html" }),
      call("enqueue", "/api/jobs/probe", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"ms":0}' }),
    ]);
  const healthy = async () => {
    const h = await call("health", "/api/health");
    if (h.status !== 200) return false;
    const body = JSON.parse(h.body) as { database: { ok: boolean }; redis: { ok: boolean } };
    return body.database.ok && body.redis.ok;
  };
  for (let i = 0; !(await healthy()); i++) {
    if (i > 100) throw new Error("never healthy before the first scenario");
    await sleep(100);
  }
  await round(); // warm-up

  console.log(`web cut from its dependencies for ${DROP_S} s (packets dropped), 5 calls in parallel every second\n`);
  console.log("scenario  slowest first s  slowest after  statuses during            healthy after heal");
  for (const which of ["postgres", "redis", "both"] as const) {
    if (which !== "redis") pg.drop();
    if (which !== "postgres") redis.drop();
    const started = performance.now();
    let first = 0;
    let after = 0;
    const statuses = new Map<string, Set<number>>();
    while (performance.now() - started < DROP_S * 1000) {
      const roundStart = performance.now();
      const answers = await round();
      for (const a of answers) {
        if (roundStart - started < 1000) first = Math.max(first, a.ms);
        else after = Math.max(after, a.ms);
        const seen = statuses.get(a.label) ?? new Set<number>();
        seen.add(a.status);
        statuses.set(a.label, seen);
      }
      await sleep(Math.max(0, 1000 - (performance.now() - roundStart)));
    }
    await pg.heal();
    await redis.heal();
    const healedAt = performance.now();
    while (!(await healthy())) {
      if (performance.now() - healedAt > 60_000) break;
      await sleep(50);
    }
    const back = performance.now() - healedAt;
    const during = [...statuses].map(([label, s]) => `${label.replace("page ", "")} ${[...s].join("/")}`).join(", ");
    console.log(
      `${which.padEnd(9)} ${`${first.toFixed(0)} ms`.padStart(15)}  ${`${after.toFixed(0)} ms`.padStart(13)}  ${during}  ${back > 60_000 ? "NOT within 60 s" : `${back.toFixed(0)} ms`}`,
    );
    await round();
  }
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
