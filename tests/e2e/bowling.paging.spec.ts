import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { bowlingRow, createAccounts, deleteBowlers } from "./bowling-fixtures";
import { simAccounts } from "./characters-fixtures";

/**
 * Issue 20 "Bounded pages" on Bowling Bots (docs/bowling.md "Pages"): /gifts renders 50
 * accounts a page; "Next →" / "← Previous" are plain links (`?page=`), so an account on the
 * second page is reached with and without JavaScript, and the search (`?q=`) finds it from
 * the first page. The spec's accounts are deleted afterwards (the run's database is shared).
 */

const PAGE_SIZE = 50;
// Each test loads pages of 50 rows several times and creates 52 accounts first: triple the timeout.
test.slow();
let mine: Array<{ id: string; nick: string }> = [];

test.beforeAll(async ({ baseURL }) => {
  // Bowling accounts 6.. of the simulator (bowling.spec.ts uses 0–2, bowling.nojs.spec.ts 3–5): more than a page.
  const bowlers = (await simAccounts("bowling")).slice(6, 6 + PAGE_SIZE + 2);
  await createAccounts(
    baseURL!,
    bowlers.map((account) => ({ account, type: "bowling" })),
  );
  mine = bowlers.map((b) => ({ id: b.id, nick: b.nick }));
});
test.afterAll(async ({ baseURL }) => {
  await deleteBowlers(
    baseURL!,
    mine.map((b) => b.id),
  );
});

/** One of this spec's accounts that the first page does not show. */
async function notOnFirstPage(page: Page) {
  await page.goto("/gifts");
  const rows = page.getByTestId("bowling-row");
  await expect(rows).toHaveCount(PAGE_SIZE);
  const shown = new Set(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-account"))));
  const target = mine.find((b) => !shown.has(b.id));
  expect(target, "an account beyond the first page").toBeTruthy();
  return target!;
}

async function reachSecondPage(page: Page) {
  const target = await notOnFirstPage(page);
  const pager = page.getByRole("navigation", { name: "Bowling user pages" });
  await expect(pager).toContainText(/Page 1 of \d+ · accounts 1–50 of \d+/);
  await pager.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/\/gifts\?page=2$/);
  await expect(bowlingRow(page, target.id)).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Bowling user pages" })).toContainText(/Page 2 of/);
  // Its links keep the page: the Capybara / companion dialog opens over page 2.
  await bowlingRow(page, target.id)
    .getByRole("link", { name: /^Assign Companion|^Update Companion/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`page=2.*dialog=companion&account=${target.id}`));
  await expect(page.getByRole("dialog", { name: /Companion$/ })).toBeVisible();
  return target;
}

test("with JavaScript: 50 rows, 'Next →' reaches an account on page 2; the search finds it from page 1", async ({ page }) => {
  const target = await reachSecondPage(page);
  await page.goto("/gifts");
  await page.getByRole("searchbox", { name: "Search by nick or account id" }).fill(target.id);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${target.id}`));
  await expect(bowlingRow(page, target.id)).toBeVisible();
  await expect(page.getByTestId("bowling-row")).toHaveCount(1);
  await expect(page.getByRole("navigation", { name: "Bowling user pages" })).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("'Next →' is a plain link to page 2; the search form finds an account of page 2", async ({ page }) => {
    const target = await reachSecondPage(page);
    await page.goto("/gifts");
    await page.getByRole("searchbox", { name: "Search by nick or account id" }).fill(target.nick);
    await page.getByRole("searchbox", { name: "Search by nick or account id" }).press("Enter");
    await expect(page).toHaveURL(/[?&]q=/);
    await expect(bowlingRow(page, target.id)).toBeVisible();
  });
});
