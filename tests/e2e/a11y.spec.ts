/**
 * Issue 30 B, the standing accessibility test: an independent engine (axe-core 4.x through
 * @axe-core/playwright, versions pinned in package.json) over every page and every dialog,
 * in both themes, at 1366 px and at 390 px. Any critical or serious violation fails it,
 * with the rule, the nodes and axe's own summary of each.
 *
 * The pages and dialogs are tests/e2e/screens.ts's: the pages from the route table (a page
 * added tomorrow is scanned without editing this file), the dialogs opened by their real
 * triggers, as an operator would open them.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { DIALOGS, LOGGED_OUT_PAGES, pagePaths, type ScreenState } from "./screens";
import { seedSections } from "./team-fixtures";
import { waitForHydration } from "./trading-fixtures";
import { simAccounts } from "./characters-fixtures";
import { dismissToasts } from "./trading-fixtures";
import { WORLD } from "./world";

const VIEWPORTS = [
  { name: "desktop", width: 1366, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;
const THEMES = ["dark", "light"] as const;

type Violation = { id: string; impact?: string | null; help: string; nodes: Array<{ target: unknown; failureSummary?: string }> };

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

async function setTheme(page: Page, theme: (typeof THEMES)[number]) {
  await page.context().addCookies([{ name: "gt_theme", value: theme, url: WORLD.baseURL }]);
}

/** axe over what is on screen now; only critical and serious findings count. */
async function scan(page: Page, label: string): Promise<string | null> {
  // Radix and sonner animate in: scan the settled state.
  await page.evaluate(() => document.fonts?.ready);
  await page.waitForTimeout(300);
  const results = await new AxeBuilder({ page }).analyze();
  const bad = (results.violations as Violation[]).filter((v) => v.impact === "critical" || v.impact === "serious");
  return bad.length ? `${label}\n${describe(bad)}` : null;
}

/** Visits `state` in every theme and viewport and collects what axe finds. */
async function scanEverywhere(page: Page, state: ScreenState): Promise<string[]> {
  const found: string[] = [];
  for (const theme of THEMES) {
    for (const vp of VIEWPORTS) {
      await setTheme(page, theme);
      await page.setViewportSize({ width: vp.width, height: vp.height });
      const res = await page.goto(state.path);
      expect(res?.status(), `${state.path} answers`).toBeLessThan(400);
      if (!state.loggedOut) await waitForHydration(page);
      if (state.open) await state.open(page);
      const f = await scan(page, `${state.name} · ${theme} · ${vp.name} (${vp.width} px)`);
      if (f) found.push(f);
    }
  }
  return found;
}

test.beforeAll(async ({ browser, baseURL }) => {
  // Something in every section, so rows, badges and their controls are scanned too.
  const context = await browser.newContext({ storageState: WORLD.storageState, baseURL, extraHTTPHeaders: { Origin: baseURL! } });
  await seedSections((await context.newPage()).request, baseURL!, 16);
  await context.close();
});

test.describe("every dialog", () => {
  for (const state of DIALOGS) {
    test(`axe finds no critical or serious violation in ${state.name}`, async ({ page }) => {
      test.setTimeout(120_000);
      const found = await scanEverywhere(page, state);
      expect(found.join("\n\n"), "axe-core: critical or serious violations").toBe("");
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
      test(`axe finds no critical or serious violation on ${path}`, async ({ page }) => {
        test.setTimeout(120_000);
        const found = await scanEverywhere(page, { name: path, path, loggedOut });
        expect(found.join("\n\n"), "axe-core: critical or serious violations").toBe("");
      });
    });
  }
});

/**
 * The Collections panel floating over another section (spec 2 "Main app shell"), expanded and
 * minimized: the operator logged in to Collections and connected, as an operator leaves it.
 */
async function floatingPanel(page: Page, mode: "expanded" | "minimized") {
  const back = new URL(page.url()).pathname;
  await page.goto("/collections");
  await waitForHydration(page);
  const card = page.getByTestId("profile-card");
  if (!(await card.count())) {
    await page.getByLabel("Recovery code", { exact: true }).fill((await simAccounts("plain"))[5]!.recoveryCode);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(card).toBeVisible();
  }
  const state = page.getByTestId("connection-state");
  await expect(state).toHaveText(/^(Connected|Disconnected)$/, { timeout: 20_000 });
  if ((await state.textContent()) === "Disconnected") await page.getByRole("button", { name: "Connect to Galaxy" }).click();
  await expect(state).toHaveText("Connected", { timeout: 20_000 });
  const show = page.getByRole("button", { name: "Show floating panel" });
  if (await show.count()) await show.click();
  // The choice is saved by a post: leaving before its answer would cancel it.
  await expect(page.getByRole("button", { name: "Hide floating panel" })).toBeVisible();
  await page.goto(back);
  await waitForHydration(page);
  const panel = page.getByRole("complementary", { name: "Collections panel" });
  await expect(panel).toBeVisible();
  const minimized = (await panel.getAttribute("data-mode")) === "minimized";
  if (minimized !== (mode === "minimized")) {
    await panel.getByRole("button", { name: minimized ? "Expand" : "Minimize" }).click();
    await expect(panel.getByRole("button", { name: minimized ? "Minimize" : "Expand" })).toBeVisible();
  }
  await dismissToasts(page);
}

test.describe("the Collections floating panel", () => {
  for (const mode of ["expanded"] as const) {
    test(`axe finds no critical or serious violation with the floating panel ${mode}`, async ({ page }) => {
      test.setTimeout(180_000);
      const found = await scanEverywhere(page, {
        name: `Floating panel ${mode} over Trading Planets`,
        path: "/trading-planets",
        open: (p) => floatingPanel(p, mode),
      });
      expect(found.join("\n\n"), "axe-core: critical or serious violations").toBe("");
    });
  }
});
