import { expect, test } from "@playwright/test";
import { adRow, resetTrading, seedSequences, sequenceNames, toast } from "./trading-fixtures";

/** Spec 2 "Trading Planets screen" with JavaScript off: URL dialogs, posted forms, redirects with toasts. */

test.beforeEach(async ({ request }) => resetTrading(request));

test("create a sequence: server messages, add a planet by round trip, then the toast", async ({ page, request }) => {
  await page.goto("/trading-planets");
  await page.getByRole("link", { name: "New Sequence" }).click();
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Please enter a sequence name")).toBeVisible();
  await expect(page.getByText("Please add at least one planet")).toBeVisible();
  await page.getByLabel("Name").fill("No JS");
  await page.getByRole("button", { name: "Add planet" }).click();
  await page.getByLabel("Planet type 1").selectOption("bowling");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, "Sequence created successfully")).toBeVisible();
  const body = (await (await request.get("/api/planet-sequences")).json()) as {
    sequences: { name: string; seconds: number; sequence: { planetType: string }[] }[];
  };
  expect(body.sequences).toMatchObject([{ name: "No JS", seconds: 6, sequence: [{ planetType: "bowling" }] }]);
});

test("move up/down buttons store the order; delete asks first", async ({ page, request }) => {
  await seedSequences(request, ["A", "B", "C"]);
  await page.goto("/trading-planets");
  await page.getByRole("button", { name: "Move C up" }).click();
  await expect.poll(() => sequenceNames(request)).toEqual(["A", "C", "B"]);
  await page.getByRole("button", { name: "Move A down" }).click();
  await expect.poll(() => sequenceNames(request)).toEqual(["C", "A", "B"]);
  await page.getByRole("link", { name: "Delete A" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Sequence deleted successfully")).toBeVisible();
  expect(await sequenceNames(request)).toEqual(["C", "B"]);
});

test("custom planet: add to English, blank name refused", async ({ page }) => {
  await page.goto("/trading-planets?planets=english");
  const dialog = page.getByRole("dialog", { name: "Custom Planets" });
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(toast(page, "Please enter a planet name")).toBeVisible();
  await dialog.getByLabel("Planet name").fill("TradeHall");
  await dialog.getByLabel("Planet type").selectOption("english");
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(toast(page, "Custom planet created successfully")).toBeVisible();
  await expect(dialog.getByLabel("Rename TradeHall")).toBeVisible();
});

test("ads: add, then checkboxes + Delete Selected + confirmation", async ({ page, request }) => {
  await page.goto("/trading-planets");
  await page.getByLabel("New message").fill("Hello ✨ world");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(toast(page, "Ad created successfully")).toBeVisible();
  await expect(adRow(page, "Hello ✨ world")).toBeVisible();
  expect((await request.post("/api/ads", { data: { adsMessage: "bye", category: "msg" } })).status()).toBe(201);
  await page.getByRole("link", { name: "Select", exact: true }).click();
  await page.getByRole("checkbox", { name: "Select Hello ✨ world" }).check();
  await page.getByRole("checkbox", { name: "Select bye" }).check();
  await page.getByRole("button", { name: "Delete Selected" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Selected Ads" });
  await expect(confirm).toContainText("cannot be undone");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Selected ads deleted successfully")).toBeVisible();
  expect(((await (await request.get("/api/ads")).json()) as { ads: unknown[] }).ads).toEqual([]);
});
