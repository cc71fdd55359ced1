import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { SIM_URL, simAccounts, toast } from "./characters-fixtures";
import { dismissToasts } from "./trading-fixtures";

/**
 * Spec 2 §2 "Collections screen", "Main app shell" (floating panel, header icon), §4, §8
 * "Collections" with JavaScript: fetcher forms with flash toasts, the live connection held by
 * the app's worker, Auto cycles as jobs, all against the run's Galaxy simulator.
 */

// 75 s, not the default 45: a recovery-code login quits its sign-in connection, so the session's own
// login right after it meets the platform's 10 s window (452) and waits it out (decision 0042).
test.describe.configure({ mode: "serial", timeout: 75_000 });

const profileCard = (page: Page) => page.getByTestId("profile-card");

/** Logged in (as `code`'s account) unless some account already is. */
async function loggedIn(page: Page, code: string) {
  await page.goto("/collections");
  if (await profileCard(page).count()) return;
  await page.getByLabel("Recovery code").fill(code);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(profileCard(page)).toBeVisible();
}

/** The operator's Collections state lives on the server: start from the login card. */
async function loggedOut(page: Page) {
  await page.goto("/collections");
  const out = profileCard(page).getByRole("button", { name: "Log out of Galaxy" });
  if (await out.count()) {
    await out.click();
    await expect(page.getByLabel("Recovery code")).toBeVisible();
  }
}

async function loginWithCode(page: Page, code: string) {
  await loggedOut(page);
  await page.getByLabel("Recovery code").fill(code);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
}

test("recovery-code login, the live connection and the header's connect/disconnect icon", async ({ page }) => {
  const [acc] = await simAccounts("plain");
  await loggedOut(page); // the operator's Collections login lives on the server: a retry may find one
  await expect(page.getByRole("button", { name: "Log in", exact: true })).toBeDisabled(); // spec 2 §5: a non-blank code
  await loginWithCode(page, acc!.recoveryCode);
  await expect(toast(page, `Logged in as ${acc!.nick}`)).toBeVisible();
  await expect(profileCard(page).getByRole("heading", { name: acc!.nick })).toBeVisible();
  await expect(profileCard(page).getByText(`ID ${acc!.id}`)).toBeVisible();
  await expect(page.getByTestId("connection-state")).toHaveText("Connected", { timeout: 20_000 });

  await page.getByRole("button", { name: "Disconnect from Galaxy" }).click();
  await expect(page.getByTestId("connection-state")).toHaveText("Disconnected");
  await profileCard(page).getByLabel("Planet").fill("Orion");
  await profileCard(page).getByRole("button", { name: "Change planet" }).click();
  await expect(toast(page, "Not connected to Galaxy")).toBeVisible();
  // Issue 30 A6: the typed planet stays, the reason next to it as well.
  await expect(profileCard(page).getByLabel("Planet")).toHaveValue("Orion");
  await expect(profileCard(page).getByLabel("Planet")).toHaveAccessibleDescription("Not connected to Galaxy");
  await page.getByRole("button", { name: "Connect to Galaxy" }).click();
  await expect(page.getByTestId("connection-state")).toHaveText("Connected", { timeout: 20_000 });
});

