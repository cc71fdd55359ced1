import { expect, test } from "./fixtures";
import { characterRow, group } from "./characters-fixtures";
import { PAGE_SIZE, PAGING_GROUP, withPagingFleet } from "./characters-paging-fixtures";

/**
 * Issue 20 "Bounded pages" with JavaScript: All Characters shows one page of rows; "Next →"
 * reaches a character on the second page, the search finds it from the first, and the gift
 * filter's links keep the search (spec 2 §2 "All Characters screen"; issue 19 item 14).
 */
withPagingFleet();

test("a character on the second page: reached with Next →, found by search from page 1", async ({ page }) => {
  // A long journey (two pages, a search; without JavaScript a confirmation too): more than the default 45 s on a loaded machine.
  test.setTimeout(90_000);
  await page.goto("/characters");
  const pages = page.getByRole("navigation", { name: "Character pages" });
  await expect(page.getByTestId("character-row")).toHaveCount(PAGE_SIZE);
  await expect(pages.getByTestId("character-range")).toHaveText(new RegExp(`^Characters 1–${PAGE_SIZE} of \\d+ · page 1 of \\d+$`));
  await expect(pages.getByRole("link", { name: "← Previous" })).toHaveCount(0);

  await pages.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/\/characters\?page=2$/);
  await expect(pages.getByTestId("character-range")).toHaveText(new RegExp(`^Characters ${PAGE_SIZE + 1}–\\d+ of \\d+ · page 2 of \\d+$`));
  // The fleet's group is the last one: the last row of page 2 is one of its characters.
  const onPage2 = group(page, PAGING_GROUP).getByTestId("character-row").last();
  await expect(onPage2).toBeVisible();
  const accountId = (await onPage2.getAttribute("data-account"))!;
  const nick = (await onPage2.locator(".gt-character-nick").textContent())!;
  expect(accountId).toMatch(/^\d+$/);

  await pages.getByRole("link", { name: "← Previous" }).click();
  await expect(page).toHaveURL(/\/characters$/);
  await expect(page.getByTestId("character-row")).toHaveCount(PAGE_SIZE);
  await expect(characterRow(page, accountId)).toHaveCount(0);

  // The search runs in the database: the character from page 2 is found from page 1.
  const search = page.getByRole("searchbox", { name: "Search by nick or account id" });
  await search.fill(accountId);
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`q=${accountId}`));
  await expect(characterRow(page, accountId)).toBeVisible();
  await expect(characterRow(page, accountId).getByText(nick, { exact: true })).toBeVisible();
  await expect(page.getByTestId("search-summary")).toContainText(/^1 of \d+ characters matches/);
  await expect(pages).toHaveCount(0);
});
