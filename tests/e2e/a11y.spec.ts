/**
 * Issue 30 B, the standing accessibility test: an independent engine (axe-core 4.x through
 * @axe-core/playwright, versions pinned in package.json) over every page and every dialog,
 * in both themes, at 1366 px and at 390 px. Any critical or serious violation fails it,
 * with the rule, the nodes and axe's own summary of each.
 *
 * The pages come from the route table (app/routes.manifest.ts, the function the build uses):
 * a page added tomorrow is scanned without editing this file. Dialogs are opened by their
 * real triggers, as an operator would open them.
 */
import AxeBuilder from "@axe-core/playwright";
import { UNSAFE_defineRoutes } from "@remix-run/dev";
import type { Page } from "@playwright/test";
import { appRoutes } from "../../app/routes.manifest";
import { expect, test } from "./fixtures";
import { seedSections } from "./team-fixtures";
import { waitForHydration } from "./trading-fixtures";
import { WORLD } from "./world";

type Route = { id: string; parentId?: string; path?: string; index?: boolean; file: string };

/** Every page the app serves: route modules with a screen (`.tsx`), outside /api. */
function pagePaths(): string[] {
  const table = Object.values(appRoutes(UNSAFE_defineRoutes)) as Route[];
  const byId = new Map(table.map((r) => [r.id, r]));
  const paths = new Set<string>();
  for (const route of table) {
    if (!route.file.endsWith(".tsx")) continue;
    if (!route.path && !route.index) continue; // a layout
    const parts: string[] = [];
    for (let r: Route | undefined = route; r; r = r.parentId ? byId.get(r.parentId) : undefined) if (r.path) parts.unshift(r.path);
    const p = "/" + parts.join("/");
    if (p === "/api" || p.startsWith("/api/")) continue;
    if (p === "/") continue; // redirects to the remembered section, scanned as itself
    paths.add(p.replace(/:[A-Za-z]+\??/g, "x"));
  }
  return [...paths].sort();
}

/** Pages reached without a session (a logged-in operator is sent on from them). */
const LOGGED_OUT_PAGES = new Set(["/login", "/setup"]);

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

type State = {
  name: string;
  path: string;
  /** Opens the dialog by its real trigger; the dialog is then scanned. */
  open?: (page: Page) => Promise<void>;
  loggedOut?: boolean;
};

/** Visits `state` in every theme and viewport and collects what axe finds. */
async function scanEverywhere(page: Page, state: State): Promise<string[]> {
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

/** A button or a link (a confirmation's trigger is a link to its no-JavaScript page). */
const control = (page: Page, name: string | RegExp) =>
  page
    .getByRole("button", { name, exact: typeof name === "string" })
    .or(page.getByRole("link", { name, exact: typeof name === "string" }))
    .first();

/** Opens a dialog by clicking its trigger, and waits for it. */
const by = (name: string | RegExp) => async (page: Page) => {
  await control(page, name).click();
  await expect(page.getByRole("dialog").or(page.getByRole("alertdialog")).last()).toBeVisible();
};

/**
 * Every dialog, opened by its real trigger. A dialog added to a screen belongs here (the
 * pages' own scans cover whatever is rendered without opening anything).
 */
const DIALOGS: State[] = [
  { name: "Exchange Rates · Add", path: "/exchange-rates", open: by("Add") },
  { name: "Exchange Rates · Import", path: "/exchange-rates", open: by("Import") },
  { name: "Exchange Rates · Add output gift", path: "/exchange-rates", open: by("Add output gift to Gold Ring") },
  { name: "Exchange Rates · Delete all (confirmation)", path: "/exchange-rates", open: by("Delete all exchange rates for Gold Ring") },
  { name: "Bowling Bots · Gift Rates", path: "/gifts", open: by("Gift Rates") },
  { name: "Bowling Bots · Companion", path: "/gifts", open: by(/^(Assign|Update) Companion for /) },
  { name: "Bowling Bots · Delete an account (confirmation)", path: "/gifts", open: by(/^Delete (?!all)/) },
  { name: "All Characters · Add User", path: "/characters", open: by("Add User") },
  { name: "All Characters · Add Category", path: "/characters", open: by("Add Category") },
  { name: "All Characters · Delete a user (confirmation)", path: "/characters", open: by(/^Delete (?!all)/) },
  { name: "Trading Planets · Custom Planets", path: "/trading-planets", open: by("Custom Planets") },
  { name: "Trading Planets · Delete a sequence (confirmation)", path: "/trading-planets", open: by("Delete Viewer tour") },
  { name: "GalaCord · New connection", path: "/galacord", open: by("ID") },
  { name: "System Logs · Clean Old Logs (confirmation)", path: "/logs", open: by("Clean Old Logs") },
];

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
