import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { simAccounts } from "./characters-fixtures";
import { ALL_PAIRS, openRates, resetRates, row, toast } from "./exchange-rates-fixtures";

/**
 * Issue 30 A7: a toast never stands between the operator and a control. Spec 1 §9
 * "Notification toasts: at most 3 visible, default duration 4000 ms": a toast stays for 4 s, and
 * the buttons under it (a row's, the Collections floating panel's) take a click at once.
 * docs/decisions/0040-toasts-cover-no-control.md.
 */

test.describe.configure({ mode: "serial" });

/**
 * The page's visible buttons (in the main region and the floating panel) whose centre a toast
 * takes instead: what `elementFromPoint` finds there is inside the toaster. [] = none covered.
 */
async function buttonsUnderToasts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const buttons = [...document.querySelectorAll<HTMLElement>("main button, main a[href], .gt-floating-panel button")];
    const covered: string[] = [];
    for (const b of buttons) {
      const r = b.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit?.closest(".gt-toaster")) covered.push(b.getAttribute("aria-label") ?? b.textContent ?? "?");
    }
    return covered;
  });
}

/** The toaster's cards on screen, to be sure the check above ran while a toast was there. */
const toastCards = (page: Page) => page.locator(".gt-toaster .gt-toast-card");

/**
 * Holds the page's clock while the checks run, so the 4 s toast is still there on a slow
 * machine (the toasts' timers are the page's; decision 0010 "Tests that pause the page clock").
 */
async function holdClock(page: Page) {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
}

test("issue 30 A7, 1366 px: a row's delete toast leaves every row button clickable, the next row's Delete at once", async ({ clockPage: page }) => {
  // Three inputs' rows: more than the screen holds, so rows run under the toasts' corner.
  await resetRates(page.request, ALL_PAIRS.slice(0, 40));
  await page.clock.install();
  await page.setViewportSize({ width: 1366, height: 768 });
  await openRates(page);
  await row(page, "Fire Cannon Ball", "Green Light").getByRole("button", { name: "Delete Fire Cannon Ball → Green Light" }).click();
  await expect(toast(page, "Exchange rate deleted successfully")).toBeVisible();
  await holdClock(page);
  await expect(toastCards(page)).toHaveCount(1);
  expect(await buttonsUnderToasts(page)).toEqual([]);
  // The rows' buttons near the bottom right, where the toast stands: the bottom-most visible Delete takes the click.
  const name = await page.evaluate(() => {
    const all = [...document.querySelectorAll<HTMLElement>("main button[aria-label^='Delete ']")].filter((b) => b.getAttribute("aria-label")!.includes(" → "));
    const shown = all.filter((b) => b.getBoundingClientRect().bottom <= innerHeight && b.getBoundingClientRect().top >= 0);
    return shown.at(-1)?.getAttribute("aria-label") ?? null;
  });
  expect(name).not.toBeNull();
  await page.getByRole("button", { name: name!, exact: true }).click({ timeout: 2_000 });
  await expect(page.getByRole("button", { name: name!, exact: true })).toHaveCount(0);
  await page.clock.runFor(300); // its toast's turn
  await expect(toast(page, "Exchange rate deleted successfully")).toBeVisible();
  expect(await buttonsUnderToasts(page)).toEqual([]);
  // The second, identical toast refreshed the first (decision 0010); its own buttons still take clicks.
  await expect(toastCards(page)).toHaveCount(1);
  await page.locator(".gt-toaster").getByRole("button", { name: "Dismiss notification" }).click({ timeout: 2_000 });
  // The pointer leaves the corner: a toast under it waits while hovered (sonner), and a refreshed
  // one standing where the dismissed one was stayed on screen past 10 s on a loaded machine.
  await page.mouse.move(10, 10);
  await page.clock.resume();
  await expect(toast(page, "Exchange rate deleted successfully")).toHaveCount(0);
});

test("issue 30 A7, 390 px and 1366 px: minimizing the Collections panel shows its toast, and Expand takes the click at once", async ({ clockPage: page }) => {
  test.setTimeout(120_000);
  const code = (await simAccounts("plain"))[0]!.recoveryCode;
  await page.goto("/collections");
  if (!(await page.getByTestId("profile-card").count())) {
    await page.getByLabel("Recovery code").fill(code);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
  }
  await expect(page.getByTestId("connection-state")).toHaveText(/^(Connected|Disconnected)$/, { timeout: 20_000 });
  if ((await page.getByTestId("connection-state").textContent()) === "Disconnected") await page.getByRole("button", { name: "Connect to Galaxy" }).click();
  await expect(page.getByTestId("connection-state")).toHaveText("Connected", { timeout: 20_000 });
  const show = page.getByRole("button", { name: "Show floating panel" });
  if (await show.count()) await show.click();
  // The choice is saved by a post: leaving before its answer would cancel it.
  await expect(page.getByRole("button", { name: "Hide floating panel" })).toBeVisible();
  await page.clock.install();

  for (const size of [
    { width: 390, height: 844 },
    { width: 1366, height: 768 },
  ]) {
    await page.setViewportSize(size);
    await page.goto("/characters");
    const panel = page.getByRole("complementary", { name: "Collections panel" });
    await expect(panel).toBeVisible();
    if ((await panel.getAttribute("data-mode")) === "minimized") await panel.getByRole("button", { name: "Expand" }).click();
    await panel.getByRole("button", { name: "Minimize" }).click();
    await expect(toast(page, "Floating panel minimized")).toBeVisible();
    await holdClock(page);
    await expect(panel).toHaveAttribute("data-mode", "minimized");
    expect(await buttonsUnderToasts(page), `${size.width} px`).toEqual([]);
    await panel.getByRole("button", { name: "Expand" }).click({ timeout: 2_000 });
    await expect(panel.getByRole("button", { name: "Minimize" })).toBeVisible();
    await page.clock.runFor(300); // its toast's turn
    await expect(toast(page, "Floating panel shown")).toBeVisible();
    expect(await buttonsUnderToasts(page), `${size.width} px`).toEqual([]);
    await page.clock.resume();
  }
  await page.setViewportSize({ width: 1280, height: 720 });
});
