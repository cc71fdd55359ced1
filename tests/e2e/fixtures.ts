import { test as base, type BrowserContext, type Page } from "@playwright/test";
import { SIM_URL } from "./characters-fixtures";

export { expect } from "@playwright/test";

type Faults = Record<string, unknown>;

async function postFaults(faults: Faults): Promise<void> {
  const res = await fetch(`${SIM_URL}/__sim/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(faults) });
  if (!res.ok) throw new Error(`POST /__sim/faults answered ${res.status}: ${await res.text()}`);
}

async function currentFaults(): Promise<Faults> {
  const res = await fetch(`${SIM_URL}/__sim/faults`);
  if (!res.ok) throw new Error(`GET /__sim/faults answered ${res.status}`);
  return ((await res.json()) as { faults: Faults }).faults;
}

/**
 * Playwright's reuse of the worker's browser context (playwright.config.ts `reuseContext`) clears
 * the browser's HTTP cache before each journey (`Network.clearBrowserCache`), so every journey's
 * first page fetched and compiled all of the build's assets again. Here that one step is left out
 * for the reused context: the assets' names carry their content's hash and never change, and
 * every other answer of the app is `Cache-Control: no-store`, so a journey sees exactly what it
 * saw before, as an operator's browser that has opened the app before would. Cookies, storage,
 * routes, init scripts and the tab are still reset by Playwright as before. Measured over the
 * 90 a11y journeys, ~5 % less CPU (docs/decisions/0053). Playwright's own objects in this
 * process (the in-process server, `toImpl`) are an internal of the pinned version: where they are
 * not found, nothing is changed and the cache is cleared as before. E2E_CLEAR_CACHE=1 keeps
 * Playwright's behaviour, for comparison.
 */
function keepHttpCache(context: BrowserContext) {
  if (process.env.E2E_CLEAR_CACHE === "1") return;
  const internal = context as unknown as { _connection?: { toImpl?: (x: unknown) => unknown } };
  const server = internal._connection?.toImpl?.(context) as { clearCache?: unknown } | undefined;
  if (server && typeof server.clearCache === "function") server.clearCache = async () => {};
}

/**
 * The journeys' `test` with the run's fixtures (Playwright `test.extend`):
 * - `context`: Playwright's, keeping its HTTP cache between journeys (`keepHttpCache`).
 * - `simFaults(faults)` sets this world's simulator faults (POST /__sim/faults, a partial
 *   merge: `{ latencyMs: 800 }`, `{ failAccounts: [id] }`, `{ loginCode: 451, … }`) for this
 *   journey only. The faults as they were before its first call are put back when the journey
 *   ends, passed or failed, so a failed journey's faults never reach the next journey in its
 *   world, nor its own retry.
 */
export const test = base.extend<{ simFaults: (faults: Faults) => Promise<void>; clockPage: Page }>({
  context: async ({ context }, provide) => {
    keepHttpCache(context);
    await provide(context);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
  simFaults: async ({}, provide) => {
    let before: Faults | null = null;
    await provide(async (faults) => {
      before ??= await currentFaults();
      await postFaults(faults);
    });
    if (before) await postFaults(before);
  },
  /**
   * A tab in a browser context of its own, closed when the journey ends, for a journey that
   * moves the page's clock (`page.clock`). The clock lives in init scripts of the context;
   * Playwright's reuse of the worker's context (playwright.config.ts `reuseContext`) removes them
   * all at once, and once a page of the next journey ran one of them without the clock they
   * need ("Cannot read properties of undefined (reading 'controller')", a CI run 2026-12-01).
   * The context takes the project's and the file's options, as the shared one does.
   */
  clockPage: async ({ browser, baseURL, storageState, extraHTTPHeaders, viewport, javaScriptEnabled, hasTouch, isMobile }, provide) => {
    const context = await browser.newContext({ baseURL, storageState, extraHTTPHeaders, viewport, javaScriptEnabled, hasTouch, isMobile });
    await provide(await context.newPage());
    await context.close();
  },
});

/**
 * Holds back the page's lazily loaded chunk `name` (`/assets/<name>-<hash>.js`), as a slow
 * phone would get it late, until `release()`; `url()` is its address once the page asked for it.
 */
export async function holdChunk(page: Page, name: string): Promise<{ release: () => void; url: () => string }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let url = "";
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js$`), async (route) => {
    url = route.request().url();
    await held;
    await route.continue();
  });
  return { release, url: () => url };
}
