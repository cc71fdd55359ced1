import fs from "node:fs";
import path from "node:path";
import { chromium, type FullConfig } from "@playwright/test";
import { startDiscordSimulator } from "../../sim/discord/server";
import { startSimulator } from "../../sim/server";
import { deleteKeysMatching } from "../kit/redis-keys";
import { E2E_OPERATOR } from "./credentials";

/**
 * Runs once per `playwright test`, after Playwright has started the webServer (plugins set
 * up before globalSetup) on a freshly emptied data dir. It walks the real first-run flow —
 * `/` redirects to /setup, the form creates the operator and logs in — and saves the
 * logged-in browser state where `use.storageState` points, so every spec starts logged in.
 * Logged-out journeys opt out with `test.use({ storageState: { cookies: [], origins: [] } })`.
 */
export default async function globalSetup(config: FullConfig) {
  const use = config.projects[0]!.use;
  const baseURL = use.baseURL;
  const storageState = use.storageState;
  if (!baseURL || typeof storageState !== "string") {
    throw new Error("playwright.config.ts must set use.baseURL and use.storageState (a file path)");
  }
  const port = process.env.E2E_PORT ?? "3100";
  // Relative paths in the config are relative to the config file (the repository root).
  const statePath = path.resolve(config.configFile ? path.dirname(config.configFile) : process.cwd(), storageState);
  fs.mkdirSync(path.dirname(statePath), { recursive: true });

  // The Galaxy simulator the app points at (GALAXY_WS_URL in playwright.config.ts); specs read
  // its seeded accounts from GET /__sim/accounts. It lives as long as this run.
  const simPort = Number(process.env.E2E_SIM_PORT ?? Number(port) + 1000);
  const sim = await startSimulator({ port: simPort });
  // The Discord simulator the GalaCord bot logs in to (DISCORD_API_URL in playwright.config.ts).
  const discord = await startDiscordSimulator({ port: Number(process.env.E2E_DISCORD_PORT ?? Number(port) + 2000) });

  const browser = await chromium.launch(use.launchOptions);
  const page = await browser.newPage({ baseURL });
  try {
    const response = await page.goto("/");
    const landed = new URL(page.url());
    if (landed.pathname !== "/setup") {
      throw new Error(
        `Expected the first visit of ${baseURL}/ to redirect to /setup, got ${landed.pathname} (HTTP ${response?.status()}). ` +
          `Is data-e2e-${port} left over from another run?`,
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
    const shot = path.resolve(`test-results/${port}/global-setup-failure.png`);
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    await sim.close().catch(() => {});
    await discord.close().catch(() => {});
    throw err;
  } finally {
    await browser.close();
  }
  // Redis keys: an earlier run on this port left its prefix behind (its server outlived its
  // teardown); this run's own go at its end (the server may write a few more while it stops).
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const ours = `gt-e2e-${port}-${process.env.E2E_RUN_ID}`;
  await deleteKeysMatching(redisUrl, `gt-e2e-${port}-*`, (key) => !key.startsWith(`${ours}:`));
  return async () => {
    await sim.close();
    await discord.close();
    await deleteKeysMatching(redisUrl, `${ours}:*`, () => true);
  };
}
