/**
 * Bench: All Characters' Create User (issue 30 A7: one tour measured 6.5–7 s, 0.6 s before).
 *
 * Starts the Galaxy simulator in-process and a private PostgreSQL database, then creates users
 * from the simulator's recovery codes the way the Add User dialog does
 * (`createUserFromRecoveryCode`: sign in with the code, QUIT, store the user), one after the
 * other, and prints the median and worst time with where it goes: the sign-in up to 999
 * (`connect`), the logout and the user-agent post (`close`), storing the user (`store`), and
 * what the action did after that before answering: queue the new user's details job and wait
 * for a worker to store them (`details`; no worker runs here, as behind a busy one: the wait
 * runs out). Nothing is asserted.
 *
 * Found (2026-11-28, loaded machine): the sign-in and the store take ~35 ms together; the
 * action then waited up to SESSION_START_WAIT_MS (4 s) for the details, which with the
 * platform's own latency made the 6.5–7 s of the tour. The action no longer waits with
 * JavaScript (the page follows the details live) and at most 1.5 s without.
 *
 *   node --import tsx bench/create-user.ts [--users 10] [--latency 0]
 *
 * `--latency` adds that many ms to every simulator answer (a platform far away).
 */
import crypto from "node:crypto";
import { parseArgs } from "node:util";
import { privateDatabase, removeRedisKeysAtEnd, type Cleanup } from "./db";

const { values: args } = parseArgs({ options: { users: { type: "string", default: "10" }, latency: { type: "string", default: "0" } } });
const USERS = Number(args.users);
const LATENCY = Number(args.latency);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (n: number) => `${Math.round(n)} ms`;

async function main() {
  const cleanups: Cleanup[] = [];
  try {
    const { url, dataDir } = await privateDatabase("gt_bench_create_user", cleanups);
    const { startSimulator } = await import("#sim/server");
    const sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
    cleanups.unshift(() => sim.close());
    sim.world.faults.latencyMs = LATENCY;
    Object.assign(process.env, {
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      APP_SECRET: crypto.randomBytes(24).toString("hex"),
      GALAXY_WS_URL: sim.wsUrl,
      GALAXY_SERVICES_URL: sim.servicesUrl,
      START_REDIS: "false",
      RUN_WORKER: "false",
      QUEUE_PREFIX: `gt-bench-create-user-${process.pid}`,
    });
    removeRedisKeysAtEnd(cleanups, process.env.QUEUE_PREFIX!);
    const { closeDb, getDb } = await import("~/db/client.server");
    cleanups.unshift(() => closeDb());
    await getDb();
    const { createUserFromRecoveryCode } = await import("~/platform/create-creds.server");
    const { createGalaxyConnection } = await import("~/platform/connection-deps.server");
    const { upsertUser } = await import("~/models/user.server");

    const accounts = sim.world.accounts.filter((a) => a.kind === "plain").slice(0, USERS * 2);
    if (accounts.length < USERS * 2) throw new Error(`the simulator has ${accounts.length} plain accounts, fewer than ${USERS * 2}`);

    // The whole of Create User, as the dialog's action runs it.
    const whole: number[] = [];
    for (const a of accounts.slice(0, USERS)) {
      const t0 = performance.now();
      await createUserFromRecoveryCode({ rc: a.recoveryCode, type: "bowling" });
      whole.push(performance.now() - t0);
    }
    // The same steps one by one.
    const phases = { connect: [] as number[], close: [] as number[], store: [] as number[] };
    for (const a of accounts.slice(USERS)) {
      const connection = createGalaxyConnection({ credentials: { recoveryCode: a.recoveryCode }, joinOnConnect: false });
      let t = performance.now();
      const info = await connection.connect();
      phases.connect.push(performance.now() - t);
      t = performance.now();
      await connection.close();
      phases.close.push(performance.now() - t);
      t = performance.now();
      await upsertUser({ accountId: info.id, nick: info.nick, password: info.password, type: "bowling" });
      phases.store.push(performance.now() - t);
    }
    // What the action does next: before issue 30 A7 it waited startWaitMs() for a worker, with or without JavaScript.
    const { loadNewUserDetails } = await import("~/models/character-refresh.server");
    const { startWaitMs } = await import("~/models/stalker.server");
    const { closeQueues } = await import("~/queue/queues.server");
    const { createTestOperator } = await import("#tests/kit/auth");
    const operator = await createTestOperator();
    const details = { before: [] as number[], js: [] as number[], noJs: [] as number[] };
    for (const [key, waitMs] of [
      ["before", startWaitMs()],
      ["js", 0],
      ["noJs", Math.min(startWaitMs(), 1_500)],
    ] as const) {
      const t = performance.now();
      await loadNewUserDetails(accounts[0]!.id, operator.id, { waitMs });
      details[key].push(performance.now() - t);
    }
    await closeQueues();
    console.log(`Create User × ${USERS} (simulator latency ${LATENCY} ms): median ${ms(median(whole))}, worst ${ms(Math.max(...whole))}`);
    for (const [name, xs] of Object.entries(phases)) console.log(`  ${name.padEnd(8)} median ${ms(median(xs))}, worst ${ms(Math.max(...xs))}`);
    console.log(
      `  details  queued, then waited for a worker: before ${ms(details.before[0]!)} (SESSION_START_WAIT_MS), now ${ms(details.js[0]!)} with JavaScript, ${ms(details.noJs[0]!)} without`,
    );
  } finally {
    for (const c of cleanups) await c().catch(() => {});
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
