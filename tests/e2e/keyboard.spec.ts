/**
 * Issue 30 B3 "Keyboard" (and C5's Custom Planets dialog): the tasks an operator does with the
 * keyboard alone, where focus goes after each. CONVENTIONS "UI habits": "Keyboard: every action
 * reachable, visible focus, dialogs trap focus, Escape closes."
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createAccounts } from "./bowling-fixtures";
import { characterRow, simAccounts } from "./characters-fixtures";
import { getRates, openRates, resetRates, row } from "./exchange-rates-fixtures";
import { seedSections } from "./team-fixtures";
import { resetTrading, seedSequences, waitForHydration } from "./trading-fixtures";
import { WORLD } from "./world";

let bowler: { id: string; nick: string };

test.beforeAll(async ({ browser, baseURL }) => {
  const context = await browser.newContext({ storageState: WORLD.storageState, baseURL, extraHTTPHeaders: { Origin: baseURL! } });
  ({ bowler } = await seedSections((await context.newPage()).request, baseURL!, 23));
  await context.close();
});

/** Opens a confirmation from its trigger by keyboard, closes it with Escape: focus is back on the trigger. */
async function escapeReturnsFocus(page: Page, trigger: Locator, dialogName: string | RegExp) {
  await trigger.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: dialogName });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(trigger).toBeFocused();
}

test("spec 1 §4 + issue 30 B3: tabbing through a tier's quantity keeps its 0, and Save stores the rate", async ({ page }) => {
  await resetRates(page.request);
  await openRates(page);
  const clay = row(page, "Gold Ring", "Clay");
  await clay.getByRole("button", { name: "Show tiers of Clay" }).focus();
  await page.keyboard.press("Enter");
  const quantity = clay.getByRole("spinbutton", { name: /^T1 quantity/ });
  const rate = clay.getByRole("textbox", { name: "T1 rate" });
  await expect(quantity).toHaveValue("0");
  await quantity.focus();
  // "Focusing a field holding 0 clears it" (spec 1 §4) …
  await expect(quantity).toHaveValue("");
  await page.keyboard.press("Tab");
  // … and leaving it without typing puts the 0 back.
  await expect(rate).toBeFocused();
  await expect(quantity).toHaveValue("0");
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("3/4");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await getRates(page.request))["Gold Ring"]!["Clay"]!.rate).toBe("3/4");
});

test.describe("issue 30 B3: Escape on a confirmation puts focus back on the control that opened it", () => {
  test("Bowling Bots: Delete an account", async ({ page }) => {
    await page.goto("/gifts");
    await waitForHydration(page);
    const trigger = page
      .getByRole("button", { name: `Delete ${bowler.nick}`, exact: true })
      .or(page.getByRole("link", { name: `Delete ${bowler.nick}`, exact: true }))
      .first();
    await escapeReturnsFocus(page, trigger, /Delete/);
  });

  test("All Characters: Delete a user", async ({ page }) => {
    await page.goto("/characters");
    await waitForHydration(page);
    const trigger = page
      .getByRole("button", { name: `Delete ${bowler.nick}`, exact: true })
      .or(page.getByRole("link", { name: `Delete ${bowler.nick}`, exact: true }))
      .first();
    await escapeReturnsFocus(page, trigger, /Delete/);
  });

  test("System Logs: Clean Old Logs", async ({ page }) => {
    await page.goto("/logs");
    await waitForHydration(page);
    const trigger = page
      .getByRole("button", { name: "Clean Old Logs" })
      .or(page.getByRole("link", { name: "Clean Old Logs" }))
      .first();
    await escapeReturnsFocus(page, trigger, /Clean|logs/i);
  });
});

test("issue 30 B3: GalaCord's Start and Stop keep focus on the pressed button", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/galacord");
  await waitForHydration(page);
  const state = page.getByTestId("bot-state");
  const start = page.getByRole("button", { name: "Start", exact: true });
  const stop = page.getByRole("button", { name: "Stop", exact: true });
  if (await stop.isVisible()) {
    await stop.click();
    await expect(state).toHaveText("Stopped", { timeout: 20_000 });
  }
  await start.focus();
  await page.keyboard.press("Enter");
  await expect(state).toHaveText("Running", { timeout: 20_000 });
  await expect(stop).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(state).toHaveText("Stopped", { timeout: 20_000 });
  await expect(start).toBeFocused();
});

test("issue 30 B3: a character row's Start and Stop keep focus on the pressed button", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const acc = (await simAccounts("stalker"))[17]!;
  await createAccounts(baseURL!, [{ account: acc, type: "stalker" }]);
  await page.goto("/characters");
  await waitForHydration(page);
  const line = characterRow(page, acc.id);
  const start = line.getByRole("button", { name: `Start stalker for ${acc.nick}` });
  await start.focus();
  await page.keyboard.press("Enter");
  const stop = line.getByRole("button", { name: `Stop stalker for ${acc.nick}` });
  await expect(stop).toBeVisible({ timeout: 20_000 });
  await expect(stop).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(start).toBeVisible({ timeout: 20_000 });
  await expect(start).toBeFocused();
});

test.describe("Trading Planets by keyboard", () => {
  test.beforeEach(async ({ page }) => {
    await resetTrading(page.request);
    await seedSequences(page.request, ["Alpha", "Beta"]);
    await page.goto("/trading-planets");
    await waitForHydration(page);
  });

  test("issue 30 B3: Edit sequence moves focus to the form's first field", async ({ page }) => {
    await page
      .getByRole("link", { name: "Edit Alpha" })
      .or(page.getByRole("button", { name: "Edit Alpha" }))
      .first()
      .focus();
    await page.keyboard.press("Enter");
    const name = page.getByRole("region", { name: "Edit Sequence" }).getByRole("textbox", { name: "Name" });
    await expect(name).toBeFocused();
    await expect(name).toHaveValue("Alpha");
  });

  test("issue 30 B3: drag announcements say the sequences' names, never their ids", async ({ page }) => {
    const handle = page.getByRole("button", { name: "Drag Alpha" });
    await expect(handle).toBeVisible();
    await handle.focus();
    await page.keyboard.press("Space");
    await expect(handle).toHaveAttribute("aria-pressed", "true");
    const live = page.locator('[id^="DndLiveRegion"]');
    await expect(live).toHaveText(/^(Picked up Alpha \(position 1 of 2\)|Alpha is over Alpha \(position 1 of 2\))\.$/);
    await expect(async () => {
      if (!/over Beta/.test((await live.textContent()) ?? "")) await page.keyboard.press("ArrowDown");
      await expect(live).toHaveText("Alpha is over Beta (position 2 of 2).", { timeout: 1_500 });
    }).toPass({ timeout: 10_000 });
    await page.keyboard.press("Escape");
    await expect(live).toHaveText("Moving Alpha was cancelled; it stays at position 1 of 2.");
    expect(await live.textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  test("issue 30 C5: the Custom Planets dialog keeps focus inside, Escape closes it, focus goes back to its link", async ({ page }) => {
    const link = page.getByRole("link", { name: "Custom Planets" });
    await link.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Custom Planets" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/planets=blacklisted/);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((el) => el.contains(document.activeElement)), `Tab ${i + 1} stays in the dialog`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(page).not.toHaveURL(/planets=/);
    await expect(link).toBeFocused();
  });
});
