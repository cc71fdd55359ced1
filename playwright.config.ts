import fs from "node:fs";

import { defineConfig, devices } from "@playwright/test";

import { E2E_BASE_PORT, E2E_BUILD_DIR, E2E_WORKERS, WORLD } from "./tests/e2e/world";

/**
 * E2E journeys in Debian's Chromium (never a downloaded browser) against the production
 * build, with fresh databases (world 0 embedded, the others PostgreSQL; decision 0050) and
 * fresh simulators per run.
 * `*.nojs.spec.ts` files run with JavaScript disabled (forms, redirects, flash toasts).
 * E2E_WORKERS workers (3 by default) each own a world (tests/e2e/world.ts): an app server on
 * E2E_PORT + N with its own data dir, simulators and Redis prefix. This file is evaluated in
 * every worker too: `use.baseURL` and `use.storageState` are that worker's world's.
 * E2E_PORT lets several runs coexist on one machine (leave E2E_WORKERS ports between them).
 */
// Set once in the main process; the servers and workers inherit it, so every process agrees on it.
process.env.E2E_RUN_ID ??= Date.now().toString(36);
/**
 * E2E_PREBUILT=1: `build-e2e-<port>` is already the production build of this tree
 * (scripts/test.sh builds it while the other stages run), so the webServers only start.
 */
const build = process.env.E2E_PREBUILT === "1" ? "" : `BUILD_DIR=${E2E_BUILD_DIR} npx remix vite:build >/dev/null && `;

/**
 * The worlds' app servers, started side by side by one webServer (tests/e2e/serve-worlds.ts:
 * Playwright starts several webServers one after the other, each once the one before answers),
 * after the build when not prebuilt. It prints "worlds ready" once every world answers.
 */
const worldServers = {
  command: `${build}node --import tsx tests/e2e/serve-worlds.ts`,
  wait: { stdout: /worlds ready/ },
  timeout: 240_000,
  reuseExistingServer: false,
  stdout: "ignore" as const,
  stderr: "pipe" as const,
};

/**
 * Debian's headless build of the same Chromium (package chromium-headless-shell, the same
 * version and Blink as /usr/bin/chromium; what Playwright itself runs headless), and V8 without
 * its optimising compilers: a journey's page lives seconds, so compiling hot code never paid
 * back. Together a third to a half less of the browser's CPU on the same pages (decision 0048);
 * /usr/bin/chromium where the headless build is not installed, or CHROMIUM_PATH.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const browserPath = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: browserPath,
    args: [
      "--headless",
      "--js-flags=--no-opt --no-maglev",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // One renderer process for a worker's journeys, not a new one for each (decision 0051).
      // Between journeys Playwright's reuse of the context takes the tab to about:blank, which a
      // renderer locked to one site (site isolation) may not host: every journey began in a newly
      // launched renderer, ~0.11 core-seconds each. The journeys visit one site, this app, so
      // keeping sites apart guards nothing here. (Not `--disable-features=…`: a second one
      // would replace Playwright's own list, the last of a switch being the one Chromium reads.)
      "--disable-site-isolation-trials",
    ],
  },
};

export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: `test-results/${E2E_BASE_PORT}`,
  // Files are spread over the workers; a file's journeys run in order, in one world.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    // One browser context per worker, reset between journeys (cookies and storage back to the
    // storage state, routes, init scripts, dialogs and the clock removed, extra pages closed,
    // the tab back on about:blank). A fresh context and tab cost ~1.7 core-seconds per journey,
    // most of the browser's share of the run (docs/testing.md "One tab per worker").
    // A journey that changes other options (`test.use({ storageState })`, touch) gets a fresh
    // context, as Playwright does whenever those options differ.
    reuseContext: true,
    baseURL: WORLD.baseURL,
    // A trace of the retry of a failed journey (CI retries once): recording every passing
    // journey cost a sixth of the run's time.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    storageState: WORLD.storageState,
    // The `request` fixture writes to /api with the session cookie, as the browser would:
    // cookie-authenticated writes must name their origin (docs/decisions/0006).
    extraHTTPHeaders: { Origin: WORLD.baseURL },
  },
  projects: [
    { name: "js", testIgnore: /\.nojs\.spec\.ts$/, use: { ...chromium } },
    { name: "nojs", testMatch: /\.nojs\.spec\.ts$/, use: { ...chromium, javaScriptEnabled: false } },
  ],
  // E2E_WORLDS_UP=1: scripts/test.sh started the worlds' servers itself (beside the multi-host
  // test) and they answer; the run only uses them.
  webServer: process.env.E2E_WORLDS_UP === "1" ? undefined : worldServers,
});
