import fs from "node:fs";
import { expect, test } from "./fixtures";
import { ALL_PAIRS, getRates, group, groupHeadings, resetRates, row, toast } from "./exchange-rates-fixtures";

/**
 * Spec 1 §2 Exchange Rates with JavaScript disabled: every action is a plain form post
 * answered by a redirect and a flash toast; dialogs render inline from the URL.
 */

test.beforeEach(async ({ page }) => {
  await resetRates(page.request);
  await page.goto("/exchange-rates");
  await expect(page.getByRole("heading", { level: 1, name: "Exchange Rates" })).toBeVisible();
});

test("filters: Apply submits the searches and the item; a clear button drops one", async ({ page }) => {
  await page.getByPlaceholder("incoming gifts...").fill("gr");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/in=gr/);
  await expect(groupHeadings(page)).toHaveText(["Gold Ring"]);

  await page.getByPlaceholder("outgoing gifts...").fill("clay");
  await page.getByPlaceholder("outgoing gifts...").press("Enter");
  await expect(page).toHaveURL(/out=clay/);
  await expect(row(page, "Gold Ring", "Clay")).toBeVisible();
  await expect(row(page, "Gold Ring", "Silver Ring")).toHaveCount(0);

  await page.getByRole("button", { name: "Clear incoming gifts search" }).click();
  await expect(page).toHaveURL(/\/exchange-rates\?out=clay$/);
  await expect(page.getByPlaceholder("incoming gifts...")).toHaveValue("");

  await page.getByRole("combobox", { name: "Item" }).selectOption("Fire Cannon Ball");
  await page.getByPlaceholder("outgoing gifts...").fill("");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(groupHeadings(page)).toHaveText(["Fire Cannon Ball"]);
});

test("add new entries: the inline dialog, another output row, then a redirect with the toast", async ({ page }) => {
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page).toHaveURL(/dialog=add/);
  const dialog = page.getByRole("dialog", { name: "Add Exchange Rate" });
  await dialog.getByRole("combobox", { name: "Input gift" }).selectOption("Bronze Ring");
  await dialog.getByRole("combobox", { name: "Output gift 1" }).selectOption("Clay");
  await dialog.getByRole("textbox", { name: "Rate 1" }).fill("1/2");
  // A second row without JavaScript: the server answers the form with one more row.
  await dialog.getByRole("button", { name: "Add Output Gift" }).click();
  await expect(dialog.getByRole("combobox", { name: "Output gift 2" })).toBeVisible();
  await expect(dialog.getByRole("combobox", { name: "Output gift 1" })).toHaveValue("Clay");
  await dialog.getByRole("combobox", { name: "Output gift 2" }).selectOption("Gold Ring");
  await dialog.getByRole("textbox", { name: "Rate 2" }).fill("2.5");
  await dialog.getByRole("button", { name: "Add", exact: true }).click();

  await expect(toast(page, "New exchange rates added successfully")).toBeVisible();
  await expect(page).not.toHaveURL(/dialog=/);
  await expect(row(page, "Bronze Ring", "Clay")).toBeVisible();
  await expect(row(page, "Bronze Ring", "Gold Ring")).toBeVisible();
  expect((await getRates(page.request))["Bronze Ring"]).toMatchObject({ Clay: { rate: "1/2" }, "Gold Ring": { rate: "2.5" } });
});

test("add new entries: an invalid rate comes back with the message and the fields", async ({ page }) => {
  await page.getByRole("button", { name: "Add", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Add Exchange Rate" });
  await dialog.getByRole("combobox", { name: "Input gift" }).selectOption("Bronze Ring");
  await dialog.getByRole("combobox", { name: "Output gift 1" }).selectOption("Clay");
  await dialog.getByRole("textbox", { name: "Rate 1" }).fill("half");
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(dialog.getByText('Rate 1: Invalid format. Use "1/2" or "1.5"')).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: "Rate 1" })).toHaveValue("half");
  expect((await getRates(page.request))["Bronze Ring"]).toBeUndefined();
});

