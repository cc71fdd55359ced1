import { expect, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import { seedBowling } from "./bowling-fixtures";
import { resetRates } from "./exchange-rates-fixtures";
import { resetTrading, seedSequences } from "./trading-fixtures";

/**
 * Issue 21 item 1, team use: operators made in Settings, logging in as them, and what each
 * section screen offers a viewer (read everything, change nothing: the write controls are not
 * there) against an operator (the same controls are there, so the checks can fail).
 */
const loggedOut = { cookies: [], origins: [] };

/** Adds an operator on /settings as the admin (`page` is the E2E operator, an admin). Plain forms: JavaScript on or off. */
export async function addOperator(page: Page, name: string, password: string, role: "admin" | "operator" | "viewer") {
  await page.goto("/settings");
  const operators = page.getByRole("region", { name: "Operators" });
  await operators.getByLabel("Name", { exact: true }).fill(name);
  await operators.getByLabel("Password", { exact: true }).fill(password);
  await operators.getByRole("combobox", { name: "Role", exact: true }).selectOption(role);
  await operators.getByRole("button", { name: "Add operator" }).click();
  await expect(operators.getByRole("listitem", { name })).toContainText(role[0]!.toUpperCase() + role.slice(1));
  return operators;
}

/** A fresh browser context logged in as `name`; JavaScript on or off. */
export async function logInAs(browser: Browser, baseURL: string, name: string, password: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ storageState: loggedOut, baseURL, javaScriptEnabled });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

/** Something to read in every section: rates, bowling accounts (also on All Characters), a sequence, an ad. */
export async function seedSections(request: APIRequestContext, baseURL: string, bowlingOffset: number) {
  await resetRates(request);
  await resetTrading(request);
  await seedSequences(request, ["Viewer tour"]);
  const ad = await request.post("/api/ads", { data: { adsMessage: "Selling rings to viewers", category: "ads" } });
  expect(ad.status(), await ad.text()).toBeLessThan(300);
  const { bowlers } = await seedBowling(baseURL, bowlingOffset);
  return { bowler: bowlers[0]! };
}

/** A button or a link (a no-JavaScript confirmation is a link, the dialog opener a button). */
const control = (page: Page, name: string | RegExp) =>
  page.getByRole("button", { name, exact: typeof name === "string" }).or(page.getByRole("link", { name, exact: typeof name === "string" }));

export type SectionCheck = {
  path: string;
  /** What every role reads there. */
  data: (page: Page) => Locator[];
  /** The writes: present for an operator, absent for a viewer. */
  writes: (page: Page) => Locator[];
};

export function sectionChecks(bowler: { id: string; nick: string }): SectionCheck[] {
  return [
    {
      path: "/exchange-rates",
      data: (p) => [p.getByRole("region", { name: "Gold Ring", exact: true }).getByText("Clay", { exact: true }), p.getByText("Green Light")],
      writes: (p) => [
        control(p, "Add"),
        control(p, "Import"),
        control(p, "Add output gift to Gold Ring"),
        control(p, "Delete all exchange rates for Gold Ring"),
        control(p, "Disable Gold Ring → Clay"),
        control(p, "Delete Gold Ring → Clay"),
      ],
    },
    {
      path: "/gifts",
      data: (p) => [p.locator(`[data-testid="bowling-row"][data-account="${bowler.id}"]`).getByText(bowler.nick, { exact: true })],
      writes: (p) => [
        control(p, "Click to refresh data"),
        control(p, "Delete all companions"),
        control(p, new RegExp(`^(Assign|Update) Companion for ${bowler.nick.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`)),
        control(p, `Delete ${bowler.nick}`),
        control(p, "Gift Rates"),
      ],
    },
    {
      path: "/characters",
      data: (p) => [p.locator(`[data-testid="character-row"][data-account="${bowler.id}"]`).getByText(bowler.nick, { exact: true })],
      writes: (p) => [control(p, "Add User"), control(p, "Add Category"), control(p, "Start"), control(p, "Stop"), control(p, `Delete ${bowler.nick}`)],
    },
    {
      path: "/trading-planets",
      data: (p) => [p.getByTestId("sequence").getByText("Viewer tour", { exact: true }), p.getByTestId("ad").getByText("Selling rings to viewers")],
      writes: (p) => [
        control(p, "New Sequence"),
        control(p, "Edit Viewer tour"),
        control(p, "Delete Viewer tour"),
        control(p, "Move Viewer tour down"),
        control(p, "Add"),
        control(p, "Edit Selling rings to viewers"),
        control(p, "Delete Selling rings to viewers"),
      ],
    },
    {
      path: "/galacord",
      data: (p) => [p.getByTestId("bot-state"), p.getByRole("heading", { name: "Saved accounts" })],
      writes: (p) => [control(p, /^(Start|Stop)$/), control(p, "ID")],
    },
    {
      path: "/collections",
      data: (p) => [p.getByRole("heading", { name: "Activity Log" })],
      writes: (p) => [control(p, "Clear")],
    },
    {
      path: "/logs",
      data: (p) => [p.getByRole("heading", { name: "System Logs" })],
      writes: (p) => [control(p, "Clean Old Logs")],
    },
  ];
}

/** Every section as `page`'s operator: the data is there, and the writes are there (`canWrite`) or not. */
export async function checkSections(page: Page, checks: SectionCheck[], canWrite: boolean) {
  for (const check of checks) {
    await page.goto(check.path);
    for (const data of check.data(page)) await expect(data.first(), `${check.path}: data`).toBeVisible();
    for (const write of check.writes(page)) {
      if (canWrite) await expect(write.first(), `${check.path}: ${write}`).toBeVisible();
      else await expect(write, `${check.path}: ${write}`).toHaveCount(0);
    }
  }
}
