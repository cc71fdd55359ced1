import { expect, test } from "./fixtures";
import { adRow, resetTrading, seedPagedAds, seedSequences, sequenceNames, toast } from "./trading-fixtures";

/** Issue 20 "Bounded pages" without JavaScript: plain links to the pages, forms that come back to the same page. */
test.beforeEach(async ({ request }) => resetTrading(request));

test("an ad on the second page: Next →, Edit, Save comes back to page 2; Deactivate and delete there", async ({ page, request }) => {
  await seedPagedAds(request, 42);
  await page.goto("/trading-planets");
  await expect(page.getByRole("list", { name: "Ads" }).getByTestId("ad")).toHaveCount(40);
  await page.getByRole("navigation", { name: "Ads pages" }).getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/\/trading-planets\?adsPage=2$/);
  await expect(page.getByRole("list", { name: "Ads" }).getByTestId("ad")).toHaveCount(2);

  await page.getByRole("link", { name: "Edit Paged ad 41" }).click();
  await page.getByLabel("Edit message").fill("Paged ad 41 (no JS)");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Ad updated successfully")).toBeVisible();
  // Back on page 2, opened at the saved ad (decision 0047: the no-JS forms' fragments).
  await expect(page).toHaveURL(/\/trading-planets\?adsPage=2#gt-ad-[\w-]+$/);
  await expect(adRow(page, "Paged ad 41 (no JS)")).toBeVisible();

  await adRow(page, "Paged ad 42").getByRole("button", { name: "Deactivate" }).click();
  await expect(toast(page, "Ad updated successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/trading-planets\?adsPage=2$/);
  const ads = async () => ((await (await request.get("/api/ads")).json()) as { ads: { adsMessage: string; isActive: boolean }[] }).ads;
  expect((await ads()).find((a) => a.adsMessage === "Paged ad 42")?.isActive).toBe(false);

  await page.getByRole("button", { name: "Delete Paged ad 42" }).click();
  await expect(toast(page, "Ad deleted successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/trading-planets\?adsPage=2$/);
  expect(await ads()).toHaveLength(41);
  await page.getByRole("navigation", { name: "Ads pages" }).getByRole("link", { name: "← Previous" }).click();
  await expect(page).toHaveURL(/\/trading-planets$/);
  await expect(page.getByTestId("ad").filter({ has: page.getByText("Paged ad 1", { exact: true }) })).toHaveCount(1);
});

test("move up on the first sequence of page 2 swaps it with the last of page 1", async ({ page, request }) => {
  const names = Array.from({ length: 21 }, (_, i) => `Route ${String(i + 1).padStart(2, "0")}`);
  await seedSequences(request, names);
  await page.goto("/trading-planets?seqPage=2");
  await expect(page.getByTestId("sequence")).toHaveCount(1);
  await page.getByRole("button", { name: "Move Route 21 up" }).click();
  await expect.poll(() => sequenceNames(request)).toEqual([...names.slice(0, 19), "Route 21", "Route 20"]);
  await expect(page).toHaveURL(/\/trading-planets\?seqPage=2$/);
  await expect(page.getByTestId("sequence")).toContainText("Route 20");
});

test("multi-select on the second page: Select, check, Delete Selected, confirm; back on page 2", async ({ page, request }) => {
  await seedPagedAds(request, 43);
  await page.goto("/trading-planets?adsPage=2");
  await page.getByRole("link", { name: "Select", exact: true }).click();
  await expect(page).toHaveURL(/adsPage=2/);
  await page.getByRole("checkbox", { name: "Select Paged ad 41" }).check();
  await page.getByRole("checkbox", { name: "Select Paged ad 43" }).check();
  await page.getByRole("button", { name: "Delete Selected" }).click();
  await expect(page).toHaveURL(/adsPage=2/);
  const confirm = page.getByRole("alertdialog", { name: "Delete Selected Ads" });
  await expect(confirm).toContainText("Are you sure you want to delete 2 selected ads?");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Selected ads deleted successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/trading-planets\?adsPage=2$/);
  await expect(page.getByRole("list", { name: "Ads" }).getByTestId("ad")).toHaveCount(1);
  await expect(adRow(page, "Paged ad 42")).toBeVisible();
  expect(((await (await request.get("/api/ads")).json()) as { ads: unknown[] }).ads).toHaveLength(41);
});

test("issue 32 item 2: a sequence and an ad found by search without JavaScript; the other list's search is kept; Clear search", async ({ page, request }) => {
  const names = Array.from({ length: 45 }, (_, i) => `Route ${String(i + 1).padStart(2, "0")}`);
  await seedSequences(request, names);
  await seedPagedAds(request, 42);
  await page.goto("/trading-planets");
  await expect(page.getByTestId("sequence")).toHaveCount(20);

  const sequences = page.getByRole("search", { name: "Search sequences" });
  await sequences.getByRole("searchbox", { name: "Search sequences" }).fill("route 4");
  await sequences.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/trading-planets\?seqQ=route\+4$/);
  await expect(page.getByTestId("sequence")).toHaveCount(6);
  await expect(page.getByText("6 of 45 sequences match “route 4”")).toBeVisible();

  const ads = page.getByRole("search", { name: "Search ads and messages" });
  await ads.getByRole("searchbox", { name: "Search ads and messages" }).fill("Paged ad 41");
  await ads.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/seqQ=route\+4/);
  await expect(page).toHaveURL(/adQ=Paged\+ad\+41/);
  await expect(page.getByRole("list", { name: "Ads" }).getByTestId("ad")).toHaveCount(1);
  await expect(adRow(page, "Paged ad 41")).toBeVisible();
  await expect(page.getByTestId("sequence")).toHaveCount(6);
  await expect(page.getByText("1 ad matches “Paged ad 41”")).toBeVisible();
  await expect(page.getByText("No messages match “Paged ad 41”.")).toBeVisible();

  // Move up from the search result works on the whole list's places and comes back to the search.
  await page.getByRole("button", { name: "Move Route 41 up" }).click();
  await expect.poll(() => sequenceNames(request)).toEqual([...names.slice(0, 39), "Route 41", "Route 40", ...names.slice(41)]);
  await expect(page).toHaveURL(/seqQ=route\+4/);

  await sequences.getByRole("link", { name: "Clear search" }).click();
  await expect(page.getByTestId("sequence")).toHaveCount(20);
  await expect(page.getByRole("list", { name: "Ads" }).getByTestId("ad")).toHaveCount(1);
});
