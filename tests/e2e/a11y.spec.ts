/**
 * Issue 30 B, the standing accessibility test: an independent engine (axe-core 4.14, pinned in
 * package.json) over every page and every dialog, in both themes, at 1366 px and at 390 px, and
 * over every page's and every dialog's no-JavaScript render. Any critical or serious violation
 * fails it, with the rule, the nodes and axe's own summary of each.
 *
 * The pages and dialogs are tests/e2e/screens.ts's: the pages from the route table (a page
 * added tomorrow is scanned without editing this file), the dialogs opened by their real
 * triggers, as an operator would open them.
 *
 * Cost (docs/testing.md "The standing accessibility test"): with JavaScript a state is loaded
 * and opened once, and turns to the other theme in place as the header's toggle turns it;
 * without JavaScript it is loaded once per theme (the theme is a cookie read by the loader).
 * Each is scanned at both widths by resizing the tab in place; axe is injected once per load.
 * The journeys run in parallel over the workers' worlds: the seeding and the helper states are
 * idempotent per world, and what they leave in a world is undone when a worker is done with
 * the file (`undoScreenStates`).
 */
import axe from "axe-core";
import type { AxeResults } from "axe-core";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { DIALOGS, LOGGED_OUT_PAGES, openedScope, pagePaths, smallTargets, undoScreenStates, type ScreenState } from "./screens";
import { seedSections } from "./team-fixtures";
import { waitForHydration } from "./trading-fixtures";
import { WORLD } from "./world";

test.describe.configure({ mode: "parallel" });

