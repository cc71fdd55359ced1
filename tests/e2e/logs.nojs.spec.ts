import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { emptyFilter, seedFailedLogin, seedSkippedEntries, uniqueName } from "./logs-seed";

/** Spec 2 "Logs page (/logs)" with JavaScript disabled: GET filters, posted forms, server toasts. */

const entry = (page: Page, message: string) => page.getByRole("list", { name: "Log entries" }).getByRole("listitem").filter({ hasText: message });

test("filters apply through the GET form", async ({ page }, testInfo) => {
  const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("nojs-filter"));
  await page.goto("/logs");
  await page.getByLabel("Type").selectOption("error");
  await page.getByLabel("Source").selectOption("system");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/logs\?type=error&source=system/);
  await expect(entry(page, message)).toBeVisible();
  await expect(page.locator("[data-log-type]").filter({ hasNotText: "error" })).toHaveCount(0);

  const empty = await emptyFilter(testInfo.project.use.baseURL!);
  await page.getByLabel("Type").selectOption(empty.type);
  await page.getByLabel("Source").selectOption(empty.source);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("heading", { name: "No entries match these filters" })).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/logs$/);
  await expect(entry(page, message)).toBeVisible();
});

test("Clear posts and comes back to the same filtered list", async ({ page }, testInfo) => {
  const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("nojs-clear"));
  await page.goto("/logs?type=error");
  await entry(page, message).getByRole("button", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/logs\?type=error$/);
  // Issue 30 B5: it says what it did.
  await expect(page.getByRole("status").filter({ hasText: "Log entry cleared" })).toBeVisible();
  await expect(entry(page, message)).toHaveCount(0);
  await page.goto("/logs?type=error&showCleared=1");
  await expect(entry(page, message)).toContainText("Cleared");
});

test("Clean Old Logs asks on a confirmation page, then shows the count as a toast", async ({ page }, testInfo) => {
  const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("nojs-clean"));
  await page.goto("/logs?showCleared=1");
  await entry(page, message).getByRole("button", { name: "Clear" }).click();
  await expect(entry(page, message)).toContainText("Cleared");

  await page.getByRole("link", { name: "Clean Old Logs" }).click();
  await expect(page).toHaveURL(/confirm=cleanup/);
  const question = page.getByRole("alertdialog");
  await expect(question).toContainText("every cleared entry and every entry older than 14 days");
  await question.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/logs\?showCleared=1$/);
  await expect(entry(page, message)).toHaveCount(1);

  await page.getByRole("link", { name: "Clean Old Logs" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Clean Old Logs" }).click();
  await expect(page).toHaveURL(/\/logs\?showCleared=1$/);
  await expect(page.getByRole("status").filter({ hasText: /^Deleted \d+ log entr(y|ies)$/ })).toBeVisible();
  await expect(entry(page, message)).toHaveCount(0);
});

test("issue 30 A5: search over message and account, a date range and Go to date, all in the URL", async ({ page }, testInfo) => {
  const name = uniqueName("nojs-search");
  const message = await seedFailedLogin(testInfo.project.use.baseURL!, name);
  const today = new Date().toISOString().slice(0, 10);
  await page.goto("/logs?type=error");
  await page.getByRole("searchbox", { name: "Search messages and accounts" }).fill(name);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`/logs\\?type=error&q=${name}$`));
  await expect(page.getByRole("list", { name: "Log entries" }).getByRole("listitem")).toHaveCount(1);
  await expect(entry(page, message)).toBeVisible();

  // A range that ends before today hides it; the filters keep the words.
  await page.getByLabel("To (UTC)").fill("2020-01-01");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/q=.*&to=2020-01-01/);
  await expect(page.getByRole("heading", { name: "No entries match these filters" })).toBeVisible();
  await page.getByLabel("To (UTC)").fill(today);
  await page.getByLabel("From (UTC)").fill(today);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(entry(page, message)).toBeVisible();

  // Go to date: the page of entries up to the end of a day, as an "Older" link would open it.
  await page.goto("/logs");
  await page.getByLabel("Go to date (UTC)").fill("2020-01-01");
  await page.getByRole("button", { name: "Go", exact: true }).click();
  // Nothing is that old: the oldest entries from that day on, "← Newer" pages forward.
  await expect(page).toHaveURL(/after=2020-01-01T00%3A00%3A00\.000Z_0{8}-/);
  await expect(page.getByRole("list", { name: "Log entries" }).getByRole("listitem").first()).toBeVisible();
  await page.getByLabel("Go to date (UTC)").fill(today);
  await page.getByRole("button", { name: "Go", exact: true }).click();
  await expect(entry(page, message)).toBeVisible();
});

test("auto-refresh reloads the page every 5 s without JavaScript", async ({ page }, testInfo) => {
  await page.goto("/logs");
  await page.getByLabel("Auto-refresh (5 s)").check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/auto=1/);
  const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("nojs-auto"));
  await expect(entry(page, message)).toBeVisible({ timeout: 9_000 });
});

test("Older → pages through plain links; Clear on an older page comes back to it (issue 20)", async ({ page }, testInfo) => {
  const prefix = uniqueName("nojs-page");
  const mine = await seedSkippedEntries(
    testInfo.project.use.baseURL!,
    Array.from({ length: 55 }, (_, i) => `${prefix}-${String(i).padStart(2, "0")}`),
  );
  await page.goto("/logs?type=error&source=system");
  await expect(page.getByRole("list", { name: "Log entries" }).getByRole("listitem")).toHaveCount(50);
  await expect(entry(page, mine[3]!)).toHaveCount(0);
  await page.getByRole("navigation", { name: "Log pages" }).getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(/before=/);
  const olderUrl = page.url();
  await expect(entry(page, mine[3]!)).toBeVisible();

  await entry(page, mine[3]!).getByRole("button", { name: "Clear" }).click();
  await expect(page).toHaveURL(olderUrl);
  await expect(entry(page, mine[3]!)).toHaveCount(0);
  await expect(entry(page, mine[2]!)).toBeVisible();

  await page.getByRole("navigation", { name: "Log pages" }).getByRole("link", { name: "Newest" }).click();
  await expect(page).toHaveURL(/\/logs\?type=error&source=system$/);
  await expect(entry(page, mine[54]!)).toBeVisible();
});