test("add an output to an existing input", async ({ page }) => {
  await group(page, "Gold Ring").getByRole("button", { name: "Add output gift to Gold Ring" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Exchange Rate for Gold Ring" });
  await expect(dialog.getByRole("radio", { name: /Clay/ })).toBeDisabled();
  await dialog
    .getByRole("radio", { name: /Skeleton Key/ })
    .first()
    .check();
  await dialog.getByRole("spinbutton", { name: "Numerator" }).fill("2");
  await dialog.getByRole("spinbutton", { name: "Denominator" }).fill("7");
  await dialog.getByRole("button", { name: "Add Exchange Rate" }).click();
  await expect(toast(page, "Exchange rate added successfully")).toBeVisible();
  await expect(row(page, "Gold Ring", "Diamond Skeleton Key")).toBeVisible();
  expect((await getRates(page.request))["Gold Ring"]["Diamond Skeleton Key"].rate).toBe("2/7");
});

test("edit: expand, add a tier, save; invalid input is shown and not saved", async ({ page }) => {
  const clay = () => row(page, "Gold Ring", "Clay");
  await clay().getByRole("button", { name: "Show tiers of Clay" }).click();
  await expect(page).toHaveURL(/open=/);
  await clay().getByRole("textbox", { name: "T1 rate" }).fill("bad");
  await clay().getByRole("button", { name: "Save", exact: true }).click();
  await expect(clay().getByText('Rate 1: Invalid format. Use "1/2" or "1.5"')).toBeVisible();
  expect((await getRates(page.request))["Gold Ring"].Clay.rate).toBe("1/2");

  await clay().getByRole("textbox", { name: "T1 rate" }).fill("2/5");
  await clay().getByRole("button", { name: "Add tier" }).click();
  await expect(clay().getByRole("spinbutton", { name: /^T2 quantity/ })).toBeVisible();
  await expect(clay().getByRole("textbox", { name: "T1 rate" })).toHaveValue("2/5");
  await clay()
    .getByRole("spinbutton", { name: /^T2 quantity/ })
    .fill("12");
  await clay().getByRole("textbox", { name: "T2 rate" }).fill("1");
  await clay().getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(page, "Exchange rate saved successfully")).toBeVisible();
  await expect(clay().getByText("2 tiers")).toBeVisible();
  expect((await getRates(page.request))["Gold Ring"].Clay.rates).toEqual([
    { quantity: 0, rate: "2/5" },
    { quantity: 12, rate: "1" },
  ]);
});

test("issue 8 §2.3: after a server-side validation error, Save stays usable for the corrected values", async ({ page }) => {
  const clay = () => row(page, "Gold Ring", "Clay");
  await clay().getByRole("button", { name: "Show tiers of Clay" }).click();
  await clay().getByRole("textbox", { name: "T1 rate" }).fill("bad");
  await clay().getByRole("button", { name: "Save", exact: true }).click();
  await expect(clay().getByText('Rate 1: Invalid format. Use "1/2" or "1.5"')).toBeVisible();
  await clay().getByRole("textbox", { name: "T1 rate" }).fill("3/4");
  await expect(clay().getByRole("button", { name: "Save", exact: true })).toBeEnabled();
  await clay().getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(page, "Exchange rate saved successfully")).toBeVisible();
  expect((await getRates(page.request))["Gold Ring"].Clay.rate).toBe("3/4");
});

test("toggle and delete a row", async ({ page }) => {
  await row(page, "Gold Ring", "Clay").getByRole("button", { name: "Disable Gold Ring → Clay" }).click();
  await expect(toast(page, "Exchange rate disabled successfully")).toBeVisible();
  await expect(row(page, "Gold Ring", "Clay")).toHaveAttribute("data-status", "disabled");
  expect((await getRates(page.request))["Gold Ring"].Clay.status).toBe(false);

  await row(page, "Fire Cannon Ball", "Green Light").getByRole("button", { name: "Delete Fire Cannon Ball → Green Light" }).click();
  await expect(toast(page, "Exchange rate deleted successfully")).toBeVisible();
  await expect(group(page, "Fire Cannon Ball")).toHaveCount(0);
});

test("CONVENTIONS rule 7 without JavaScript: a delete redirects with the flash and an Undo form that restores the row", async ({ page }) => {
  const before = await getRates(page.request);
  await row(page, "Gold Ring", "Silver Ring").getByRole("button", { name: "Delete Gold Ring → Silver Ring" }).click();
  await expect(toast(page, "Exchange rate deleted successfully")).toBeVisible();
  await expect(row(page, "Gold Ring", "Silver Ring")).toHaveCount(0);
  const offer = page.locator(".gt-undo-bar");
  await expect(offer).toContainText("Deleted Gold Ring → Silver Ring.");
  await offer.getByRole("button", { name: "Undo" }).click();
  await expect(toast(page, "Exchange rate restored")).toBeVisible();
  await expect(row(page, "Gold Ring", "Silver Ring")).toBeVisible();
  await expect(page.locator(".gt-undo-bar")).toHaveCount(0);
  expect(await getRates(page.request)).toEqual(before);
});

test("the optimistic-updates preference does nothing without JavaScript, so it is not shown", async ({ page }) => {
  await expect(page.getByRole("switch", { name: "Optimistic updates" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "View settings" })).toHaveCount(0);
});

