import { defineConfig, devices } from "@playwright/test";

/**
 * E2E journeys in Debian's Chromium (never a downloaded browser) against the production
 * build, with a fresh embedded database and a fresh simulator per run.
 * `*.nojs.spec.ts` files run with JavaScript disabled (forms, redirects, flash toasts).
 * E2E_PORT lets several runs coexist on one machine; each gets its own build and data dir.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
/** The Galaxy simulator of this run (started by global-setup.ts); the app connects to it. */
const simPort = Number(process.env.E2E_SIM_PORT ?? port + 1000);
/** The Discord simulator of this run (global-setup.ts); the GalaCord bot logs in to it. */
const discordPort = Number(process.env.E2E_DISCORD_PORT ?? port + 2000);
const buildDir = `build-e2e-${port}`;
const dataDir = `data-e2e-${port}`;
// Set once in the main process; workers inherit it, so every process agrees on it.
const runId = (process.env.E2E_RUN_ID ??= Date.now().toString(36));
/**
 * E2E_PREBUILT=1: `build-e2e-<port>` is already the production build of this tree
 * (scripts/test.sh builds it while the other stages run), so the webServer only starts.
 */
const build = process.env.E2E_PREBUILT === "1" ? "" : `BUILD_DIR=${buildDir} npx remix vite:build >/dev/null && `;

const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: `test-results/${port}`,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    baseURL,
    trace: "retain-on-failure",
    storageState: `${dataDir}/storage-state.json`,
    // The `request` fixture writes to /api with the session cookie, as the browser would:
    // cookie-authenticated writes must name their origin (docs/decisions/0006).
    extraHTTPHeaders: { Origin: baseURL },
  },
  projects: [
    { name: "js", testIgnore: /\.nojs\.spec\.ts$/, use: { ...chromium } },
    { name: "nojs", testMatch: /\.nojs\.spec\.ts$/, use: { ...chromium, javaScriptEnabled: false } },
  ],
  webServer: {
    command: `rm -rf ${dataDir} && ${build}node ${buildDir}/server.js`,
    url: `${baseURL}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      BUILD_DIR: buildDir,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      // Redis outlives the run's data dir: a fresh prefix per run (rate-limit counters, jobs).
      QUEUE_PREFIX: `gt-e2e-${port}-${runId}`,
      START_REDIS: "false",
      APP_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
      E2E: "1",
      GALAXY_WS_URL: `ws://127.0.0.1:${simPort}/`,
      GALAXY_SERVICES_URL: `http://127.0.0.1:${simPort}/services/`,
      DISCORD_TOKEN: "sim-bot-token",
      DISCORD_API_URL: `http://127.0.0.1:${discordPort}/api`,
    },
  },
});
