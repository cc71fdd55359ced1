/**
 * Every screen an operator reaches, for the journeys that check them all (the standing axe
 * test, tests/e2e/a11y.spec.ts; the phone targets, tests/e2e/phone.spec.ts): the pages from
 * the route table and the dialogs opened by their real triggers.
 */
import { UNSAFE_defineRoutes } from "@remix-run/dev";
import { expect, type Page } from "@playwright/test";
import { appRoutes } from "../../app/routes.manifest";

type Route = { id: string; parentId?: string; path?: string; index?: boolean; file: string };

/**
 * Every page the app serves: route modules with a screen (`.tsx`), outside /api. They come
 * from the route table (app/routes.manifest.ts, the function the build uses): a page added
 * tomorrow is checked without editing the journeys.
 */
export function pagePaths(): string[] {
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
    if (p === "/") continue; // redirects to the remembered section, checked as itself
    paths.add(p.replace(/:[A-Za-z]+\??/g, "x"));
  }
  return [...paths].sort();
}

/** Pages reached without a session (a logged-in operator is sent on from them). */
export const LOGGED_OUT_PAGES = new Set(["/login", "/setup"]);

export type ScreenState = {
  name: string;
  path: string;
  /** Opens the dialog by its real trigger (JavaScript on); the dialog is then checked. */
  open?: (page: Page) => Promise<void>;
  loggedOut?: boolean;
};

/** A button or a link (a confirmation's trigger is a link to its no-JavaScript page). */
export const control = (page: Page, name: string | RegExp) =>
  page
    .getByRole("button", { name, exact: typeof name === "string" })
    .or(page.getByRole("link", { name, exact: typeof name === "string" }))
    .first();

/** Opens a dialog by clicking its trigger, and waits for it. */
export const by = (name: string | RegExp) => async (page: Page) => {
  await control(page, name).click();
  await expect(page.getByRole("dialog").or(page.getByRole("alertdialog")).last()).toBeVisible();
};

/**
 * Every dialog, opened by its real trigger, over the data `seedSections` (team-fixtures.ts)
 * writes. A dialog added to a screen belongs here (the pages' own checks cover whatever is
 * rendered without opening anything).
 */
export const DIALOGS: ScreenState[] = [
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