test("delete all for an input asks first, inline", async ({ page }) => {
  await group(page, "Gold Ring").getByRole("button", { name: "Delete all exchange rates for Gold Ring" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Exchange Rates" });
  await expect(confirm).toContainText('Are you sure you want to delete all exchange rates for "Gold Ring"? This action cannot be undone.');
  await confirm.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);

  await group(page, "Gold Ring").getByRole("button", { name: "Delete all exchange rates for Gold Ring" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Exchange rates deleted successfully")).toBeVisible();
  await expect(group(page, "Gold Ring")).toHaveCount(0);
  await expect(page).not.toHaveURL(/dialog=/);
});

test("import: bad data is refused with the message; good data is imported", async ({ page }) => {
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Import Exchange Rates" });
  await dialog.getByPlaceholder("Paste JSON data here...").fill("[1, 2, 3]");
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByText("Failed to import exchange rates: Invalid data format").first()).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Import Exchange Rates" }).getByPlaceholder("Paste JSON data here...")).toHaveValue("[1, 2, 3]");

  await page.getByPlaceholder("Paste JSON data here...").fill(JSON.stringify({ "Red Bowling Ball": { "Green Bowling Ball": { rate: 4 } } }));
  await page.getByRole("dialog").getByRole("button", { name: "Import", exact: true }).click();
  await expect(toast(page, "Exchange rates imported successfully")).toBeVisible();
  await expect(row(page, "Red Bowling Ball", "Green Bowling Ball")).toBeVisible();
});

test("issue 30 A2: a refused import says why in the dialog — the §8 headline, then each failed entry and its reason", async ({ page }) => {
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Import Exchange Rates" });
  const text = JSON.stringify({ Clay: { "Gold Ring": { rate: "-1" } }, Nope: { Clay: { rate: 1 } } });
  await dialog.getByPlaceholder("Paste JSON data here...").fill(text);
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  const again = page.getByRole("dialog", { name: "Import Exchange Rates" });
  await expect(again.getByPlaceholder("Paste JSON data here...")).toHaveValue(text);
  const why = again.getByRole("alert").filter({ hasText: "entries failed" });
  await expect(why).toContainText("Failed to import exchange rates: Invalid data format");
  await expect(why).toContainText("2 entries failed:");
  await expect(why.getByRole("listitem")).toHaveText([
    '"Clay" → "Gold Ring": Rate 1: Invalid format. Use "1/2" or "1.5"',
    '"Nope" → "Clay": Unknown gift: Nope',
  ]);

  await again.getByPlaceholder("Paste JSON data here...").fill("{oops");
  await again.getByRole("button", { name: "Import", exact: true }).click();
  const notJson = page.getByRole("dialog", { name: "Import Exchange Rates" }).getByRole("alert").filter({ hasText: "entry failed" });
  await expect(notJson.getByRole("listitem")).toHaveText([/^The text is not valid JSON \(.+\)$/]);
});

test("export downloads the same pretty JSON", async ({ page }) => {
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^exchange-rates-\d{4}-\d\d-\d\d\.json$/);
  const text = fs.readFileSync((await file.path())!, "utf8");
  expect(text).toBe(`${JSON.stringify(await getRates(page.request), null, 2)}\n`);
});

test("a failed load shows the error panel; Retry reloads the page", async ({ page }) => {
  let fail = true;
  await page.route(/\/exchange-rates(\?|$)/, async (route) => {
    const headers = fail ? { ...route.request().headers(), "x-e2e-fault": "rates-load" } : route.request().headers();
    await route.fallback({ headers });
  });
  await page.goto("/exchange-rates");
  await expect(page.getByRole("heading", { name: "Failed to load exchange rates" })).toBeVisible();
  await expect(page.getByText(/injected by the E2E fault switch/)).toBeVisible();
  fail = false;
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(group(page, "Gold Ring")).toBeVisible();
});

test("issue 20: the pager's links reach a pair beyond the first page, which opens and saves", async ({ page }) => {
  await resetRates(page.request, ALL_PAIRS);
  await page.goto("/exchange-rates");
  await expect(page.locator("li.gt-rate-row")).toHaveCount(40);
  const pager = page.getByRole("navigation", { name: "Exchange rate pages" });
  await pager.getByRole("link", { name: "Last" }).click();
  await expect(page).toHaveURL(/[?&]page=6$/);
  await expect(pager).toContainText("Page 6 of 6 · pairs 201–210 of 210");
  const capy = row(page, "Clay", "Collection Capybara");
  await capy.getByRole("button", { name: "Show tiers of Collection Capybara" }).click();
  await expect(page).toHaveURL(/page=6&open=/);
  await capy.getByRole("textbox", { name: "T1 rate" }).fill("7/8");
  await capy.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(page, "Exchange rate saved successfully")).toBeVisible();
  await expect(page).toHaveURL(/[?&]page=6/);
  await expect(capy.locator(".gt-rate-value")).toHaveText("7/8");
  expect((await getRates(page.request)).Clay["Collection Capybara"].rate).toBe("7/8");

  // The search reaches it from the first page too.
  await page.goto("/exchange-rates");
  await page.getByPlaceholder("outgoing gifts...").fill("capy");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.locator("li.gt-rate-row")).toHaveCount(14);
  await row(page, "Clay", "Collection Capybara").getByRole("button", { name: "Delete Clay → Collection Capybara" }).click();
  await expect(toast(page, "Exchange rate deleted successfully")).toBeVisible();
  await expect(page).toHaveURL(/out=capy/);
  await expect(page.locator("li.gt-rate-row")).toHaveCount(13);
});
