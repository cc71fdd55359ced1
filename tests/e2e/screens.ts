/**
 * Every screen an operator reaches, for the journeys that check them all (the standing axe
 * test, tests/e2e/a11y.spec.ts; the phone targets, tests/e2e/phone.spec.ts): the pages from
 * the route table and the dialogs opened by their real triggers.
 */
import { UNSAFE_defineRoutes } from "@remix-run/dev";
import { expect, type Page } from "@playwright/test";
import { appRoutes } from "../../app/routes.manifest";
import { simAccounts } from "./characters-fixtures";

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

/** Settings: an API token to revoke, made through the form unless one is there. */
async function withToken(page: Page) {
  if (await control(page, "Revoke Screens token").count()) return;
  await page.getByLabel("Token name").fill("Screens token");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(control(page, "Revoke Screens token")).toBeVisible();
}

/** Settings: a second operator to delete, added through the form unless one is there. */
async function withOperator(page: Page) {
  const operators = page.getByRole("region", { name: "Operators" });
  if (await control(page, "Delete screens-viewer").count()) return;
  await operators.getByLabel("Name", { exact: true }).fill("screens-viewer");
  await operators.getByLabel("Password", { exact: true }).fill("screens-viewer-password-1");
  await operators.getByRole("combobox", { name: "Role", exact: true }).selectOption("viewer");
  await operators.getByRole("button", { name: "Add operator" }).click();
  await expect(control(page, "Delete screens-viewer")).toBeVisible();
}

/** GalaCord: the bot running and one relay connection (through /api, as a script would). */
async function withConnection(page: Page) {
  if (await page.getByRole("button", { name: "Change Channel" }).count()) return;
  const start = await page.request.post("/api/bot/start");
  expect(start.status(), await start.text()).toBeLessThan(300);
  const acc = (await simAccounts("plain")).at(-1)!;
  // The bot loads its channels once it has logged in to Discord: until then the channel is unknown (404).
  await expect
    .poll(
      async () => (await page.request.post("/api/bot/connect-new", { data: { channelId: "1180000000000000102", recoveryCode: acc.recoveryCode } })).status(),
      {
        timeout: 30_000,
      },
    )
    .toBeLessThan(300);
  await page.reload();
  await expect(page.getByRole("button", { name: "Change Channel" }).first()).toBeVisible();
}

const then =
  (...steps: Array<(page: Page) => Promise<void>>) =>
  async (page: Page) => {
    for (const step of steps) await step(page);
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
  { name: "Settings · Revoke a token (confirmation)", path: "/settings", open: then(withToken, by("Revoke Screens token")) },
  { name: "Settings · Delete an operator (confirmation)", path: "/settings", open: then(withOperator, by("Delete screens-viewer")) },
  { name: "GalaCord · Change Channel", path: "/galacord", open: then(withConnection, by("Change Channel")) },
];
