/**
 * Bench: the Bowling Bots refresh (issue 10 "Proof": 200 bowling accounts × 4 calls at 50 ms
 * simulated latency, from the click to last-fetched, as a ratio to the concurrency floor).
 *
 * Starts the simulator with `latencyMs` on every services answer — in its own process by
 * default (`--sim child`): the platform is not in the app's process, and in-process its HTTP
 * handling (~1 ms CPU per call) competes with the worker for the same thread — stores N of its
 * accounts as bowling users (with iHeaders) in a private PostgreSQL database, a private Redis
 * prefix, and an in-process worker pool (jobs/worker.ts). Each round starts the clock, runs
 * what the /gifts action's refresh intent runs (requestBowlingRefresh: the click; the route
 * module itself imports CSS and loads only under Vite) and stops it when last-fetched is stored
 * (polled every 5 ms). In between: the job is queued, a worker takes
 * it, the user-agent map is stored, then pic, status, gift stats and collection 151 per account
 * (each acting as itself, cache skipped), one character_details row written per account.
 * The daily-totals pull after last-fetched is outside the measured span (it feeds the Summary).
 *
 *   concurrency floor = calls ÷ concurrency × latency   (calls = accounts × 4)
 *
 * Each account spends 4 tokens of its own bucket (burst 40), so the per-account rate is not
 * binding here. Prints the runs, the median and the ratio (aim ≤ 1.25). Nothing is asserted.
 *
 *   node --import tsx bench/bowling-refresh.ts [--accounts 200] [--latency 50] [--rounds 3]
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import { parseArgs } from "node:util";
import { deleteKeys, freePort } from "#jobs/test-helpers";
import { privateDatabase } from "./db";

const { values: args } = parseArgs({
  options: {
    accounts: { type: "string", default: "200" },
    latency: { type: "string", default: "50" },
    rounds: { type: "string", default: "3" },
    sim: { type: "string", default: "child" },
  },
});
const ACCOUNTS = Number(args.accounts);
const LATENCY = Number(args.latency);
const ROUNDS = Math.max(1, Number(args.rounds));

async function main() {
  const cleanups: Array<() => Promise<void>> = [];
  try {
    const { url, dbName, dataDir } = await privateDatabase("gt_bench_bowling", cleanups);
    type Account = { id: string; password: string };
    let sim: { servicesUrl: string; wsUrl: string; accounts: Account[]; setLatency: (ms: number) => Promise<void> };
    if (args.sim === "in-process") {
      const { startSimulator } = await import("#sim/server");
      const inProcess = await startSimulator({ port: 0, pingIntervalMs: 0 });
      cleanups.unshift(() => inProcess.close());
      sim = {
        servicesUrl: inProcess.servicesUrl,
        wsUrl: inProcess.wsUrl,
        accounts: inProcess.world.accounts,
        setLatency: async (ms) => void (inProcess.world.faults.latencyMs = ms),
      };
    } else {
      const port = await freePort();
      const child = spawn(process.execPath, ["--import", "tsx", "sim/main.ts"], {
        env: { ...process.env, GALAXY_SIM_PORT: String(port), GALAXY_SIM_PING_MS: "0" },
        stdio: ["ignore", "ignore", "inherit"],
      });
      cleanups.unshift(async () => void child.kill("SIGTERM"));
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; ; i++) {
        const ok = await fetch(`${base}/__sim`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (i > 300) throw new Error("the simulator did not start");
        await new Promise((r) => setTimeout(r, 100));
      }
      const { accounts } = (await (await fetch(`${base}/__sim/accounts`)).json()) as { accounts: Account[] };
      sim = {
        servicesUrl: `${base}/services/`,
        wsUrl: `ws://127.0.0.1:${port}/`,
        accounts,
        setLatency: async (ms) => {
          const r = await fetch(`${base}/__sim/faults`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ latencyMs: ms }),
          });
          if (!r.ok) throw new Error(`POST /__sim/faults answered ${r.status}`);
        },
      };
    }
    if (sim.accounts.length < ACCOUNTS) throw new Error(`the simulator has ${sim.accounts.length} accounts, fewer than ${ACCOUNTS}`);

    const env = {
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      APP_SECRET: crypto.randomBytes(24).toString("hex"),
      GALAXY_SERVICES_URL: sim.servicesUrl,
      GALAXY_WS_URL: sim.wsUrl,
      QUEUE_PREFIX: `gt-bench-${dbName}`,
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      START_REDIS: "false",
      RUN_WORKER: "false",
    };
    Object.assign(process.env, env);
    cleanups.push(async () => deleteKeys(env.REDIS_URL, env.QUEUE_PREFIX));

    const { closeDb } = await import("~/db/client.server");
    const { closeQueues } = await import("~/queue/queues.server");
    const { startWorkers } = await import("#jobs/worker");
    const { upsertUser } = await import("~/models/user.server");
    const { getLastFetched } = await import("~/models/bowling-user.server");
    const { getBowlingRefreshProgress } = await import("~/models/bowling-refresh.server");
    const { getCharacterDetails } = await import("~/models/character-details.server");
    const { getGalaxyServices } = await import("~/platform/galaxy-services.server");
    const { requestBowlingRefresh } = await import("~/models/bowling-refresh.server");
    cleanups.unshift(async () => {
      await closeQueues();
      await closeDb();
    });

    const headers = JSON.stringify({ "X-Galaxy-Platform": "web", "X-Galaxy-User-Agent": "Mozilla/5.0 bench" });
    const accounts = sim.accounts.slice(0, ACCOUNTS);
    for (const [i, a] of accounts.entries()) {
      await upsertUser({ accountId: a.id, nick: `B${String(i).padStart(3, "0")}`, password: a.password, type: "bowling", iHeaders: headers });
    }

    const pool = startWorkers({ mode: "in-process" });
    cleanups.unshift(() => pool.close(10_000));
    const services = getGalaxyServices();
    const limits = services.config.limits;
    await sim.setLatency(LATENCY);

    const runs: number[] = [];
    // Four calls per account (checked: every round must end with no failed account).
    const calls = ACCOUNTS * 4;
    for (let round = 0; round < ROUNDS; round++) {
      // The previous round's job (daily-totals pull included) must have ended.
      for (;;) {
        const p = await getBowlingRefreshProgress();
        if (!p || !p.running) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const before = await getLastFetched();
      const started = performance.now();
      const { started: queued } = await requestBowlingRefresh();
      if (!queued) throw new Error("a refresh was still queued or running");
      for (;;) {
        const at = await getLastFetched();
        if (at && at !== before) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      runs.push(performance.now() - started);
      const p = await getBowlingRefreshProgress();
      if (p && (p.total !== ACCOUNTS || p.failed !== 0)) throw new Error(`round ${round}: ${JSON.stringify(p)}`);
    }
    const rows = (await getCharacterDetails()).size;
    const sorted = [...runs].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const floor = (calls / limits.concurrency) * LATENCY;
    console.log(
      `## Bowling Bots refresh: ${ACCOUNTS} bowling accounts, ${LATENCY} ms simulated latency, simulator ${args.sim === "in-process" ? "in-process" : "in a child process"}`,
    );
    console.log(`calls per refresh ${calls} (pic, status, gift stats, collection 151 per account), concurrency ${limits.concurrency}`);
    console.log(`click → last-fetched: runs ${runs.map((r) => r.toFixed(0)).join(", ")} ms; median ${median.toFixed(0)} ms; ${rows} character_details rows`);
    console.log(`concurrency floor ${floor.toFixed(0)} ms → ratio ${(median / floor).toFixed(2)}`);
  } finally {
    for (const c of cleanups) await c().catch((e: unknown) => console.error("cleanup:", e));
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
