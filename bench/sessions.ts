/**
 * Bench: stalker sessions on the session host (issue 18 "Benchmarks"; bench/README.md "Stalker sessions").
 *
 *  scale     1,000 stalker sessions (125 per general planet) over TWO worker processes: the time
 *            until all are active, how they spread, each worker's RSS and CPU (% of one core)
 *            over an idle window, then K arrivals of simulated users on the stalkers' planets
 *            and the `sightings` row writes each arrival caused (aim: ≤ 300 MB, ≤ 5 %, 1).
 *  failover  200 sessions held by worker A, worker B running; A is SIGKILLed; the time until
 *            all 200 are active again, held by B (aim: ≤ 10 s).
 *  live      the app server (production build) and a worker; the All Characters page open in
 *            Chromium; 50 stalker stops by API (a start between them); the time from each
 *            API answer to the page's DOM showing the new state (aim: p99 ≤ 1 s); then (issue 30 A3)
 *            BENCH_CLICKS (20) Stop and Start clicks on the page's rows: click → the button's pending
 *            state and click → the row's new state (aim ≤ 300 ms; prints "missed" when missed).
 *
 * Real worker processes (`node --import tsx jobs/worker.ts`, what `npm run worker` runs), a
 * private PostgreSQL database, Redis at REDIS_URL (default 127.0.0.1:6379) under a private
 * prefix (its keys are deleted at the end), the Galaxy simulator in this process (with
 * `extraAccounts`: generated stalker accounts, home planets round-robin over the 8 general
 * planets). Prints figures; asserts nothing.
 *
 *   node --import tsx bench/sessions.ts            # or: npm run bench sessions
 *
 * Knobs (environment): BENCH_PARTS (scale,failover,live), BENCH_SESSIONS (1000),
 * BENCH_IDLE_S (65), BENCH_ARRIVALS (24), BENCH_FAILOVER_SESSIONS (200), BENCH_LIVE_CHANGES
 * (50), BENCH_LIVE_USERS (20), BENCH_BUILD_DIR (reuse a production build instead of building
 * into build-bench), BENCH_CPU_PROF_DIR (V8 CPU profiles of the scale part's workers and of the failover's worker B),
 * BENCH_DATABASE_URL (see bench/db.ts).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startSimulator, type Simulator } from "#sim/server";
import { GENERAL_PLANETS } from "#sim/world";
import { spawnWorker, type WorkerChild } from "#jobs/test-helpers";
import { privateDatabase, removeRedisKeysAtEnd, type Cleanup } from "./db";
import { freePort, request } from "./net";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return n;
};
const PARTS = new Set((process.env.BENCH_PARTS ?? "scale,failover,live").split(",").map((p) => p.trim()));
const SCALE_N = num("BENCH_SESSIONS", 1000);
const IDLE_S = num("BENCH_IDLE_S", 65);
const ARRIVALS = num("BENCH_ARRIVALS", 24);
const FAILOVER_N = num("BENCH_FAILOVER_SESSIONS", 200);
const LIVE_CHANGES = num("BENCH_LIVE_CHANGES", 50);
const LIVE_USERS = Math.max(2, num("BENCH_LIVE_USERS", 20));
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** VmRSS of a process in MB (Linux), or null when it is gone. */
function rssMb(pid: number | undefined): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
/** utime + stime of a process (all threads) in ms; /proc counts in ticks of 1/100 s. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
const mb = (x: number | null) => (x === null ? "n/a" : `${x.toFixed(0)} MB`);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;

/** Runs `fn` over `items`, `n` at a time. */
async function inPool<T>(items: readonly T[], n: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

type Worker = WorkerChild & { id: string; label: string };

async function main() {
  const cleanups: Cleanup[] = [];
  const workers: Worker[] = [];
  const children: ChildProcess[] = [];
  try {
    console.log(`# Session host benchmark — ${new Date().toISOString()}`);
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load average ${loadavg()}; parts: ${[...PARTS].join(", ")}\n`,
    );

    const { url, dbName, dataDir } = await privateDatabase("gt_bench", cleanups);
    const accountsNeeded = Math.max(PARTS.has("scale") ? SCALE_N : 0, PARTS.has("failover") ? FAILOVER_N : 0, PARTS.has("live") ? LIVE_USERS : 0);
    const sim: Simulator = await startSimulator({ port: 0, extraAccounts: accountsNeeded });
    cleanups.unshift(() => sim.close());
    // Room for everyone: 125 stalkers and the seeded regulars on each general planet (capacity 60).
    for (const p of sim.world.planets) if (p.kind === "general" && !p.closed && p.capacity >= 60) p.capacity = 2_000;
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
      GALAXY_SERVICES_URL: sim.servicesUrl,
    };
    Object.assign(process.env, env);
    removeRedisKeysAtEnd(cleanups, env.QUEUE_PREFIX!, env.REDIS_URL);

    // The app's modules read the environment on first use, so import them only now.
    const { upsertUser, deleteUser } = await import("~/models/user.server");
    const { listStalkerStatuses, startStalker, stopStalker } = await import("~/models/stalker.server");
    const { closeDb } = await import("~/db/client.server");
    const { closeQueues } = await import("~/queue/queues.server");
    cleanups.unshift(async () => {
      await closeQueues();
      await closeDb();
    });

    // The generated accounts (kind stalker, homes round-robin over the general planets) are ours.
    const stalkers = sim.world.accounts.filter((a) => a.kind === "stalker").slice(-accountsNeeded);
    let stored = 0;
    const ensureUsers = async (n: number) => {
      for (; stored < n; stored++) {
        const a = stalkers[stored];
        await upsertUser({ accountId: a.id, nick: a.nick, password: a.password, type: "stalker" });
      }
      return stalkers.slice(0, n);
    };

    const startWorker = async (label: string, nodeArgs: string[] = []): Promise<Worker> => {
      const w = spawnWorker({ NODE_ENV: "production" }, nodeArgs);
      const t = Date.now();
      for (;;) {
        const m = /\[jobs\] worker (\S+) processing/.exec(w.output());
        if (m) {
          const worker = Object.assign(w, { id: m[1], label });
          workers.push(worker);
          return worker;
        }
        if (w.child.exitCode !== null) throw new Error(`worker exited:\n${w.output()}`);
        if (Date.now() - t > 90_000) throw new Error(`worker not ready:\n${w.output()}`);
        await sleep(100);
      }
    };
    const stopWorker = async (w: Worker) => {
      if (w.child.exitCode === null && w.child.signalCode === null) {
        w.child.kill("SIGTERM");
        const killer = setTimeout(() => w.child.kill("SIGKILL"), 30_000);
        await w.exited;
        clearTimeout(killer);
      }
      workers.splice(workers.indexOf(w), 1);
    };
    /** Waits until `count` of the given sessions are active (and held by `holder` when given); returns the time. */
    const untilActive = async (ids: Set<string>, holder: string | null, timeoutMs: number) => {
      const t = Date.now();
      for (;;) {
        const s = await listStalkerStatuses();
        const active = s.filter((x) => ids.has(x.key) && x.actual === "active" && (holder === null || x.holder === holder)).length;
        if (active >= ids.size) return Date.now();
        if (Date.now() - t > timeoutMs) throw new Error(`only ${active} of ${ids.size} active after ${timeoutMs} ms`);
        await sleep(200);
      }
    };
    /**
     * Stops every stalker and waits until no worker holds one and the simulator has no session
     * left. Anything still held after 60 s is printed (with what the workers said about it).
     */
    const stopAll = async () => {
      for (const s of await listStalkerStatuses()) if (s.desired === "run") await stopStalker(s.key);
      const t = Date.now();
      for (;;) {
        const held = (await listStalkerStatuses()).filter((s) => s.holder !== null);
        if (!held.length && sim.sockets.sessions().length === 0) return;
        if (Date.now() - t > 60_000) {
          console.log(`- NOTE: ${held.length} stalkers still held and ${sim.sockets.sessions().length} simulator sessions open 60 s after stopping them all:`);
          for (const h of held.slice(0, 10)) {
            const said = workers.flatMap((w) =>
              w
                .output()
                .split("\n")
                .filter((l) => l.includes(h.key))
                .map((l) => `${w.label}: ${l}`),
            );
            console.log(
              `  ${h.key}: desired ${h.desired}, actual ${h.actual} since ${h.since}, holder ${h.holder}, error ${h.error ?? "-"}; sim sessions ${sim.sockets.sessions(h.key).length}`,
            );
            for (const l of said.slice(-5)) console.log(`    ${l}`);
            for (const c of sim.sockets.snapshot().open.filter((x) => x.accountId === h.key))
              console.log(
                `    simulator: opened ${c.openedAt}, state ${c.state}, planet ${c.planet}, pings ${c.pings}, pongs ${c.pongs}, last lines ${JSON.stringify(c.received.slice(-3))}`,
              );
          }
          return;
        }
        await sleep(200);
      }
    };
    const spread = async (ws: Worker[], ids: Set<string>) => {
      const s = (await listStalkerStatuses()).filter((x) => ids.has(x.key));
      const lines = ws.map((w) => {
        const mine = s.filter((x) => x.holder === w.id);
        const perPlanet = GENERAL_PLANETS.map((p) => `${p} ${mine.filter((x) => x.planet === p).length}`).join(", ");
        return `  worker ${w.label}: ${mine.length} sessions (${perPlanet})`;
      });
      const others = s.filter((x) => !ws.some((w) => w.id === x.holder)).length;
      if (others) lines.push(`  held by no live worker: ${others}`);
      return lines.join("\n");
    };

    // --- scale -------------------------------------------------------------------------
    if (PARTS.has("scale")) {
      const accounts = await ensureUsers(SCALE_N);
      const ids = new Set(accounts.map((a) => a.id));
      const profile = CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(CPU_PROF_DIR)}`] : [];
      const a = await startWorker("A", profile);
      const b = await startWorker("B", profile);
      await sleep(3_000); // both announced (SESSION_HOST_BEAT_MS 1 s): the fair shares count two workers
      const idle = { a: rssMb(a.child.pid), b: rssMb(b.child.pid) };
      const t0 = Date.now();
      await inPool(accounts, 8, (acc) => startStalker(acc.id));
      const tStarted = Date.now();
      const tActive = await untilActive(ids, null, 300_000);
      console.log(`## scale: ${SCALE_N} stalker sessions over two workers (load average at start ${loadavg()})`);
      console.log(`- start calls: ${SCALE_N} in ${secs(tStarted - t0)} (8 at a time, in this process)`);
      console.log(`- from the first start until all ${SCALE_N} active: ${secs(tActive - t0)}`);
      console.log(`- simulator sessions online: ${sim.sockets.sessions().length}`);
      console.log(`- spread:\n${await spread([a, b], ids)}`);

      // Settle (first rosters, sightings and character_details written), then the idle window.
      await sleep(10_000);
      const before = { a: cpuMs(a.child.pid), b: cpuMs(b.child.pid), self: process.cpuUsage(), rss: { a: rssMb(a.child.pid), b: rssMb(b.child.pid) } };
      const tw = Date.now();
      await sleep(IDLE_S * 1_000);
      const wall = Date.now() - tw;
      const self = process.cpuUsage(before.self);
      console.log(`- idle window ${(wall / 1000).toFixed(1)} s, 10 s after all were active (load average ${loadavg()}):`);
      for (const [w, key] of [
        [a, "a"],
        [b, "b"],
      ] as const) {
        const cpu = ((cpuMs(w.child.pid) - before[key]) / wall) * 100;
        console.log(
          `  worker ${w.label}: RSS ${mb(before.rss[key])} → ${mb(rssMb(w.child.pid))} (${mb(idle[key])} before any session); CPU ${cpu.toFixed(1)} % of a core`,
        );
      }
      console.log(`  this process (simulator, ${SCALE_N} sockets): CPU ${(((self.user + self.system) / 1000 / wall) * 100).toFixed(1)} % of a core`);

      // Arrivals: simulated users (offline seeded accounts, not ours) join the stalkers' planets.
      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      await db.query(
        `create table bench_sighting_writes (user_id text, op text, old_planet text, new_planet text, old_left timestamptz, new_left timestamptz, at timestamptz default now())`,
      );
      await db.query(`create function bench_log_sighting() returns trigger language plpgsql as $$
        begin
          insert into bench_sighting_writes (user_id, op, old_planet, new_planet, old_left, new_left)
          values (new.user_id, tg_op, case when tg_op = 'UPDATE' then old.planet end, new.planet, case when tg_op = 'UPDATE' then old.left_at end, new.left_at);
          return new;
        end $$`);
      await db.query(`create trigger bench_sighting_writes after insert or update on sightings for each row execute function bench_log_sighting()`);
      const visitors = sim.world.accounts.filter((x) => x.kind !== "stalker" && !sim.world.whereIs(x.id).online).slice(0, ARRIVALS);
      if (visitors.length < ARRIVALS) throw new Error(`only ${visitors.length} offline simulator accounts for ${ARRIVALS} arrivals`);
      const onPlanet = new Map(GENERAL_PLANETS.map((p) => [p, accounts.filter((x) => x.homePlanet === p).length]));
      const ta = Date.now();
      for (const [i, v] of visitors.entries()) {
        const planet = GENERAL_PLANETS[i % GENERAL_PLANETS.length];
        const res = await fetch(`${sim.controlUrl}presence`, {
          method: "POST",
          body: JSON.stringify({ id: v.id, planet }),
          headers: { "content-type": "application/json" },
        });
        if (!res.ok) throw new Error(`POST /__sim/presence → ${res.status} ${await res.text()}`);
        await sleep(500);
      }
      // Both workers' recorders flush every SIGHTINGS_FLUSH_MS (500 ms): wait for every row, then a little more.
      const visitorIds = visitors.map((v) => v.id);
      for (;;) {
        const { rows } = await db.query<{ n: string }>(`select count(*) n from sightings where user_id = any($1) and left_at is null`, [visitorIds]);
        if (Number(rows[0].n) >= visitors.length) break;
        if (Date.now() - ta > 60_000) throw new Error(`only ${rows[0].n} of ${visitors.length} arrivals recorded after 60 s`);
        await sleep(200);
      }
      await sleep(3_000);
      const { rows: writes } = await db.query<{ op: string; arrival: boolean; n: string }>(
        `select op, (op = 'INSERT' or old_planet is distinct from new_planet or old_left is not null) arrival, count(*) n
           from bench_sighting_writes where user_id = any($1) group by 1, 2`,
        [visitorIds],
      );
      const { rows: perUser } = await db.query<{ n: string }>(`select count(*) n from sightings where user_id = any($1)`, [visitorIds]);
      await db.end();
      const arrivalWrites = writes.filter((w) => w.arrival).reduce((n, w) => n + Number(w.n), 0);
      const confirmWrites = writes.filter((w) => !w.arrival).reduce((n, w) => n + Number(w.n), 0);
      console.log(
        `- ${visitors.length} arrivals (POST /__sim/presence, one at a time, 0.5 s apart, ${Math.min(...onPlanet.values())}–${Math.max(...onPlanet.values())} of our stalkers on each planet, split over both workers):`,
      );
      console.log(`  sightings rows for the arriving users: ${perUser[0].n} (${(Number(perUser[0].n) / visitors.length).toFixed(2)} per arrival)`);
      console.log(`  row writes (insert/update) that recorded an arrival: ${arrivalWrites} → ${(arrivalWrites / visitors.length).toFixed(2)} per arrival`);
      console.log(`  other writes to those rows in the same ${secs(Date.now() - ta)} (re-confirmations of presence): ${confirmWrites}`);
      await stopAll();
      await stopWorker(a);
      await stopWorker(b);
      if (CPU_PROF_DIR) console.log(`- CPU profiles of both workers in ${CPU_PROF_DIR}`);
      console.log();
    }

    // --- failover ----------------------------------------------------------------------
    if (PARTS.has("failover")) {
      const accounts = await ensureUsers(FAILOVER_N);
      const ids = new Set(accounts.map((x) => x.id));
      const a = await startWorker("A");
      await sleep(2_000);
      for (const acc of accounts) await startStalker(acc.id);
      await untilActive(ids, a.id, 300_000);
      const b = await startWorker("B", CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(CPU_PROF_DIR)}`] : []);
      await sleep(3_000); // B announced and polling its queue
      console.log(`## failover: ${FAILOVER_N} sessions held by worker A, worker B running (load average ${loadavg()})`);
      console.log(`- before:\n${await spread([a, b], ids)}`);
      const kill = Date.now();
      a.child.kill("SIGKILL");
      await a.exited;
      workers.splice(workers.indexOf(a), 1);
      // When B took each one (holder B, any state) and when it was active, polled every 100 ms.
      const taken = new Map<string, number>();
      const seenStates = new Map<string, number>();
      let tBack = 0;
      for (;;) {
        const now = Date.now();
        const s = (await listStalkerStatuses()).filter((x) => ids.has(x.key) && x.holder === b.id);
        for (const x of s) if (!taken.has(x.key)) taken.set(x.key, now - kill);
        for (const x of s) {
          const what = `${x.actual}${x.error ? `: ${x.error}` : ""}`;
          seenStates.set(what, (seenStates.get(what) ?? 0) + 1);
        }
        if (s.filter((x) => x.actual === "active").length >= ids.size) {
          tBack = Date.now();
          break;
        }
        if (now - kill > 120_000) throw new Error(`only ${s.filter((x) => x.actual === "active").length} of ${ids.size} active on B after 120 s`);
        await sleep(100);
      }
      const takenMs = [...taken.values()].sort((x, y) => x - y);
      const since = (await listStalkerStatuses())
        .filter((s) => ids.has(s.key))
        .map((s) => new Date(s.since).getTime() - kill)
        .sort((x, y) => x - y);
      console.log(
        `- SESSION_LOCK_DURATION_MS ${process.env.SESSION_LOCK_DURATION_MS ?? 5000}, SESSION_STALLED_INTERVAL_MS ${process.env.SESSION_STALLED_INTERVAL_MS ?? 2000}`,
      );
      console.log(`- SIGKILL → all ${FAILOVER_N} active again on worker B: ${secs(tBack - kill)}`);
      console.log(`- per session (its 'active' since): first ${secs(since[0])}, median ${secs(quantile(since, 0.5))}, last ${secs(since[since.length - 1])}`);
      console.log(
        `- taken by worker B (holder B, before its login): first ${secs(takenMs[0])}, median ${secs(quantile(takenMs, 0.5))}, last ${secs(takenMs[takenMs.length - 1])}`,
      );
      console.log(`- states of B's rows while it took them over (row × poll counts): ${[...seenStates].map(([k, v]) => `${k} ×${v}`).join("; ")}`);
      console.log(`- after:\n${await spread([b], ids)}`);
      console.log(`- worker B RSS with all ${FAILOVER_N}: ${mb(rssMb(b.child.pid))} (load average ${loadavg()})\n`);
      await stopAll();
      await stopWorker(b);
    }

    // --- live --------------------------------------------------------------------------
    if (PARTS.has("live")) {
      // The page shows LIVE_USERS stalker users: remove the rest of the earlier parts' users.
      const accounts = await ensureUsers(LIVE_USERS);
      for (const extra of stalkers.slice(LIVE_USERS, stored)) await deleteUser(extra.id);
      stored = Math.min(stored, LIVE_USERS);
      const { createOperator } = await import("~/models/operator.server");
      const { createApiToken } = await import("~/models/api-token.server");
      const password = crypto.randomBytes(12).toString("hex");
      const operator = await createOperator("bench", password);
      const { token } = await createApiToken(operator.id, "bench");
      const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };

      let buildDir = process.env.BENCH_BUILD_DIR;
      if (!buildDir) {
        buildDir = "build-bench";
        process.stdout.write("building the app into build-bench … ");
        const t = Date.now();
        const built = spawnSync("npx", ["remix", "vite:build"], {
          cwd: ROOT,
          env: { ...process.env, BUILD_DIR: buildDir },
          stdio: ["ignore", "ignore", "pipe"],
        });
        if (built.status !== 0) throw new Error(`build failed:\n${built.stderr.toString().slice(-3000)}`);
        console.log(secs(Date.now() - t));
      }
      const port = await freePort();
      const server = await new Promise<ChildProcess>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
          cwd: ROOT,
          env: { ...process.env, BUILD_DIR: buildDir, PORT: String(port), HOST: "127.0.0.1" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        children.push(child);
        let log = "";
        child.stdout!.on("data", (c: Buffer) => {
          log += c.toString();
          if (log.includes("listening on")) resolve(child);
        });
        child.stderr!.on("data", (c: Buffer) => (log += c.toString()));
        child.on("exit", (code) => reject(new Error(`server.ts exited (${code}):\n${log.slice(-2000)}`)));
        setTimeout(() => reject(new Error(`server.ts did not start in 120 s:\n${log.slice(-2000)}`)), 120_000).unref();
      });
      void server;
      const w = await startWorker("live");
      const api = async (call: "start" | "stop", accountId: string) => {
        const res = await request(port, "POST", `/api/stalker/${call}`, auth, JSON.stringify({ account_id: accountId }));
        if (res.status >= 300) throw new Error(`POST /api/stalker/${call} → ${res.status} ${res.body.toString().slice(0, 300)}`);
      };
      const ids = accounts.map((x) => x.id);
      for (const id of ids) await api("start", id);
      await untilActive(new Set(ids), w.id, 120_000);

      const { chromium } = await import("@playwright/test");
      const browser = await chromium.launch({ executablePath: process.env.BENCH_CHROMIUM ?? "/usr/bin/chromium" });
      cleanups.unshift(() => browser.close());
      // bypassCSP: waitForFunction with a string evaluates it in the page (the app's CSP has no unsafe-eval).
      const page = await browser.newPage({ baseURL: `http://127.0.0.1:${port}`, bypassCSP: true });
      await page.goto("/login");
      await page.getByLabel("Name").fill("bench");
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.waitForURL((u) => !u.pathname.startsWith("/login"));
      await page.goto("/characters");
      await page
        .locator('[data-testid="character-row"]')
        .nth(ids.length - 1)
        .waitFor();
      // Every change of a row's state, with the time the DOM showed it (a MutationObserver
      // runs before the next paint). "on": the row has the Active badge (connecting or active).
      // (A string, not a function: tsx's esbuild wraps named functions in a `__name` helper
      // that does not exist in the page.)
      await page.evaluate(`(() => {
        const watched = ${JSON.stringify(ids)};
        const state = (id) => {
          const row = document.querySelector('[data-testid="character-row"][data-account="' + id + '"]');
          if (!row) return "missing";
          return row.querySelector('[data-testid="active-badge"]') ? "on" : "off";
        };
        const busy = (id) => !!document.querySelector('[data-testid="character-row"][data-account="' + id + '"] button[aria-busy="true"]');
        const last = new Map(watched.map((id) => [id, state(id)]));
        const lastBusy = new Map(watched.map((id) => [id, busy(id)]));
        const seen = (window.__benchSeen = []);
        new MutationObserver(() => {
          const at = Date.now();
          for (const id of watched) {
            const s = state(id);
            if (s !== last.get(id)) {
              last.set(id, s);
              seen.push({ id, state: s, at });
            }
            const b = busy(id);
            if (b !== lastBusy.get(id)) {
              lastBusy.set(id, b);
              if (b) seen.push({ id, state: "busy", at });
            }
          }
        }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        // Issue 30 A3: a click on a row's Stop/Start, timed in the page (no round trip to the bench).
        window.__benchClick = (id, label) => {
          const row = document.querySelector('[data-testid="character-row"][data-account="' + id + '"]');
          const button = row && [...row.querySelectorAll("button")].find((b) => (b.textContent || "").startsWith(label));
          if (!button) return null;
          const at = Date.now();
          button.click();
          return at;
        };
      })()`);
      const seenAfter = async (id: string, state: "on" | "off" | "busy", after: number, timeoutMs = 10_000) => {
        const handle = await page
          .waitForFunction(`window.__benchSeen.find((x) => x.id === "${id}" && x.state === "${state}" && x.at >= ${after})?.at`, undefined, {
            timeout: timeoutMs,
            polling: 20,
          })
          .catch((err: Error) => {
            if (process.env.BENCH_DEBUG) console.warn(`not seen: ${id} ${state}: ${err.message.split("\n")[0]}`);
            return null;
          });
        return handle ? ((await handle.jsonValue()) as number) : null;
      };

      type Change = { call: "start" | "stop"; sent: number; answered: number; shown: number | null };
      const changes: Change[] = [];
      const change = async (call: "start" | "stop", id: string) => {
        const sent = Date.now();
        await api(call, id);
        const answered = Date.now();
        const shown = await seenAfter(id, call === "stop" ? "off" : "on", sent);
        changes.push({ call, sent, answered, shown });
      };
      // Two warm-up changes (the stream connected, the first revalidation done), not counted.
      await change("stop", ids[0]);
      await change("start", ids[0]);
      await untilActive(new Set([ids[0]]), null, 30_000);
      changes.length = 0;
      const tLive = Date.now();
      for (let i = 0; i < LIVE_CHANGES; i++) {
        const id = ids[i % ids.length];
        await change("stop", id);
        await change("start", id);
        await untilActive(new Set([id]), null, 30_000);
      }
      console.log(`## live: ${LIVE_CHANGES} stops by API (and the starts between them) on the open All Characters page`);
      console.log(`- ${ids.length} stalker users on the page; app server (production build ${buildDir}) + one worker; Chromium; load average ${loadavg()}`);
      for (const call of ["stop", "start"] as const) {
        const cs = changes.filter((c) => c.call === call);
        const missed = cs.filter((c) => c.shown === null).length;
        const afterAnswer = cs
          .filter((c) => c.shown !== null)
          .map((c) => Math.max(0, c.shown! - c.answered))
          .sort((x, y) => x - y);
        const afterSend = cs
          .filter((c) => c.shown !== null)
          .map((c) => c.shown! - c.sent)
          .sort((x, y) => x - y);
        const line = (xs: number[]) =>
          `p50 ${quantile(xs, 0.5).toFixed(0)} ms, p95 ${quantile(xs, 0.95).toFixed(0)} ms, p99 ${quantile(xs, 0.99).toFixed(0)} ms, max ${xs[xs.length - 1]?.toFixed(0)} ms`;
        console.log(`- ${call} (${cs.length}, ${missed} not shown within 10 s):`);
        console.log(`  API answer → page shows it: ${line(afterAnswer)}`);
        console.log(`  request sent → page shows it: ${line(afterSend)}`);
      }
      console.log(`- ${secs(Date.now() - tLive)} in all\n`);

      // Issue 30 A3: the same page, the operator's own clicks: click → the button's pending state,
      // click → the row's new state (aim ≤ 300 ms on a quiet machine; "missed" says how often not).
      type Click = { call: "stop" | "start"; pending: number | null; shown: number | null };
      const clicks: Click[] = [];
      const click = async (call: "stop" | "start", id: string) => {
        const at = (await page.evaluate(`window.__benchClick(${JSON.stringify(id)}, ${JSON.stringify(call === "stop" ? "Stop" : "Start")})`)) as number | null;
        if (at === null) throw new Error(`no ${call} button on the row of ${id}`);
        const busyAt = await seenAfter(id, "busy", at, 5_000);
        const shownAt = await seenAfter(id, call === "stop" ? "off" : "on", at);
        clicks.push({ call, pending: busyAt === null ? null : busyAt - at, shown: shownAt === null ? null : shownAt - at });
        // The post's answer and its toast, before the next click.
        await page.waitForFunction(`!document.querySelector('[data-testid="character-row"] button[aria-busy="true"]')`, undefined, {
          timeout: 15_000,
          polling: 20,
        });
      };
      const CLICKS = num("BENCH_CLICKS", 20);
      const tClicks = Date.now();
      for (let i = 0; i < CLICKS; i++) {
        const id = ids[(i + 1) % ids.length];
        await click("stop", id);
        await click("start", id);
        await untilActive(new Set([id]), null, 30_000);
      }
      console.log(`## clicks: ${CLICKS} Stop and ${CLICKS} Start clicks on the rows of the open All Characters page (issue 30 A3)`);
      console.log(`- load average ${loadavg()}`);
      for (const call of ["stop", "start"] as const) {
        const cs = clicks.filter((c) => c.call === call);
        for (const [what, pick] of [
          ["click → button pending", (c: Click) => c.pending],
          ["click → row shows the new state", (c: Click) => c.shown],
        ] as const) {
          const xs = cs
            .map(pick)
            .filter((x): x is number => x !== null)
            .sort((x, y) => x - y);
          const over = xs.filter((x) => x > 300).length + (cs.length - xs.length);
          const p = (q: number) => quantile(xs, q).toFixed(0);
          console.log(
            `- ${call}: ${what}: p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${xs[xs.length - 1]?.toFixed(0)} ms · aim ≤ 300 ms: ${over ? `missed (${over} of ${cs.length})` : "met"}`,
          );
        }
      }
      console.log(`- ${secs(Date.now() - tClicks)} in all\n`);
      await browser.close();
      for (const id of ids) await api("stop", id);
      await stopAll();
      await stopWorker(w);
    }
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
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
