import { expect, test } from "./fixtures";
import { adRow, dismissToasts, resetTrading, seedSequences, sequenceCard, sequenceNames, toast } from "./trading-fixtures";

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
  // Issue 30 B5: the Move says what it did.
  await expect(toast(page, "Moved “C” up: now 2 of 3")).toBeVisible();
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
  // Issue 30 A6: the reason under the field.
  await expect(dialog.getByLabel("Planet name")).toHaveAccessibleDescription("Please enter a planet name");
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
  // Issue 30 A9: multi-select ends with the deletion (no checkboxes, no Delete Selected).
  await expect(page).not.toHaveURL(/select=/);
  await expect(page.getByRole("button", { name: "Delete Selected" })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: /^Select / })).toHaveCount(0);
});

// Issue 19 item 15: every Trading Planets flow end to end without JavaScript.

test("edit a sequence: a taken name and a closed level below the open level come back in the form as typed; Update; Deactivate/Activate", async ({
  page,
  request,
}) => {
  await seedSequences(request, ["Alpha", "Beta"]);
  await page.goto("/trading-planets");
  await page.getByRole("link", { name: "Edit Alpha" }).click();
  await expect(page.getByRole("heading", { name: "Edit Sequence" })).toBeVisible();
  await page.getByLabel("Name").fill("beta");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("A sequence with this name already exists")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("beta");
  await page.getByLabel("Name").fill("Alpha 2");
  await page.getByLabel("Closed level").fill("10");
  await page.getByLabel("Open level").fill("20");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("The closed level must be at least the open level")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Alpha 2");
  await expect(page.getByLabel("Closed level")).toHaveValue("10");
  expect(await sequenceNames(request)).toEqual(["Alpha", "Beta"]);
  await page.getByLabel("Closed level").fill("20");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(toast(page, "Sequence updated successfully")).toBeVisible();
  await expect(sequenceCard(page, "Alpha 2").getByText("≤ 20")).toBeVisible();
  expect(await sequenceNames(request)).toEqual(["Alpha 2", "Beta"]);

  await sequenceCard(page, "Beta").getByRole("button", { name: "Deactivate" }).click();
  await expect(toast(page, "Sequence updated successfully")).toBeVisible();
  const active = async () =>
    ((await (await request.get("/api/planet-sequences")).json()) as { sequences: { name: string; isActive: boolean }[] }).sequences.map((s) => [
      s.name,
      s.isActive,
    ]);
  expect(await active()).toEqual([
    ["Alpha 2", true],
    ["Beta", false],
  ]);
  await sequenceCard(page, "Beta").getByRole("button", { name: "Activate" }).click();
  await expect(toast(page, "Sequence updated successfully")).toBeVisible();
  expect(await active()).toEqual([
    ["Alpha 2", true],
    ["Beta", true],
  ]);
});