const VIEWPORTS = [
  { name: "desktop", width: 1366, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;
const THEMES = ["dark", "light"] as const;
type Theme = (typeof THEMES)[number];

type Violation = AxeResults["violations"][number];

function describe(violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help}\n` +
        v.nodes
          .slice(0, 8)
          .map((n) => `    ${JSON.stringify(n.target)}\n      ${(n.failureSummary ?? "").replace(/\n/g, "\n      ")}`)
          .join("\n") +
        (v.nodes.length > 8 ? `\n    … and ${v.nodes.length - 8} more` : ""),
    )
    .join("\n");
}

/**
 * Without JavaScript the page's own timers, microtask queue and mutation observers never call
 * back (Chromium runs no page callback), while Playwright's evaluate and promise reactions still
 * run: axe schedules its work through them, so before it is injected they are replaced by
 * promise reactions (0–1 ms delays; its longer timeouts are failure guards, left unarmed).
 * Nothing else runs in such a page, so nothing else sees them.
 */
function noScriptScheduling() {
  const w = window as unknown as Record<string, unknown>;
  w.setTimeout = (fn: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) => {
    if (ms <= 1) void Promise.resolve().then(() => fn(...args));
    return 0;
  };
  w.clearTimeout = () => {};
  w.queueMicrotask = (fn: () => void) => void Promise.resolve().then(fn);
  w.MutationObserver = undefined;
  w.WebKitMutationObserver = undefined;
}

/**
 * Waits until what is on screen has settled after a load, an opened dialog or a resize: with
 * JavaScript two animation frames (React's answer to the resize is drawn), then no finite
 * animation running (Radix's and sonner's entrances; a spinner's endless one does not count).
 */
async function settle(page: Page, js: boolean) {
  // A state opened by a link (without JavaScript: a navigation) is waited for by its dialog,
  // which comes early in the document: the rest may still be parsing. A CI scan once read the
  // Characters page's Refresh button before its text ("button-name", critical).
  await page.waitForLoadState("load");
  if (js) {
    await page.evaluate(async () => {
      await document.fonts?.ready;
      await new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    });
  }
  const running = () =>
    page.evaluate(
      () => document.getAnimations().filter((a) => a.playState === "running" && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity)).length,
    );
  await expect.poll(running, { intervals: [50, 100, 200], timeout: 10_000 }).toBe(0);
}

/** What axe itself knows of its rules: each one's fixed impact, when it has one. */
type AxeAudit = { rules: Array<{ id: string; impact?: string | null }> };

/**
 * The rules a scan leaves out: those that can only report a minor or moderate finding, which
 * never fails a journey. A rule with its own impact reports every finding at that impact (axe's
 * `finalizeRuleResult`), so `region`, the landmark and heading rules and the like go; a rule
 * without one takes its checks' and stays. Everything else is axe's default selection (its
 * experimental and deprecated rules stay out, as they are). Found in the page, from the axe
 * injected there.
 */
function uncountedRules(): string[] {
  const audit = (window as unknown as { axe: { _audit: AxeAudit } }).axe._audit;
  return audit.rules.filter((r) => r.impact === "minor" || r.impact === "moderate").map((r) => r.id);
}

/** axe over what is on screen now (injected once per document), with every default rule or only those that can fail a scan: what it found. */
async function violations(page: Page, js: boolean, rules: "counted" | "all" = "counted"): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) {
    if (!js) await page.evaluate(noScriptScheduling);
    await page.evaluate(axe.source);
  }
  const off = rules === "counted" ? await page.evaluate(uncountedRules) : [];
  return page.evaluate(
    (off) =>
      (window as unknown as { axe: typeof axe }).axe
        .run(document, { resultTypes: ["violations"], rules: Object.fromEntries(off.map((id) => [id, { enabled: false }])) })
        .then((r) => r.violations),
    off,
  );
}

/** Only critical and serious findings count. */
async function scan(page: Page, js: boolean, label: string): Promise<string | null> {
  const bad = (await violations(page, js)).filter((v) => v.impact === "critical" || v.impact === "serious");
  return bad.length ? `${label}\n${describe(bad)}` : null;
}

/**
 * Scans `state` in both themes at both widths, each width reached by resizing the tab in place.
 *
 * With JavaScript the state is loaded and opened once, at 390 px, where its controls are
 * measured as loaded: each at least 40 × 40 px (issue 30 B4; the whole document for a page, what
 * `open` brought up for a dialog), once its opening animation has ended (mid-way a 40 px control
 * measures 39.x). The second theme comes as the header's toggle brings it: the cookie set, the
 * page's data loaded again in place (the router's revalidation, what the toggle's post is
 * followed by), so an open dialog stays open and is scanned as re-rendered in that theme. The
 * theme is read from the page itself (`<html data-theme>`), so a render that kept the old theme
 * fails the journey.
 *
 * Without JavaScript each theme is a load: the first reaches the state through `open`'s real
 * trigger, the second loads the URL the trigger led to (the server's render of that state in
 * the other theme), not the trigger again.
 */
async function scanEverywhere(page: Page, state: ScreenState, setCookies: (theme: Theme) => Promise<void>, js = true): Promise<string[]> {
  const found: string[] = [];
  const check = async (theme: Theme, vp: (typeof VIEWPORTS)[number], targets = false) => {
    if (vp.width !== page.viewportSize()?.width) await page.setViewportSize({ width: vp.width, height: vp.height });
    await settle(page, js);
    expect(await page.evaluate(() => document.documentElement.dataset.theme), `${state.name} is drawn in the ${theme} theme`).toBe(theme);
    const f = await scan(page, js, `${state.name} · ${theme} · ${vp.name} (${vp.width} px)${js ? "" : " · without JavaScript"}`);
    if (f) found.push(f);
    if (targets) {
      const small = await smallTargets(state.open ? openedScope(page, state) : page.locator("body"));
      if (small.length) found.push(`${state.name} at ${vp.width} px: controls under 40 × 40 px\n    ${small.join("\n    ")}`);
    }
  };
  const load = async (theme: Theme, vp: (typeof VIEWPORTS)[number], url: string) => {
    await setCookies(theme);
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const res = await page.goto(url);
    expect(res?.status(), `${url} answers`).toBeLessThan(400);
    // Scanned as itself, not as the login page a lost session would send it to.
    if (!state.loggedOut) expect(new URL(page.url()).pathname).toBe(new URL(url, WORLD.baseURL).pathname);
  };
  const [desktop, phone] = VIEWPORTS;
  const [first, second] = THEMES;
  if (js) {
    await load(first, phone, state.path);
    if (!state.loggedOut) await waitForHydration(page);
    if (state.open) await state.open(page);
    await check(first, phone, true);
    await check(first, desktop);
    await setCookies(second);
    await page.evaluate(() => (window as unknown as { __remixRouter: { revalidate: () => void } }).__remixRouter.revalidate());
    await expect(page.locator("html"), `${state.name} turns ${second} in place`).toHaveAttribute("data-theme", second);
    await check(second, desktop);
    await check(second, phone);
  } else {
    await load(first, desktop, state.path);
    if (state.open) await state.open(page);
    await check(first, desktop);
    await check(first, phone);
    await load(second, phone, page.url());
    await check(second, phone);
    await check(second, desktop);
  }
  return found;
}

const themeCookie = (theme: Theme) => ({ name: "gt_theme", value: theme, url: WORLD.baseURL });
const withTheme = (page: Page) => (theme: Theme) => page.context().addCookies([themeCookie(theme)]);

/** Something in every section, so rows, badges and their controls are scanned too (skipped where this world has it). */
test.beforeAll(async ({ browser, baseURL }) => {
  const context = await browser.newContext({ storageState: WORLD.storageState, baseURL, extraHTTPHeaders: { Origin: baseURL! } });
  await seedSections((await context.newPage()).request, baseURL!, 16);
  await context.close();
});

/** Runs when this worker is done with its share of the file: leaves the world as the next journeys expect it. */
test.afterAll(async ({ browser, baseURL }) => {
  await nojsContext?.close();
  nojsContext = null;
  const context = await browser.newContext({ storageState: WORLD.storageState, baseURL, extraHTTPHeaders: { Origin: baseURL! } });
  await undoScreenStates(await context.newPage());
  await context.close();
});

test.describe("every dialog", () => {
  for (const state of DIALOGS) {
    test(`axe finds no critical or serious violation in ${state.name}; its controls are 40 px targets at 390 px`, async ({ page }) => {
      test.setTimeout(120_000);
      const found = await scanEverywhere(page, state, withTheme(page));
      expect(found.join("\n\n"), "axe-core: critical or serious violations; controls under 40 px").toBe("");
    });
  }
});

test.describe("every page", () => {
  const pages = pagePaths();

  test("the route table lists the screens", () => {
    // A guard on the discovery itself: if it stopped finding pages, the scans below would pass empty.
    expect(pages).toEqual(
      expect.arrayContaining(["/exchange-rates", "/gifts", "/characters", "/trading-planets", "/galacord", "/collections", "/logs", "/settings", "/login"]),
    );
  });

  for (const path of pages) {
    const loggedOut = LOGGED_OUT_PAGES.has(path);
    test.describe(path, () => {
      if (loggedOut) test.use({ storageState: { cookies: [], origins: [] } });
      test(`axe finds no critical or serious violation on ${path}; its controls are 40 px targets at 390 px`, async ({ page }) => {
        test.setTimeout(120_000);
        const found = await scanEverywhere(page, { name: path, path, loggedOut }, withTheme(page));
        expect(found.join("\n\n"), "axe-core: critical or serious violations; controls under 40 px").toBe("");
      });
    });
  }
});

/**
 * One tab without JavaScript per worker, kept across this file's journeys (a fresh context per
 * journey cost ~1.7 core-seconds, docs/testing.md "One tab per worker"); each load sets its own
 * cookies: the session (unless the page is for the logged out) and the theme.
 */
let nojsContext: BrowserContext | null = null;
let nojsPage: Page | null = null;
async function noJsTab(browser: Browser): Promise<Page> {
  if (!nojsContext || !nojsPage || nojsPage.isClosed()) {
    nojsContext = await browser.newContext({ javaScriptEnabled: false, baseURL: WORLD.baseURL });
    nojsPage = await nojsContext.newPage();
  }
  return nojsPage;
}
const sessionCookies = () => (JSON.parse(readFileSync(WORLD.storageState, "utf8")) as { cookies: Parameters<BrowserContext["addCookies"]>[0] }).cookies;

/** Each no-JavaScript load's cookies: the session (unless the page is for the logged out) and the theme. */
const noJsCookies =
  (page: Page, loggedOut = false, cookies = loggedOut ? [] : sessionCookies()) =>
  async (theme: Theme) => {
    await page.context().clearCookies();
    await page.context().addCookies([...cookies.filter((c) => c.name !== "gt_theme"), themeCookie(theme)]);
  };

test.describe("every page without JavaScript", () => {
  test("the scan without JavaScript sees the page (a guard on the scheduling it swaps)", async ({ browser }) => {
    const page = await noJsTab(browser);
    await page.context().clearCookies();
    await page.goto("/login");
    await page.evaluate(() => document.body.append(Object.assign(document.createElement("img"), { src: "/favicon.ico" })));
    expect((await violations(page, false)).map((v) => v.id)).toContain("image-alt");
  });

  test("the scans run only the rules that can fail them, and find what every rule would (a guard on uncountedRules)", async ({ browser }) => {
    const page = await noJsTab(browser);
    await page.context().clearCookies();
    await page.goto("/login");
    // A critical finding (an image without a text), a serious one (grey on grey), moderate ones
    // (content outside every landmark, a heading out of order: `region`, `heading-order`).
    await page.evaluate(() => {
      const img = Object.assign(document.createElement("img"), { src: "/favicon.ico" });
      const faint = Object.assign(document.createElement("p"), { textContent: "faint words" });
      faint.style.cssText = "color:#777;background:#888";
      const h4 = Object.assign(document.createElement("h4"), { textContent: "a heading out of order" });
      document.body.append(img, faint, h4);
    });
    const counted = (vs: Violation[]) => vs.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id} ${v.nodes.length}`);
    const all = await violations(page, false, "all");
    const only = await violations(page, false);
    expect(all.map((v) => v.id)).toEqual(expect.arrayContaining(["image-alt", "color-contrast", "region"]));
    expect(counted(only).sort()).toEqual(counted(all).sort());
    expect(only.map((v) => v.id)).not.toContain("region");
    const off = await page.evaluate(uncountedRules);
    expect(off).toEqual(expect.arrayContaining(["region", "heading-order", "landmark-one-main"]));
    for (const id of ["image-alt", "color-contrast", "button-name", "label", "aria-required-attr", "link-name"]) expect(off).not.toContain(id);
  });

  for (const path of pagePaths()) {
    const loggedOut = LOGGED_OUT_PAGES.has(path);
    test(`axe finds no critical or serious violation on ${path} without JavaScript`, async ({ browser }) => {
      test.setTimeout(120_000);
      const page = await noJsTab(browser);
      const found = await scanEverywhere(page, { name: path, path, loggedOut }, noJsCookies(page, loggedOut), false);
      expect(found.join("\n\n"), "axe-core: critical or serious violations").toBe("");
      // Scripts were truly off: the server's inline route data was never run.
      expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
    });
  }
});

