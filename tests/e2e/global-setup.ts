import fs from "node:fs";
import path from "node:path";
import { chromium, type FullConfig, type LaunchOptions } from "@playwright/test";
import { startDiscordSimulator } from "../../sim/discord/server";
import { startSimulator } from "../../sim/server";
import { deleteKeysMatching } from "../kit/redis-keys";
import { E2E_OPERATOR } from "./credentials";
import { E2E_BASE_PORT, E2E_RELOGIN_WINDOW_MS, WORLDS, type World } from "./world";

/**
 * Runs once per `playwright test`, after Playwright has started the webServers (plugins set
 * up before globalSetup) on freshly emptied data dirs. For each world (tests/e2e/world.ts) it
 * starts the Galaxy and Discord simulators the world's app points at, walks the real first-run
 * flow (`/` redirects to /setup, the form creates the operator and logs in) and saves the
 * logged-in browser state where that world's `use.storageState` points, so every spec starts
 * logged in. Logged-out journeys opt out with `test.use({ storageState: { cookies: [], origins: [] } })`.
 */
export default async function globalSetup(config: FullConfig) {
  const use = config.projects[0]!.use;
  const root = config.configFile ? path.dirname(config.configFile) : process.cwd();
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const closers: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  };
  try {
    // The worlds set up side by side: each one's first run is a few seconds of one browser page.
    await Promise.all(WORLDS.map((world) => setUpWorld(world, use.launchOptions, root, closers)));
  } catch (err) {
    await closeAll();
    throw err;
  }
  // Redis keys: an earlier run on these ports left its prefix behind (its server outlived its
  // teardown); this run's own go at its end (the servers may write a few more while they stop).
  const ours = WORLDS.map((w) => `gt-e2e-${w.port}-${process.env.E2E_RUN_ID}:`);
  for (const world of WORLDS) {
    await deleteKeysMatching(redisUrl, `gt-e2e-${world.port}-*`, (key) => !ours.some((prefix) => key.startsWith(prefix)));
  }
  return async () => {
    await closeAll();
    for (const prefix of ours) await deleteKeysMatching(redisUrl, `${prefix}*`, () => true);
  };
}

async function setUpWorld(world: World, launchOptions: LaunchOptions | undefined, root: string, closers: Array<() => Promise<void>>) {
  // The Galaxy simulator the app points at (GALAXY_WS_URL in playwright.config.ts); specs read
  // its seeded accounts from GET /__sim/accounts. It lives as long as this run. With the
  // platform's "recently left" window (a login soon after the account's last QUIT gets 452;
  // decision 0042), scaled to E2E_RELOGIN_WINDOW_MS with the app's GALAXY_RELOGIN_WINDOW_MS.
  const sim = await startSimulator({ port: world.simPort, reloginWindowMs: E2E_RELOGIN_WINDOW_MS });
  closers.push(() => sim.close());
  // The Discord simulator the GalaCord bot logs in to (DISCORD_API_URL in playwright.config.ts).
  const discord = await startDiscordSimulator({ port: world.discordPort });
  closers.push(() => discord.close());

  const statePath = path.resolve(root, world.storageState);
  fs.mkdirSync(path.dirname(statePath), { recursive: true });
  const browser = await chromium.launch(launchOptions);
  const page = await browser.newPage({ baseURL: world.baseURL });
  try {
    const response = await page.goto("/");
    const landed = new URL(page.url());
    if (landed.pathname !== "/setup") {
      throw new Error(
        `Expected the first visit of ${world.baseURL}/ to redirect to /setup, got ${landed.pathname} (HTTP ${response?.status()}). ` +
          `Is ${world.dataDir} left over from another run?`,
      );
    }
    await page.getByLabel("Name").fill(E2E_OPERATOR.name);
    await page.getByLabel("Password", { exact: true }).fill(E2E_OPERATOR.password);
    await page.getByLabel("Confirm password").fill(E2E_OPERATOR.password);
    await page.getByRole("button", { name: "Create operator" }).click();
    await page.waitForURL((url) => url.pathname !== "/setup", { timeout: 30_000 });
    const cookies = await page.context().cookies();
    if (!cookies.some((c) => c.name === "gt_session")) throw new Error("Setup finished without a session cookie");
    await page.context().storageState({ path: statePath });
  } catch (err) {
    const shot = path.resolve(root, `test-results/${E2E_BASE_PORT}/global-setup-failure-${world.port}.png`);
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    throw err;
  } finally {
    await browser.close();
  }
}
