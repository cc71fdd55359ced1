/**
 * Bench: the All Characters details refresh (issue 9 bench (a)).
 *
 * Starts the simulator in-process with `latencyMs` on every services answer, stores N of its
 * accounts as users in a private PostgreSQL database, then runs the real characters refresh
 * (`refreshCharacters` of jobs/processors/characters.ts, the code the bulk-refresh and
 * status-refresh jobs run): one batched user_pics call, then status and gift stats per user,
 * cache skipped, one character_details row written per user. All calls act with one account's
 * credentials (spec 2 §6), so two limits of the services client apply:
 *
 *   concurrency floor  = calls ÷ concurrency × latency
 *   per-account floor  = (calls − burst) ÷ perAccountPerSecond   (token bucket of the acting account)
 *
 * It prints the elapsed time, both floors and the ratios (aim ≤ 1.25 × the binding floor).
 * Nothing is asserted.
 *
 *   node --import tsx bench/characters-refresh.ts [--accounts 200] [--latency 50] [--rate N] [--burst N]
 *
 * `--rate`/`--burst` override the per-account token bucket for a what-if run (the shipped
 * values live in app/galaxy/services-config.ts).
 */
import crypto from "node:crypto";
import { parseArgs } from "node:util";
import { privateDatabase } from "./db";

const { values: args } = parseArgs({
  options: {
    accounts: { type: "string", default: "200" },
    latency: { type: "string", default: "50" },
    rate: { type: "string" },
    burst: { type: "string" },
  },
});
const ACCOUNTS = Number(args.accounts);
const LATENCY = Number(args.latency);

async function main() {
  const cleanups: Array<() => Promise<void>> = [];
  try {
    const { url, dataDir } = await privateDatabase("gt_bench_chars", cleanups);

    const { startSimulator } = await import("#sim/server");
    const sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
    cleanups.unshift(() => sim.close());
    if (sim.world.accounts.length < ACCOUNTS) throw new Error(`the simulator has ${sim.world.accounts.length} accounts, fewer than ${ACCOUNTS}`);

    Object.assign(process.env, {
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      APP_SECRET: crypto.randomBytes(24).toString("hex"),
      GALAXY_SERVICES_URL: sim.servicesUrl,
    });
    const { getServicesConfig, buildServicesConfig } = await import("~/galaxy/services-config");
    const { GalaxyServices } = await import("~/galaxy/services.server");
    const { remember } = await import("~/utils/remember.server");
    const { closeDb } = await import("~/db/client.server");
    const { upsertUser } = await import("~/models/user.server");
    const { getCharacterDetails } = await import("~/models/character-details.server");
    const { refreshCharacters } = await import("#jobs/processors/characters");
    const { servicesState, resetServicesFigures } = await import("#sim/services-data");
    cleanups.unshift(async () => closeDb());

    const shipped = getServicesConfig();
    const limits = {
      ...shipped.limits,
      ...(args.rate ? { perAccountPerSecond: Number(args.rate) } : {}),
      ...(args.burst ? { perAccountBurst: Number(args.burst) } : {}),
    };
    const config = buildServicesConfig({ ...shipped, limits });
    // The app's one services client (getGalaxyServices) is remembered under this key.
    const services = remember("galaxy-services", () => new GalaxyServices({ baseUrl: sim.servicesUrl, config, userAgents: async () => null }));
    cleanups.unshift(async () => services.close());

    const accounts = sim.world.accounts.slice(0, ACCOUNTS);
    for (const [i, a] of accounts.entries()) {
      await upsertUser({ accountId: a.id, nick: `C${String(i).padStart(3, "0")}`, password: a.password, type: "bowling" });
    }
    sim.world.faults.latencyMs = LATENCY;

    const runs: number[] = [];
    let calls = 0;
    for (let round = 0; round < 3; round++) {
      resetServicesFigures(sim.world);
      services.clearCache();
      // A fresh token bucket per round: new client state, same config.
      const started = performance.now();
      const result = await refreshCharacters({ force: true, parts: { pictures: true, statuses: true, gifts: true } });
      runs.push(performance.now() - started);
      calls = [...servicesState(sim.world).counts.values()].reduce((a, b) => a + b, 0);
      if (result.done !== ACCOUNTS) throw new Error(`refreshed ${result.done} of ${ACCOUNTS}`);
      // Let the acting account's token bucket refill before the next round.
      await new Promise((r) => setTimeout(r, Math.ceil((limits.perAccountBurst / limits.perAccountPerSecond) * 1000)));
    }
    const rows = (await getCharacterDetails()).size;
    const median = [...runs].sort((a, b) => a - b)[1]!;
    const concurrencyFloor = (calls / limits.concurrency) * LATENCY;
    const rateFloor = (Math.max(0, calls - limits.perAccountBurst) / limits.perAccountPerSecond) * 1000;
    const floor = Math.max(concurrencyFloor, rateFloor);
    console.log(`## Characters details refresh: ${ACCOUNTS} characters, ${LATENCY} ms simulated latency`);
    console.log(
      `calls per refresh ${calls} (user_pics batched by maxIdsPerCall, ${ACCOUNTS} status, ${ACCOUNTS} gift stats), concurrency ${limits.concurrency}, per-account ${limits.perAccountPerSecond}/s burst ${limits.perAccountBurst}`,
    );
    console.log(`runs ${runs.map((r) => r.toFixed(0)).join(", ")} ms; median ${median.toFixed(0)} ms; ${rows} character_details rows`);
    console.log(`concurrency floor ${concurrencyFloor.toFixed(0)} ms → ratio ${(median / concurrencyFloor).toFixed(2)}`);
    console.log(`per-account rate floor ${rateFloor.toFixed(0)} ms → ratio to the binding floor (${floor.toFixed(0)} ms) ${(median / floor).toFixed(2)}`);
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
