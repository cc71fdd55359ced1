/**
 * Every screen an operator reaches, for the journeys that check them all (the standing axe
 * test, tests/e2e/a11y.spec.ts; the phone targets, tests/e2e/phone.spec.ts): the pages from
 * the route table and the dialogs opened by their real triggers.
 */
import { UNSAFE_defineRoutes } from "@remix-run/dev";
import { expect, type Locator, type Page } from "@playwright/test";
import { appRoutes } from "../../app/routes.manifest";
import { characterRow, simAccounts } from "./characters-fixtures";
import { dismissToasts, waitForHydration } from "./trading-fixtures";

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
  /** What `open` brought up, for checks of its own controls (phone.spec.ts); the last dialog unless said. */
  scope?: (page: Page) => Locator;
  loggedOut?: boolean;
};

/** What a state opened: its `scope`, else the dialog on top. */
export const openedScope = (page: Page, state: ScreenState): Locator =>
  state.scope?.(page) ?? page.getByRole("dialog").or(page.getByRole("alertdialog")).last();

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

/** The simulator account GalaCord's relay connection of these states uses (no journey uses the last plain one). */
export const relayAccount = async () => (await simAccounts("plain")).at(-1)!;

/** GalaCord: the bot running and one relay connection (through /api, as a script would). Undone by `undoScreenStates`. */
async function withConnection(page: Page) {
  if (await page.getByRole("button", { name: "Change Channel" }).count()) return;
  const start = await page.request.post("/api/bot/start");
  expect(start.status(), await start.text()).toBeLessThan(300);
  const acc = await relayAccount();
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

/**
 * The account the take-over question is about: a stalker-type user that Collections holds
 * (stalker 13: no journey uses it).
 */
export const takeoverAccount = async () => (await simAccounts("stalker"))[13]!;

/**
 * Collections logged in (as `code`'s account when given, else as whoever is, else plain 3, which
 * no other journey uses: plain 5–39 are the paging fleet's, characters-paging-fixtures.ts) and connected.
 */
async function collectionsConnected(page: Page, account?: { nick: string; recoveryCode: string }) {
  await page.goto("/collections");
  await waitForHydration(page);
  const card = page.getByTestId("profile-card");
  const theirs = account ? card.getByRole("heading", { name: account.nick, exact: true }) : card;
  if (!(await theirs.count())) {
    const out = card.getByRole("button", { name: "Log out of Galaxy" });
    if (await out.count()) {
      await out.click();
      await expect(page.getByLabel("Recovery code", { exact: true })).toBeVisible();
    }
    await page.getByLabel("Recovery code", { exact: true }).fill(account?.recoveryCode ?? (await simAccounts("plain"))[3]!.recoveryCode);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(card).toBeVisible();
  }
  const state = page.getByTestId("connection-state");
  await expect(state).toHaveText(/^(Connected|Disconnected)$/, { timeout: 20_000 });
  if ((await state.textContent()) === "Disconnected") await page.getByRole("button", { name: "Connect to Galaxy" }).click();
  await expect(state).toHaveText("Connected", { timeout: 20_000 });
}

/**
 * The Collections panel floating over another section (spec 2 "Main app shell"), `mode`:
 * Collections logged in and connected, the panel shown, as an operator leaves it.
 */
const floatingPanel = (mode: "expanded" | "minimized") => async (page: Page) => {
  const back = new URL(page.url()).pathname;
  await collectionsConnected(page);
  const show = page.getByRole("button", { name: "Show floating panel" });
  if (await show.count()) await show.click();
  // The choice is saved by a post: leaving before its answer would cancel it.
  await expect(page.getByRole("button", { name: "Hide floating panel" })).toBeVisible();
  await page.goto(back);
  await waitForHydration(page);
  const panel = collectionsPanel(page);
  await expect(panel).toBeVisible();
  const minimized = (await panel.getAttribute("data-mode")) === "minimized";
  if (minimized !== (mode === "minimized")) {
    await panel.getByRole("button", { name: minimized ? "Expand" : "Minimize" }).click();
    await expect(panel.getByRole("button", { name: minimized ? "Minimize" : "Expand" })).toBeVisible();
  }
  await dismissToasts(page);
};
const collectionsPanel = (page: Page) => page.getByRole("complementary", { name: "Collections panel" });

/**
 * All Characters: Start on a stalker user that Collections holds (issue 18 "one account, one
 * holder") brings the take-over question. The user is made first (a sign-in Collections'
 * login would refuse), then Collections logs in with it.
 */
async function takeoverQuestion(page: Page) {
  const acc = await takeoverAccount();
  const users = (await (await page.request.get("/api/users")).json()) as { users: { account_id: string; type: string | null }[] };
  if (!users.users.some((u) => u.account_id === acc.id && u.type === "stalker")) {
    const res = await page.request.post("/api/create-creds", { data: { rc: acc.recoveryCode, type: "stalker", takeover: true } });
    expect(res.status(), await res.text()).toBe(200);
  }
  await collectionsConnected(page, acc);
  await page.goto("/characters");
  await waitForHydration(page);
  await characterRow(page, acc.id)
    .getByRole("button", { name: `Start stalker for ${acc.nick}` })
    .click();
  await expect(page.getByTestId("takeover-panel")).toBeVisible();
  await dismissToasts(page);
}

/**
 * Bowling Bots: a refresh has loaded the accounts' collections (the Capybara popup opens from a
 * row's count), unless one has.
 */
async function withCollections(page: Page) {
  const counts = page.getByRole("link", { name: /^Capybara of .+: \d+ items$/ });
  if (await counts.count()) return;
  await page.getByRole("button", { name: "Click to refresh data" }).click();
  await expect(counts.first()).toBeVisible({ timeout: 30_000 });
  await dismissToasts(page);
}

/**
 * Undoes what the states above leave in a world (the relay connection and the bot, the
 * take-over user, the Collections login and its floating panel), so the journeys that run there
 * afterwards find it as they would have (GalaCord's counts its active connections from 0).
 */
export async function undoScreenStates(page: Page) {
  const relay = await relayAccount();
  const gone = await page.request.delete(`/api/bot/connection/${relay.id}`);
  expect([200, 404], await gone.text()).toContain(gone.status());
  const stop = await page.request.post("/api/bot/stop");
  expect(stop.status(), await stop.text()).toBeLessThan(300);
  const held = await takeoverAccount();
  const user = await page.request.delete(`/api/users/${held.id}`);
  expect([200, 404], await user.text()).toContain(user.status());
  await page.goto("/collections");
  await waitForHydration(page);
  const out = page.getByTestId("profile-card").getByRole("button", { name: "Log out of Galaxy" });
  if (await out.count()) {
    await out.click();
    await expect(page.getByLabel("Recovery code", { exact: true })).toBeVisible();
  }
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
  { name: "GalaCord · Change Planet", path: "/galacord", open: then(withConnection, by("Change Planet")) },
  { name: "GalaCord · Relay Options", path: "/galacord", open: then(withConnection, by("Relay Options")) },
  {
    name: "GalaCord · Delete a connection (confirmation)",
    path: "/galacord",
    open: then(withConnection, async (page) => by(`Delete ${(await relayAccount()).nick}`)(page)),
  },
  { name: "Bowling Bots · Capybara collection", path: "/gifts", open: then(withCollections, by(/^Capybara of .+: \d+ items$/)) },
  {
    name: "All Characters · Take-over question",
    path: "/characters",
    open: takeoverQuestion,
    scope: (page) => page.getByTestId("takeover-panel"),
  },
  { name: "Collections panel expanded, over Trading Planets", path: "/trading-planets", open: floatingPanel("expanded"), scope: collectionsPanel },
  { name: "Collections panel minimized, over Trading Planets", path: "/trading-planets", open: floatingPanel("minimized"), scope: collectionsPanel },
];
