/**
 * Every screen an operator reaches, for the journey that checks them all (the standing axe
 * test and the 40 px targets at 390 px, tests/e2e/a11y.spec.ts): the pages from the route table
 * and the dialogs opened by their real triggers.
 */
import { UNSAFE_defineRoutes } from "@remix-run/dev";
import { expect, type Locator, type Page } from "@playwright/test";
import { appRoutes } from "../../app/routes.manifest";
import { characterRow, simAccounts } from "./characters-fixtures";
import { dismissToasts, longPress, waitForHydration } from "./trading-fixtures";

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
  /** What `open` brought up, for checks of its own controls (its 40 px targets in a11y.spec.ts); the last dialog unless said. */
  scope?: (page: Page) => Locator;
  loggedOut?: boolean;
  /**
   * The same dialog rendered without JavaScript (a `?dialog=…` / `?confirm=…` URL the server
   * answers with the dialog inline), reached in a JavaScript-disabled tab by `open`'s real
   * trigger there (a link, a GET form), after `prepare` has made its data with JavaScript on
   * (idempotent, on a tab at `path`). Unset: `open` itself works without JavaScript. false: the
   * state has no no-JavaScript render (a popover, a panel that needs JavaScript).
   */
  withoutJs?: false | { prepare?: (page: Page) => Promise<void>; open?: (page: Page) => Promise<void> };
};

/**
 * The controls under `scope` smaller than 40 × 40 px, described (CONVENTIONS "Narrow screens:
 * touch targets of at least 40 px"; issue 30 B4): a11y.spec.ts measures every state so at 390 px.
 */
export async function smallTargets(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const controls = root.querySelectorAll<HTMLElement>(
      'button, a[href], input:not([type="hidden"]), select, textarea, summary, [role="switch"], [role="combobox"], [role="checkbox"], [role="button"], [role="tab"], [tabindex="0"]',
    );
    const small: string[] = [];
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue; // not shown
      if (el.closest(".gt-visually-hidden, [aria-hidden='true']")) continue;
      // A control whose box is clipped out of sight (a skip link until focused) is not a target.
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || r.bottom < 0 || r.right < 0) continue;
      // A link inside a sentence is exempt (WCAG 2.5.8 "inline").
      if (el.tagName === "A" && style.display === "inline") continue;
      if (r.width < 40 || r.height < 40) {
        const name = el.getAttribute("aria-label") ?? (el.textContent?.trim().slice(0, 30) || el.getAttribute("name") || el.tagName);
        small.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
    }
    return small;
  });
}

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

/**
 * Opens a confirmation by its trigger and waits for it: the question on top may open over a
 * dialog that stays (Add Category's, Custom Planets'), so it waits for the alert dialog itself.
 */
export const confirmBy = (name: string | RegExp) => async (page: Page) => {
  await control(page, name).click();
  await expect(page.getByRole("alertdialog").last()).toBeVisible();
};

/** Trading Planets: the sequence form (`?sequence=new`, inline, not a dialog) that its link opens. */
const sequenceForm = (page: Page) => page.getByRole("region", { name: "New Sequence" });
async function newSequence(page: Page) {
  await control(page, "New Sequence").click();
  await expect(sequenceForm(page)).toBeVisible();
}

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

/** A guard: the panel is on screen, as `mode` (the state its JavaScript journey left). */
const panelShown = (mode: "expanded" | "minimized") => async (page: Page) => {
  await expect(collectionsPanel(page)).toBeVisible();
  if (mode === "minimized") await expect(collectionsPanel(page)).toHaveAttribute("data-mode", "minimized");
  else await expect(collectionsPanel(page)).not.toHaveAttribute("data-mode", "minimized");
};

/** A guard for a question its URL opens: it is on screen. */
const confirmShown = async (page: Page) => {
  await expect(page.getByRole("alertdialog").last()).toBeVisible();
};

/**
 * All Characters: Start on a stalker user that Collections holds (issue 18 "one account, one
 * holder") brings the take-over question. The user is made first (a sign-in Collections'
 * login would refuse), then Collections logs in with it.
 */