async function simLever(path: "drop" | "another-device", accountId: string) {
  const res = await fetch(`${SIM_URL}/__sim/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ accountId }) });
  expect(res.ok).toBe(true);
}

test("spec 2 §4: a dropped connection shows 'Connecting' and comes back by itself; 950 ends it with 'You login from another device'", async ({
  simFaults,
  page,
}) => {
  const acc = (await simAccounts("plain"))[2]!;
  await loginWithCode(page, acc.recoveryCode);
  const state = page.getByTestId("connection-state");
  await expect(state).toHaveText("Connected", { timeout: 20_000 });
  try {
    await simFaults({ refuseConnections: true });
    await simLever("drop", acc.id);
    await expect(state).toHaveText("Connecting", { timeout: 15_000 });
    // Why, which attempt, and when the next try is (issue 18).
    const detail = profileCard(page).getByTestId("session-detail");
    await expect(detail).toContainText(/attempt \d+/);
    await expect(detail).toContainText(/next try/);
  } finally {
    await simFaults({ refuseConnections: false });
  }
  await expect(state).toHaveText("Connected", { timeout: 40_000 });
  await simLever("another-device", acc.id);
  await expect(state).toHaveText("Error", { timeout: 15_000 });
  await expect(profileCard(page).getByTestId("session-detail")).toContainText("You login from another device");
  await expect(page.getByRole("button", { name: "Connect to Galaxy" })).toBeVisible();
  // Leave the saved accounts as the other tests expect them.
  await page.getByRole("button", { name: `Remove ${acc.nick}`, exact: true }).click();
  await expect(page.getByRole("button", { name: `Log in as ${acc.nick}`, exact: true })).toHaveCount(0);
});

test("Run, Status, gift inventory and Send (n) with the spec's toasts; the 4×4 grid shows zero counts in red", async ({ page }) => {
  const [, acc] = await simAccounts("plain");
  const [recipient] = await simAccounts("recipient");
  await loginWithCode(page, acc!.recoveryCode);
  await expect(profileCard(page)).toBeVisible();

  await page.getByLabel("Collection set").selectOption({ label: "Dragon Collection Set 1" });
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(toast(page, "Mastic used successfully")).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Status", exact: true }).click();
  const items = page.getByTestId("collection-item");
  await expect(items).toHaveCount(16);
  const grid = page.getByRole("list", { name: "Collection items" });
  expect(await grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length)).toBe(4);

  await page.getByRole("button", { name: "Refresh gift inventory" }).click();
  await expect(toast(page, /gifts in stock$/)).toBeVisible();
  const send = page.getByRole("button", { name: /^Send \(\d+\)$/ });
  const n = Number((await send.textContent())!.match(/\d+/)![0]);
  expect(n).toBeGreaterThan(0); // 16 mastic pieces at least
  await page.getByLabel("Recipient").selectOption("");
  await expect(send).toBeDisabled(); // spec 2 §5: a recipient is needed
  await page.getByLabel("Other account ID").fill(recipient!.id);
  await send.click();
  await expect(toast(page, `Sent ${n} gifts to user ${recipient!.id} (confirmed by re-reading the inventory)`)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: "Send (0)" })).toBeDisabled();
  // Every piece of the set went: the grid shows 16 zeros, in red.
  await page.getByRole("button", { name: "Status", exact: true }).click();
  const zero = page.locator('[data-testid="collection-item"][data-count="0"]');
  await expect(zero).toHaveCount(16);
  const count = zero.first().locator(".rt-Text");
  const red = await count.evaluate((el) => getComputedStyle(el).color);
  const plain = await page.getByRole("heading", { name: "Activity Log" }).evaluate((el) => getComputedStyle(el).color);
  expect(red).not.toBe(plain);
  await expect(count).toHaveAttribute("data-accent-color", "red");
  const log = page.getByRole("list", { name: "Activity Log" });
  await expect(log.getByText(`Sent ${n} gifts to user ${recipient!.id}`)).toBeVisible();
  expect(await log.locator("li").count()).toBeLessThanOrEqual(5);
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page.getByText("No activity yet.")).toBeVisible();
});

test("Auto: one cycle runs as a job, the counter reaches 1 of 1 and Auto turns itself off; another open tab follows it live", async ({ page, context }) => {
  await loggedIn(page, (await simAccounts("plain"))[1]!.recoveryCode);
  // A second tab, rendered with Auto off: only live events (issue 18 "Live pages") can bring the cycle to it
  // within seconds (it polls nothing for Auto while the stream is up).
  const other = await context.newPage();
  await other.goto("/collections");
  await expect(other.getByRole("switch", { name: "Auto off" })).toBeVisible();
  await page.getByLabel("Repeat").selectOption("1");
  await page.getByLabel("Interval").selectOption("5");
  const sw = page.getByRole("switch", { name: /Auto/ });
  await expect(sw).toHaveAttribute("aria-checked", "false");
  await sw.click();
  await expect(toast(page, "Auto on")).toBeVisible();
  await expect(page.getByRole("switch", { name: "Auto on" })).toHaveAttribute("aria-checked", "true");
  await expect(other.getByRole("switch", { name: "Auto on" })).toBeVisible({ timeout: 3_000 });
  // The toast is the acting tab's: the other tab's live refresh does not take it (it was a shared flash cookie).
  await expect(toast(other, "Auto on")).toHaveCount(0);
  await expect(other.getByTestId("run-counter")).toHaveText(/^Runs: 1 \/ 1 · /, { timeout: 3_000 });
  await expect(page.getByRole("list", { name: "Activity Log" }).getByText("Cycle 1 of 1: cycle completed")).toBeVisible({ timeout: 40_000 });
  await expect(page.getByTestId("run-counter")).toHaveText(/^Runs: 1 \/ 1/);
  await expect(page.getByRole("switch", { name: "Auto off" })).toHaveAttribute("aria-checked", "false");
  await expect(other.getByRole("list", { name: "Activity Log" }).getByText("Cycle 1 of 1: cycle completed")).toBeVisible({ timeout: 3_000 });
  await expect(other.getByRole("switch", { name: "Auto off" })).toBeVisible({ timeout: 3_000 });
  await other.close();
});

test("saved accounts: newest first, one click logs in again", async ({ page }) => {
  const [first, second] = await simAccounts("plain");
  await page.goto("/collections");
  await profileCard(page).getByRole("button", { name: "Log out of Galaxy" }).click();
  const saved = page.getByRole("list", { name: "Saved accounts" });
  const items = saved.getByTestId("saved-account");
  // Other files in this world (the axe and phone screens) save accounts of their own: this
  // journey's two are there once each, the one logged in last above the other.
  await expect(items.filter({ hasText: first!.nick })).toHaveCount(1);
  await expect(items.filter({ hasText: second!.nick })).toHaveCount(1);
  const order = await items.allTextContents();
  expect(order.findIndex((t) => t.includes(second!.nick))).toBeLessThan(order.findIndex((t) => t.includes(first!.nick)));
  await saved.getByRole("button", { name: `Log in as ${first!.nick}` }).click();
  await expect(toast(page, `Logged in as ${first!.nick}`)).toBeVisible();
  await expect(saved.getByTestId("saved-account").first()).toContainText(first!.nick);
  await expect(saved.getByTestId("saved-account").first()).toContainText("saved");
  await expect(page.getByTestId("connection-state")).toHaveText("Connected", { timeout: 20_000 });
});

test("the floating panel follows the operator across sections, minimized is remembered, and it goes with the connection", async ({ page }) => {
  await loggedIn(page, (await simAccounts("plain"))[0]!.recoveryCode);
  await expect(page.getByTestId("connection-state")).toHaveText("Connected", { timeout: 20_000 });
  await page.getByRole("button", { name: "Show floating panel" }).click();
  await expect(page.getByRole("button", { name: "Hide floating panel" })).toBeVisible();
  const panel = page.getByRole("complementary", { name: "Collections panel" });
  await expect(panel).toHaveCount(0); // not over the Collections screen itself

  await page.getByRole("link", { name: "All Characters" }).first().click();
  await expect(page).toHaveURL(/\/characters/);
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("button", { name: "Run", exact: true })).toBeVisible();
  await panel.getByRole("button", { name: "Minimize" }).click();
  await expect(panel.getByRole("button", { name: "Expand" })).toBeVisible();
  await expect(panel.getByRole("button", { name: "Run", exact: true })).toHaveCount(0);

  await page.goto("/trading-planets");
  await expect(panel).toHaveAttribute("data-mode", "minimized"); // server-rendered from the cookie
  await panel.getByRole("button", { name: "Expand" }).click();
  await expect(panel.getByRole("button", { name: "Run", exact: true })).toBeVisible();
  await panel.getByRole("button", { name: "Run", exact: true }).click();
  await expect(toast(page, "Mastic used successfully")).toBeVisible({ timeout: 20_000 });

  await page.setViewportSize({ width: 375, height: 740 });
  const box = (await panel.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);

  await page.goto("/collections");
  await page.getByRole("button", { name: "Disconnect from Galaxy" }).click();
  await expect(page.getByTestId("connection-state")).toHaveText("Disconnected");
  await page.goto("/characters");
  await expect(panel).toHaveCount(0);
});

/**
 * How much of the page's last content the floating panel covers once the page is scrolled to
 * its end: the main region's last visible element against the panel's top (0 = nothing hidden).
 */
async function coveredAtEnd(page: Page): Promise<number> {
  return page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    const panel = document.querySelector(".gt-floating-panel")!.getBoundingClientRect();
    const shown = [...document.querySelectorAll("main *")].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
    });
    const bottom = Math.max(...shown.map((el) => el.getBoundingClientRect().bottom));
    return Math.max(0, Math.round(bottom - panel.top));
  });
}

test("issue 30 A9: on a 390 px phone the floating panel, expanded or minimized, never covers the end of the page", async ({ page }) => {
  await loggedIn(page, (await simAccounts("plain"))[0]!.recoveryCode);
  // The journey before it ends disconnected (the panel goes with the connection): connect again.
  await expect(page.getByTestId("connection-state")).toHaveText(/^(Connected|Disconnected)$/, { timeout: 20_000 });
  if ((await page.getByTestId("connection-state").textContent()) === "Disconnected") await page.getByRole("button", { name: "Connect to Galaxy" }).click();
  await expect(page.getByTestId("connection-state")).toHaveText("Connected", { timeout: 20_000 });
  const show = page.getByRole("button", { name: "Show floating panel" });
  if (await show.count()) await show.click();
  // The choice is saved by a post: leaving before its answer would cancel it.
  await expect(page.getByRole("button", { name: "Hide floating panel" })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  const panel = page.getByRole("complementary", { name: "Collections panel" });
  for (const path of ["/trading-planets", "/characters", "/logs"]) {
    await page.goto(path);
    await expect(panel).toBeVisible();
    if ((await panel.getAttribute("data-mode")) === "minimized") await panel.getByRole("button", { name: "Expand" }).click();
    await expect(panel.getByRole("button", { name: "Minimize" })).toBeVisible();
    expect(await coveredAtEnd(page), `${path}, expanded`).toBe(0);
    await panel.getByRole("button", { name: "Minimize" }).click();
    await expect(panel.getByRole("button", { name: "Expand" })).toBeVisible();
    expect(await coveredAtEnd(page), `${path}, minimized`).toBe(0);
    // The outcome's toast lies over the panel on a phone for its few seconds: close it, as an operator would.
    await dismissToasts(page);
    await panel.getByRole("button", { name: "Expand" }).click();
    await expect(panel.getByRole("button", { name: "Minimize" })).toBeVisible();
  }
  await page.setViewportSize({ width: 1280, height: 720 });
});

test("issue 30 B4: on a 390 × 844 phone the expanded floating panel covers at most a tenth of the screen, and each of its buttons is a clickable 40 px target", async ({
  page,
}) => {
  await loggedIn(page, (await simAccounts("plain"))[0]!.recoveryCode);
  await expect(page.getByTestId("connection-state")).toHaveText(/^(Connected|Disconnected)$/, { timeout: 20_000 });
  if ((await page.getByTestId("connection-state").textContent()) === "Disconnected") await page.getByRole("button", { name: "Connect to Galaxy" }).click();
  await expect(page.getByTestId("connection-state")).toHaveText("Connected", { timeout: 20_000 });
  const show = page.getByRole("button", { name: "Show floating panel" });
  if (await show.count()) await show.click();
  // The choice is saved by a post: leaving before its answer would cancel it.
  await expect(page.getByRole("button", { name: "Hide floating panel" })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  const panel = page.getByRole("complementary", { name: "Collections panel" });
  try {
    for (const path of ["/trading-planets", "/logs"]) {
      await page.goto(path);
      await expect(panel).toBeVisible();
      if ((await panel.getAttribute("data-mode")) === "minimized") await panel.getByRole("button", { name: "Expand" }).click();
      await expect(panel.getByRole("button", { name: "Minimize" })).toBeVisible();
      await dismissToasts(page);
      const box = (await panel.boundingBox())!;
      const share = (box.width * box.height) / (390 * 844);
      console.log(
        `${path}: the expanded floating panel is ${Math.round(box.width)} × ${Math.round(box.height)} px, ${(share * 100).toFixed(1)} % of the screen`,
      );
      expect(share, `${path}: share of the screen under the expanded panel`).toBeLessThanOrEqual(0.1);
      const buttons = panel.getByRole("button").or(panel.getByRole("switch"));
      const names: string[] = [];
      for (const button of await buttons.all()) {
        const name = (await button.getAttribute("aria-label")) ?? (await button.innerText());
        names.push(name);
        const b = (await button.boundingBox())!;
        expect(b.width, `${name}: width`).toBeGreaterThanOrEqual(40);
        expect(b.height, `${name}: height`).toBeGreaterThanOrEqual(40);
        // Wholly inside the panel's box (not scrolled away) and on the screen.
        expect(b.y, `${name}: inside the panel`).toBeGreaterThanOrEqual(box.y);
        expect(b.y + b.height, `${name}: inside the panel`).toBeLessThanOrEqual(box.y + box.height + 0.5);
        expect(b.x + b.width, `${name}: on the screen`).toBeLessThanOrEqual(390);
        // Clickable: the pointer at its centre reaches it, nothing covers it (a trial click acts on nothing).
        if (await button.isEnabled()) await button.click({ trial: true });
      }
      expect(names).toEqual(expect.arrayContaining(["Minimize", "Close Collections panel", "Run", "Refresh gift inventory"]));
      expect(names.some((n) => n.startsWith("Send ("))).toBe(true);
      expect(names.some((n) => n.startsWith("Auto "))).toBe(true);
      // The buttons do what they say on a phone too: Minimize, then Expand again.
      await panel.getByRole("button", { name: "Minimize" }).click();
      await expect(panel).toHaveAttribute("data-mode", "minimized");
      await dismissToasts(page);
      await panel.getByRole("button", { name: "Expand" }).click();
      await expect(panel).not.toHaveAttribute("data-mode", "minimized");
      await dismissToasts(page);
      await expect(panel.getByRole("button", { name: "Minimize" })).toBeVisible();
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
});

test("at 375 px wide the Collections screen fits without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await loggedIn(page, (await simAccounts("plain"))[0]!.recoveryCode);
  await page.getByRole("button", { name: "Status", exact: true }).click();
  await expect(page.getByTestId("collection-item")).toHaveCount(16);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("issue 19 item 12: on a phone the collection set, recipient and Run/Status/Send come right after the profile, before the saved accounts (DOM order)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loggedIn(page, (await simAccounts("plain"))[0]!.recoveryCode);
  const profile = (await profileCard(page).boundingBox())!;
  const set = (await page.getByLabel("Collection set").boundingBox())!;
  const run = (await page.getByRole("button", { name: "Run", exact: true }).boundingBox())!;
  const saved = (await page.getByRole("list", { name: "Saved accounts" }).boundingBox())!;
  expect(profile.y + profile.height).toBeLessThanOrEqual(set.y);
  expect(run.y + run.height).toBeLessThanOrEqual(saved.y);
  // Keyboard order follows: Run comes before the saved accounts' buttons in the document.
  const runFirst = await page.evaluate(() => {
    const run = [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Run")!;
    const list = document.querySelector('[aria-label="Saved accounts"]')!;
    return Boolean(run.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(runFirst).toBe(true);
  // Desktop keeps two columns: the controls beside the profile.
  await page.setViewportSize({ width: 1280, height: 900 });
  const wideProfile = (await profileCard(page).boundingBox())!;
  const wideSet = (await page.getByLabel("Collection set").boundingBox())!;
  expect(wideSet.x).toBeGreaterThan(wideProfile.x + wideProfile.width);
});
