import { expect, test } from "./fixtures";
import { characterRow, group } from "./characters-fixtures";
import { PAGE_SIZE, PAGING_GROUP, withPagingFleet } from "./characters-paging-fixtures";

/**
 * Issue 20 "Bounded pages" without JavaScript: the page links are plain links; a character on
 * the second page is reached, and its delete link asks on the same page (the page kept).
 */
withPagingFleet();

test("a character on the second page: reached with Next →, its delete question keeps the page; search finds it", async ({ page }) => {
  // A long journey (two pages, a search; without JavaScript a confirmation too): more than the default 45 s on a loaded machine.
  test.setTimeout(90_000);
  await page.goto("/characters");
  // A details refresh an earlier journey in this world started (a stalker's start selects its
  // user, which refreshes every user) makes the page reload itself every 2 s without JavaScript
  // (issue 30 B5) until it ends: the clicks below are made once it has, so none races a reload
  // (a guard; the second-page Delete link's 90 s wait seen in CI runs is not diagnosed, and a
  // refresh held running through these steps did not reproduce it on a quiet machine).
  await expect(page.getByTestId("refresh-progress")).toHaveCount(0, { timeout: 60_000 });
  const pages = page.getByRole("navigation", { name: "Character pages" });
  await expect(page.getByTestId("character-row")).toHaveCount(PAGE_SIZE);
  await pages.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/\/characters\?page=2$/);
  const onPage2 = group(page, PAGING_GROUP).getByTestId("character-row").last();
  await expect(onPage2).toBeVisible();
  const accountId = (await onPage2.getAttribute("data-account"))!;
  const nick = (await onPage2.locator(".gt-character-nick").textContent())!;

  await characterRow(page, accountId)
    .getByRole("link", { name: `Delete ${nick}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`page=2&confirm=${accountId}`));
  await expect(page.getByRole("alertdialog")).toContainText(`Delete ${nick} (${accountId})?`);
  await page.getByRole("alertdialog").getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/characters\?page=2$/);

  await pages.getByRole("link", { name: "← Previous" }).click();
  await expect(page).toHaveURL(/\/characters$/);
  await expect(characterRow(page, accountId)).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Search by nick or account id" }).fill(accountId);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(characterRow(page, accountId)).toBeVisible();
  await expect(page.getByTestId("search-summary")).toContainText(/^1 of \d+ characters matches/);
});