test("custom planets: the platform's name rule and duplicates refused, rename by its button, delete with “Delete Planet”, English tab", async ({
  page,
  request,
}) => {
  await page.goto("/trading-planets?planets=blacklisted");
  const dialog = page.getByRole("dialog", { name: "Custom Planets" });
  await dialog.getByLabel("Planet name").fill("Trade Zone 🌍");
  await dialog.getByRole("button", { name: "Add" }).click();
  // Issue 30 A6: the refused name stays in the field, the reason under it.
  await expect(dialog.getByLabel("Planet name")).toHaveValue("Trade Zone 🌍");
  await expect(dialog.getByLabel("Planet name")).toHaveAccessibleDescription("A planet name is one word (no spaces or colons), at most 64 characters");
  await dialog.getByLabel("Planet name").fill("SpamDen");
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(toast(page, "Custom planet created successfully")).toBeVisible();
  await dialog.getByLabel("Planet name").fill("JunkYard");
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(toast(page, "Custom planet created successfully")).toBeVisible();

  // Rename to a taken name: refused, and the chips show the stored names (no two identical chips).
  await dialog.getByLabel("Rename JunkYard").fill("spamden");
  await dialog.getByLabel("Rename JunkYard").locator("xpath=..").getByRole("button", { name: "Rename" }).click();
  // Issue 30 A6/A9: the refused name and why, under its chip; the chip keeps the stored name.
  await expect(dialog.getByLabel("Rename JunkYard")).toHaveAccessibleDescription("“spamden”: A custom planet with this name and type already exists");
  const chips = dialog.getByRole("list", { name: "Blacklisted planets" });
  await expect(chips.getByLabel(/^Rename /)).toHaveCount(2);
  await expect(dialog.getByLabel("Rename JunkYard")).toHaveValue("JunkYard");
  await dialog.getByLabel("Rename JunkYard").fill("Junk:Yard");
  await dialog.getByLabel("Rename JunkYard").locator("xpath=..").getByRole("button", { name: "Rename" }).click();
  await expect(dialog.getByLabel("Rename JunkYard")).toHaveAccessibleDescription(
    "“Junk:Yard”: A planet name is one word (no spaces or colons), at most 64 characters",
  );
  await dialog.getByLabel("Rename JunkYard").fill("ScrapYard");
  await dialog.getByLabel("Rename JunkYard").locator("xpath=..").getByRole("button", { name: "Rename" }).click();
  await expect(toast(page, "Custom planet updated successfully")).toBeVisible();
  await expect(dialog.getByLabel("Rename ScrapYard")).toHaveValue("ScrapYard");

  await dialog.getByRole("link", { name: "Delete ScrapYard" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Are you sure you want to delete “ScrapYard”?");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Custom planet deleted successfully")).toBeVisible();
  await dialog.getByRole("link", { name: "English" }).click();
  await expect(page.getByRole("list", { name: "English planets" })).toContainText("No english planets yet.");
  const planets = (await (await request.get("/api/custom-planets")).json()) as { planets: { name: string }[] };
  expect(planets.planets.map((p) => p.name)).toEqual(["SpamDen"]);
});

test("ads: edit with Save (blank refused), Deactivate/Activate, a single delete", async ({ page, request }) => {
  expect((await request.post("/api/ads", { data: { adsMessage: "first ad", category: "ads" } })).status()).toBe(201);
  expect((await request.post("/api/ads", { data: { adsMessage: "second ad", category: "msg" } })).status()).toBe(201);
  await page.goto("/trading-planets");
  await page.getByRole("link", { name: "Edit first ad" }).click();
  await page.getByLabel("Edit message").fill("  ");
  await page.getByRole("button", { name: "Save" }).click();
  // Issue 30 A6: the editor stays open as typed, the reason next to the text.
  await expect(page.getByLabel("Edit message")).toHaveValue("  ");
  await expect(page.getByLabel("Edit message")).toHaveAccessibleDescription("Please enter an ad message");
  await page.getByLabel("Edit message").fill("first ad 🚀 edited");
  await page
    .getByRole("listitem")
    .filter({ has: page.getByLabel("Edit message") })
    .getByLabel("Category")
    .selectOption("msg");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Ad updated successfully")).toBeVisible();
  await expect(page.getByRole("list", { name: "Messages" })).toContainText("first ad 🚀 edited");

  // The flash toast sits over the bottom right of the page (a row there is under it): closed first.
  await dismissToasts(page);
  await adRow(page, "second ad").getByRole("button", { name: "Deactivate" }).click();
  await expect(toast(page, "Ad updated successfully")).toBeVisible();
  await dismissToasts(page);
  await adRow(page, "second ad").getByRole("button", { name: "Activate" }).click();
  await expect(toast(page, "Ad updated successfully")).toBeVisible();
  await dismissToasts(page);
  await adRow(page, "second ad").getByRole("button", { name: "Delete second ad" }).click();
  await expect(toast(page, "Ad deleted successfully")).toBeVisible();
  const ads = (await (await request.get("/api/ads")).json()) as { ads: { adsMessage: string; category: string; isActive: boolean }[] };
  expect(ads.ads).toMatchObject([{ adsMessage: "first ad 🚀 edited", category: "msg", isActive: true }]);
});