async function takeoverHeld(page: Page) {
  const acc = await takeoverAccount();
  const users = (await (await page.request.get("/api/users")).json()) as { users: { account_id: string; type: string | null }[] };
  if (!users.users.some((u) => u.account_id === acc.id && u.type === "stalker")) {
    const res = await page.request.post("/api/create-creds", { data: { rc: acc.recoveryCode, type: "stalker", takeover: true } });
    expect(res.status(), await res.text()).toBe(200);
  }
  await collectionsConnected(page, acc);
}

/** Start on the held user: the question (without JavaScript the form's post answers with the page and `?takeover=`). */
async function takeoverStart(page: Page) {
  const acc = await takeoverAccount();
  await characterRow(page, acc.id)
    .getByRole("button", { name: `Start stalker for ${acc.nick}` })
    .click();
  await expect(page.getByTestId("takeover-panel")).toBeVisible();
  await dismissToasts(page);
}

async function takeoverQuestion(page: Page) {
  await takeoverHeld(page);
  await page.goto("/characters");
  await waitForHydration(page);
  await takeoverStart(page);
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
 * The supplier and the recipient the companion of these states pairs: the last of each in the
 * simulator (no journey uses them; the seeding offsets past 19 make none, so a world
 * has no other). Undone by `undoScreenStates`.
 */
export const companionAccounts = async () => ({ supplier: (await simAccounts("supplier")).at(-1)!, recipient: (await simAccounts("recipient")).at(-1)! });

/**
 * Bowling Bots: a companion, so "Delete all companions" is offered (it is disabled with none),
 * assigned through Assign Companion, unless there is one. Undone by `undoScreenStates`.
 */
async function withCompanion(page: Page) {
  if (await page.getByRole("button", { name: "Delete all companions" }).isEnabled()) return;
  const { supplier, recipient } = await companionAccounts();
  const users = (await (await page.request.get("/api/users")).json()) as { users: { account_id: string; type: string | null }[] };
  const missing = [
    { account: supplier, type: "suppliers" },
    { account: recipient, type: "recipients" },
  ].filter(({ account, type }) => !users.users.some((u) => u.account_id === account.id && u.type === type));
  for (const { account, type } of missing) {
    const res = await page.request.post("/api/create-creds", { data: { rc: account.recoveryCode, type } });
    expect(res.status(), await res.text()).toBeLessThan(300);
  }
  if (missing.length) {
    await page.reload();
    await waitForHydration(page);
  }
  await by(/^Assign Companion for /)(page);
  const dialog = page.getByRole("dialog", { name: "Assign Companion" });
  await dialog.getByLabel("Supplier").selectOption(supplier.id);
  await dialog.getByLabel("Recipient").selectOption(recipient.id);
  await dialog.getByRole("button", { name: "Assign", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete all companions" })).toBeEnabled();
  await dismissToasts(page);
}

/** All Characters: the category these states delete (made through /api). Undone by `undoScreenStates`. */
export const SCREENS_CATEGORY = "Screens category";
const categoryIds = async (page: Page, value: string) =>
  ((await (await page.request.get("/api/categories")).json()) as { categories: { _id: string; value: string }[] }).categories
    .filter((c) => c.value === value)
    .map((c) => c._id);
async function withCategory(page: Page) {
  if ((await categoryIds(page, SCREENS_CATEGORY)).length) return;
  const res = await page.request.post("/api/categories", { data: { value: SCREENS_CATEGORY } });
  expect(res.status(), await res.text()).toBe(201);
  await page.reload();
  await waitForHydration(page);
}

/** Trading Planets: the custom planet these states delete (made through /api). Undone by `undoScreenStates`. */
export const SCREENS_PLANET = "Screensia";
const planetIds = async (page: Page, name: string) =>
  ((await (await page.request.get("/api/custom-planets")).json()) as { planets: { _id: string; name: string }[] }).planets
    .filter((p) => p.name === name)
    .map((p) => p._id);
async function withPlanet(page: Page) {
  if ((await planetIds(page, SCREENS_PLANET)).length) return;
  const res = await page.request.post("/api/custom-planets", { data: { name: SCREENS_PLANET, type: "blacklisted" } });
  expect(res.status(), await res.text()).toBe(201);
  await page.reload();
  await waitForHydration(page);
}

/** The ad `seedSections` writes (Trading Planets' multi-select deletes it after a question). */
const SEEDED_AD = "Selling rings to viewers";

/** Trading Planets, Delete Selected Ads: a long press on an ad's delete starts multi-select with it, then Delete Selected asks. */
async function deleteSelectedAds(page: Page) {
  const ad = page.getByRole("button", { name: `Delete ${SEEDED_AD}` });
  // A press the page moved away from under (its pointerleave ends it, as a finger's would) starts
  // nothing: press again, as a user would, while the ad is still there (a press taken for a
  // click would have deleted it, and this fails). Once in a CI run under load the one press
  // started nothing and the state waited out its timeout for Delete Selected.
  await expect(async () => {
    await expect(ad).toBeVisible({ timeout: 1_000 });
    if (!(await control(page, "Delete Selected").isVisible())) await longPress(page, ad);
    await expect(control(page, "Delete Selected")).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await confirmBy("Delete Selected")(page);
}

/** The same without JavaScript: the Select link, the ad's checkbox, then Delete Selected (a GET form) asks. */
async function deleteSelectedAdsWithoutJs(page: Page) {
  await control(page, "Select").click();
  await page.getByRole("checkbox", { name: `Select ${SEEDED_AD}` }).check();
  await confirmBy("Delete Selected")(page);
}

/**
 * Undoes what the states above leave in a world (the relay connection and the bot, the
 * take-over user, the Collections login and its floating panel, the companions and the two
 * accounts they pair, the category and the custom planet), so the journeys that run there
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
  // Companions are the whole world's (Bowling Bots deletes them all at once, as here).
  const companions = (await (await page.request.get("/api/bowling-companions")).json()) as unknown[];
  if (companions.length) {
    const deleted = await page.request.delete("/api/bowling-companions");
    expect(deleted.status(), await deleted.text()).toBe(200);
  }
  const { supplier, recipient } = await companionAccounts();
  for (const acc of [supplier, recipient]) {
    const res = await page.request.delete(`/api/users/${acc.id}`);
    expect([200, 404], await res.text()).toContain(res.status());
  }
  for (const id of await categoryIds(page, SCREENS_CATEGORY)) {
    const res = await page.request.delete(`/api/categories/${id}`);
    expect([200, 404], await res.text()).toContain(res.status());
  }
  for (const id of await planetIds(page, SCREENS_PLANET)) {
    const res = await page.request.delete(`/api/custom-planets/${id}`);
    expect([200, 404], await res.text()).toContain(res.status());
  }
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
  // Rendered only with JavaScript (the setting it holds is this browser's).
  { name: "Exchange Rates · View settings (popover)", path: "/exchange-rates", open: by("View settings"), withoutJs: false },
  { name: "Bowling Bots · Gift Rates", path: "/gifts", open: by("Gift Rates") },
  { name: "Bowling Bots · Companion", path: "/gifts", open: by(/^(Assign|Update) Companion for /) },
  { name: "Bowling Bots · Delete an account (confirmation)", path: "/gifts", open: by(/^Delete (?!all)/) },
  {
    name: "Bowling Bots · Delete all companions (confirmation)",
    path: "/gifts",
    open: then(withCompanion, by("Delete all companions")),
    withoutJs: { prepare: withCompanion, open: by("Delete all companions") },
  },
  { name: "All Characters · Add User", path: "/characters", open: by("Add User") },
  { name: "All Characters · Add Category", path: "/characters", open: by("Add Category") },
  { name: "All Characters · Delete a user (confirmation)", path: "/characters", open: by(/^Delete (?!all)/) },
  {
    name: "All Characters · Delete a category (confirmation)",
    path: "/characters",
    open: then(withCategory, by("Add Category"), confirmBy(`Delete category ${SCREENS_CATEGORY}`)),
    withoutJs: { prepare: withCategory, open: then(by("Add Category"), confirmBy(`Delete category ${SCREENS_CATEGORY}`)) },
  },
  { name: "Trading Planets · Custom Planets", path: "/trading-planets", open: by("Custom Planets") },
  {
    name: "Trading Planets · Delete a custom planet (confirmation)",
    path: "/trading-planets",
    open: then(withPlanet, by("Custom Planets"), confirmBy(`Delete ${SCREENS_PLANET}`)),
    withoutJs: { prepare: withPlanet, open: then(by("Custom Planets"), confirmBy(`Delete ${SCREENS_PLANET}`)) },
  },
  { name: "Trading Planets · New Sequence (form)", path: "/trading-planets", open: newSequence, scope: sequenceForm },
  { name: "Trading Planets · Delete a sequence (confirmation)", path: "/trading-planets", open: by("Delete Viewer tour") },
  {
    name: "Trading Planets · Delete selected ads (confirmation)",
    path: "/trading-planets",
    open: deleteSelectedAds,
    withoutJs: { open: deleteSelectedAdsWithoutJs },
  },
  { name: "GalaCord · New connection", path: "/galacord", open: by("ID") },
  { name: "System Logs · Clean Old Logs (confirmation)", path: "/logs", open: by("Clean Old Logs") },
  {
    name: "Settings · Revoke a token (confirmation)",
    path: "/settings",
    open: then(withToken, by("Revoke Screens token")),
    withoutJs: { prepare: withToken, open: by("Revoke Screens token") },
  },
  {
    name: "Settings · Delete an operator (confirmation)",
    path: "/settings",
    open: then(withOperator, by("Delete screens-viewer")),
    withoutJs: { prepare: withOperator, open: by("Delete screens-viewer") },
  },
  {
    name: "GalaCord · Change Channel",
    path: "/galacord",
    open: then(withConnection, by("Change Channel")),
    withoutJs: { prepare: withConnection, open: by("Change Channel") },
  },
  {
    name: "GalaCord · Change Planet",
    path: "/galacord",
    open: then(withConnection, by("Change Planet")),
    withoutJs: { prepare: withConnection, open: by("Change Planet") },
  },
  {
    name: "GalaCord · Relay Options",
    path: "/galacord",
    open: then(withConnection, by("Relay Options")),
    withoutJs: { prepare: withConnection, open: by("Relay Options") },
  },
  {
    name: "GalaCord · Delete a connection (confirmation)",
    path: "/galacord",
    open: then(withConnection, async (page) => by(`Delete ${(await relayAccount()).nick}`)(page)),
    withoutJs: { prepare: withConnection, open: async (page) => by(`Delete ${(await relayAccount()).nick}`)(page) },
  },
  {
    name: "Bowling Bots · Capybara collection",
    path: "/gifts",
    open: then(withCollections, by(/^Capybara of .+: \d+ items$/)),
    withoutJs: { prepare: withCollections, open: by(/^Capybara of .+: \d+ items$/) },
  },
  {
    name: "All Characters · Take-over question",
    path: "/characters",
    open: takeoverQuestion,
    scope: (page) => page.getByTestId("takeover-panel"),
    withoutJs: { prepare: takeoverHeld, open: takeoverStart },
  },
  // The question a stop that loses a trading run's place asks (the page reads it from its URL, with and without JavaScript).
  { name: "Sessions · Stop (confirmation)", path: "/sessions?confirm=stop&selected=trader:screens-session", open: confirmShown },
  // The floating panel is server-rendered from the shell's cookie: without JavaScript it shows as it was left.
  {
    name: "Collections panel expanded, over Trading Planets",
    path: "/trading-planets",
    open: floatingPanel("expanded"),
    scope: collectionsPanel,
    withoutJs: { prepare: floatingPanel("expanded"), open: panelShown("expanded") },
  },
  {
    name: "Collections panel minimized, over Trading Planets",
    path: "/trading-planets",
    open: floatingPanel("minimized"),
    scope: collectionsPanel,
    withoutJs: { prepare: floatingPanel("minimized"), open: panelShown("minimized") },
  },
];