/**
 * Every dialog's no-JavaScript render (the server answers its `?dialog=…`, `?confirm=…` URL with
 * it inline), reached in the JavaScript-disabled tab by its real trigger there (a link, a GET
 * form): `open` waits for it, so a trigger that no longer opens it fails the journey. The data
 * a state needs is made first with JavaScript (`prepare`, idempotent), in a tab opened only then.
 */
test.describe("every dialog without JavaScript", () => {
  for (const state of DIALOGS) {
    if (state.withoutJs === false) continue;
    const { prepare, open = state.open } = state.withoutJs ?? {};
    const journey = async (browser: Browser, jsPage: Page | null) => {
      test.setTimeout(120_000);
      if (prepare && jsPage) {
        await jsPage.goto(state.path);
        await waitForHydration(jsPage);
        await prepare(jsPage);
      }
      // The tab that prepared the state lends its cookies (a state may live in one: the floating panel's mode).
      const cookies = jsPage ? await jsPage.context().cookies() : sessionCookies();
      const page = await noJsTab(browser);
      const found = await scanEverywhere(page, { ...state, open }, noJsCookies(page, false, cookies), false);
      expect(found.join("\n\n"), "axe-core: critical or serious violations").toBe("");
      expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
    };
    const title = `axe finds no critical or serious violation in ${state.name} without JavaScript`;
    if (prepare) test(title, async ({ browser, page }) => journey(browser, page));
    else test(title, async ({ browser }) => journey(browser, null));
  }
});
