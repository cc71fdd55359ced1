/**
 * The e2e run's worlds (docs/testing.md "Browser journeys in parallel"). Playwright runs
 * E2E_WORKERS workers; worker N (TEST_PARALLEL_INDEX, which Playwright sets in each worker's
 * environment and keeps unique among the workers alive) owns world N: its own app server on
 * E2E_PORT + N with its own database (world 0 the embedded one, the others PostgreSQL;
 * decision 0050) and data dir, its own Galaxy simulator on
 * port + 1000 and Discord simulator on port + 2000, its own Redis prefix. A spec file runs in
 * one worker, so it sees only its world: the journeys keep the sequential run's isolation
 * while the worlds run side by side. The main process (and globalSetup) sees world 0 here.
 */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
/**
 * Three by default on this 2-core machine: a journey waits on its page and its server for part
 * of its time, and since journeys share a tab (playwright.config.ts reuseContext) each costs
 * less CPU, so two workers left it idle (measured 2026-11-26: 6.6 → 5.4 min, docs/testing.md).
 */
/**
 * The platform's "recently left" window in the journeys' worlds (decision 0042): the simulator
 * and the app alike, at 3 s instead of 10 s (the demo has 10 s), so every Collections login (a
 * sign-in, then the session's login) waits 3.6 s, not 11 s.
 */
export const E2E_RELOGIN_WINDOW_MS = 3_000;

export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 3) || 1);

export type World = {
  port: number;
  baseURL: string;
  simPort: number;
  simUrl: string;
  discordPort: number;
  discordUrl: string;
  dataDir: string;
  /** The logged-in state of the first-run operator, written by global-setup.ts. */
  storageState: string;
  /**
   * The world's database: "" for world 0, which runs on the embedded database as a first
   * `npm start` does (its server makes the files itself); a PostgreSQL database of its own,
   * made afresh for each run by tests/e2e/serve-worlds.ts, for every other world (decision 0050).
   */
  databaseUrl: string;
};

/** Where the PostgreSQL worlds' databases are made (the machine's server, as vitest's). */
export const E2E_PG_URL = process.env.E2E_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** World `index`'s PostgreSQL database name (worlds 1…N; world 0 is embedded). */
export const worldDatabaseName = (port: number) => `gt_e2e_${port}`;

export function worldAt(index: number): World {
  const port = E2E_BASE_PORT + index;
  const simPort = port + 1000;
  const discordPort = port + 2000;
  const dataDir = `data-e2e-${port}`;
  return {
    port,
    baseURL: `http://127.0.0.1:${port}`,
    simPort,
    simUrl: `http://127.0.0.1:${simPort}`,
    discordPort,
    discordUrl: `http://127.0.0.1:${discordPort}`,
    dataDir,
    storageState: `${dataDir}/storage-state.json`,
    databaseUrl: index === 0 ? "" : databaseUrlFor(worldDatabaseName(port)),
  };
}

function databaseUrlFor(name: string): string {
  const url = new URL(E2E_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Every world of the run, world 0 first. */
export const WORLDS: World[] = Array.from({ length: E2E_WORKERS }, (_, i) => worldAt(i));

/** This process's world: a worker's own (TEST_PARALLEL_INDEX), world 0 elsewhere. */
export const WORLD: World = worldAt(Math.min(Number(process.env.TEST_PARALLEL_INDEX ?? 0) || 0, E2E_WORKERS - 1));

/** The production build every world serves (one build per run). */
export const E2E_BUILD_DIR = `build-e2e-${E2E_BASE_PORT}`;

/**
 * One world's app server environment: its port, data dir, simulators and Redis prefix, the
 * run's build (tests/e2e/serve-worlds.ts starts one server per world with it).
 */
export function worldServerEnv(world: World, runId: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    PORT: String(world.port),
    HOST: "127.0.0.1",
    BUILD_DIR: E2E_BUILD_DIR,
    DATA_DIR: world.dataDir,
    DATABASE_URL: world.databaseUrl,
    // Redis outlives the run's data dir: a fresh prefix per world and run (rate-limit counters, jobs).
    QUEUE_PREFIX: `gt-e2e-${world.port}-${runId}`,
    START_REDIS: "false",
    APP_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
    E2E: "1",
    GALAXY_WS_URL: `ws://127.0.0.1:${world.simPort}/`,
    GALAXY_SERVICES_URL: `${world.simUrl}/services/`,
    DISCORD_TOKEN: "sim-bot-token",
    DISCORD_API_URL: `${world.discordUrl}/api`,
    GALAXY_RELOGIN_WINDOW_MS: String(E2E_RELOGIN_WINDOW_MS),
  };
}
