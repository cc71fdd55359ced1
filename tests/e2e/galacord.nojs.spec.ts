/**
 * GalaCord screen without JavaScript (house rule: forms work as plain POSTs with redirects;
 * the loader renders the bot status): Start, connect a new account, Change Channel, Delete
 * Connection with its confirmation, Stop.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { simAccounts, toast } from "./characters-fixtures";

// "Running", "Starting" or "Stopped": always on the page, so a check reads it at once (a locator
// for Running|Stopped alone waited, on a no-JS page that cannot change, while the bot was Starting).
const botState = async (page: Page) => (await page.getByTestId("bot-state").textContent()) ?? "";

async function reloadUntil(page: Page, check: () => Promise<boolean>) {
  await expect
    .poll(
      async () => {
        await page.goto(page.url());
        return check();
      },
      { timeout: 30_000, intervals: [500, 1000] },
    )
    .toBe(true);
}

test("no-JS: Start, ID → Connect, Change Channel, Delete Connection (confirm), Stop", async ({ page }) => {
  test.setTimeout(120_000);
  const [acc] = (await simAccounts("plain")).slice(41, 42);
  await page.goto("/galacord");
  if (await page.getByRole("button", { name: "Stop", exact: true }).isVisible()) await page.getByRole("button", { name: "Stop", exact: true }).click();
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await expect(toast(page, "Bot started")).toBeVisible();
  await reloadUntil(page, async () => (await botState(page)) === "Running");

  await page.getByRole("button", { name: "ID", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "New connection" });
  await dialog.getByLabel("Channel").selectOption({ label: "#chat" });
  await dialog.getByLabel("Recovery code").fill(acc.recoveryCode);
  await dialog.getByRole("button", { name: "Connect" }).click();
  await expect(toast(page, "Connection created")).toBeVisible({ timeout: 20_000 });
  const row = page.getByRole("listitem", { name: acc.nick });
  await expect(row).toContainText("#chat");
  await reloadUntil(page, async () => (await row.getByText("Connected", { exact: true }).count()) > 0);

  await row.getByRole("button", { name: "Change Channel" }).click();
  const change = page.getByRole("dialog", { name: "Change Channel" });
  // Spec 2 §5 "Change Channel needs a channel": the browser holds the form back until one is picked.
  await expect(change.getByLabel("New channel")).toHaveAttribute("required", "");
  await page.getByRole("dialog", { name: "Change Channel" }).getByLabel("New channel").selectOption({ label: "#bots" });
  await page.getByRole("dialog", { name: "Change Channel" }).getByRole("button", { name: "Change Channel" }).click();
  await expect(toast(page, "Channel updated")).toBeVisible();
  await expect(row).toContainText("#bots");
  await expect(row).toContainText("Test Server");

  await row.getByRole("button", { name: `Delete ${acc.nick}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Connection" });
  await expect(confirm).toContainText("This cannot be undone");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Account deleted")).toBeVisible();
  await expect(page.getByRole("listitem", { name: acc.nick })).toHaveCount(0);

  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(toast(page, "Bot stopped")).toBeVisible();
  await expect(page.getByTestId("bot-state")).toHaveText("Stopped");
});
