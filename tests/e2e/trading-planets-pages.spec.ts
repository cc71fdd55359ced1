import { expect, test } from "./fixtures";
import { adRow, keyboardDrag, longPress, resetTrading, seedPagedAds, seedSequences, sequenceNames, toast, waitForHydration } from "./trading-fixtures";

/**
 * Issue 20 "Bounded pages" with JavaScript: the server renders 40 ads per section and 20
 * sequences; "Next →" reaches the rest; an ad on page 2 is edited and deleted there; a drag on
 * page 2 keeps page 1's order (docs/trading-planets.md "Pages").
 */
test.beforeEach(async ({ request }) => resetTrading(request));

test("an ad on the second page: reached by Next →, edited, multi-selected and deleted there", async ({ page, request }) => {
  await seedPagedAds(request, 43);
  await page.goto("/trading-planets");
  const ads = page.getByRole("list", { name: "Ads" });
  await expect(ads.getByTestId("ad")).toHaveCount(40);
  await expect(adRow(page, "Paged ad 42")).toHaveCount(0);
  const pager = page.getByRole("navigation", { name: "Ads pages" });
  await expect(pager).toContainText("Showing 1–40 of 43 · page 1 of 2");
  await pager.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/[?&]adsPage=2(&|$)/);
  await expect(ads.getByTestId("ad")).toHaveCount(3);

  await page.getByRole("link", { name: "Edit Paged ad 42" }).click();
  await page.getByLabel("Edit message").fill("Paged ad 42, edited ✨");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Ad updated successfully")).toBeVisible();
  // Back on page 2, the edit closed, the row shows the new text.
  await expect(page).toHaveURL(/\/trading-planets\?adsPage=2$/);
  await expect(adRow(page, "Paged ad 42, edited ✨")).toBeVisible();
  const stored = (await (await request.get("/api/ads")).json()) as { ads: { adsMessage: string }[] };
  expect(stored.ads.map((a) => a.adsMessage)).toContain("Paged ad 42, edited ✨");

  // Multi-select on this page: a long press, a second ad, Delete Selected; then multi-select ends (issue 19 A.3).
  const del41 = page.getByRole("button", { name: "Delete Paged ad 41" });
  await longPress(page, del41);
  await page.getByRole("button", { name: "Delete Paged ad 43" }).click();
  await expect(page.getByText("2 selected")).toBeVisible();
  await page.getByRole("button", { name: "Delete Selected" }).click();
  await page.getByRole("alertdialog", { name: "Delete Selected Ads" }).getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Selected ads deleted successfully")).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete Selected" })).toHaveCount(0);
  await expect(ads.getByTestId("ad")).toHaveCount(1);
  const left = (await (await request.get("/api/ads")).json()) as { ads: { adsMessage: string }[] };
  expect(left.ads).toHaveLength(41);
});

test("a new ad goes to the page that shows it; its input is emptied", async ({ page, request }) => {
  await seedPagedAds(request, 40);
  await page.goto("/trading-planets");
  await waitForHydration(page);
  await page.getByLabel("New message").fill("Forty-first ⭐");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(toast(page, "Ad created successfully")).toBeVisible();
  await expect(page).toHaveURL(/[?&]adsPage=2(&|$)/);
  await expect(adRow(page, "Forty-first ⭐")).toBeVisible();
  await expect(page.getByLabel("New message")).toHaveValue("");
});

test("drag on the second page of sequences reorders that page; page 1 keeps its order", async ({ page, request }) => {
  const names = Array.from({ length: 22 }, (_, i) => `Route ${String(i + 1).padStart(2, "0")}`);
  await seedSequences(request, names);
  await page.goto("/trading-planets");
  await expect(page.getByTestId("sequence")).toHaveCount(20);
  await page.getByRole("navigation", { name: "Sequence pages" }).getByRole("link", { name: "Next →" }).click();
  await expect(page.getByTestId("sequence")).toHaveCount(2);
  await keyboardDrag(page, page.getByRole("button", { name: "Drag Route 22" }), "ArrowUp", "Route 21");
  await expect.poll(() => sequenceNames(request)).toEqual([...names.slice(0, 20), "Route 22", "Route 21"]);
});
