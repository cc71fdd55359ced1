import { expect, test } from "./fixtures";
import { createAccounts } from "./bowling-fixtures";
import { characterRow, group, simAccounts, toast } from "./characters-fixtures";

/** Spec 2 "All Characters screen" without JavaScript: URL dialogs, plain posts, redirects, flash toasts. */

test("create a user, add and delete a category, start/stop a stalker, filter, delete a user", async ({ page }) => {
  const stalkers = await simAccounts("stalker");
  const acc = stalkers[1]!;
  await page.goto("/characters");
  await page.getByRole("link", { name: "Add User" }).click();
  await expect(page).toHaveURL(/dialog=user/);
  const dialog = page.getByRole("dialog", { name: "Add User" });
  // A refused code comes back to the open form with the server's message next to the field
  // (issue 30 A6; tests/e2e/forms-keep-input.nojs.spec.ts).
  await dialog.getByLabel("Recovery code").fill("ZZZZZZZZZZ");
  await dialog.getByRole("button", { name: "Create User" }).click();
  await expect(dialog.getByText("Login failed: Invalid credentials", { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/dialog=user/);
  await dialog.getByLabel("Recovery code").fill(acc.recoveryCode);
  await dialog.getByLabel("Category").selectOption("stalker");
  await dialog.getByRole("button", { name: "Create User" }).click();
  await expect(toast(page, "User created successfully")).toBeVisible();
  await expect(page).not.toHaveURL(/dialog=/);
  const row = characterRow(page, acc.id);
  await expect(group(page, "stalker").getByText(acc.nick, { exact: true })).toBeVisible();

  await page.getByRole("link", { name: "Add Category" }).click();
  const cat = page.getByRole("dialog", { name: "Add Category" });
  await cat.getByLabel("Category name").fill("whales-nojs");
  await cat.getByRole("button", { name: "Add", exact: true }).click();
  await expect(toast(page, "Category created successfully")).toBeVisible();
  await page.getByRole("dialog", { name: "Add Category" }).getByRole("link", { name: "Delete category whales-nojs" }).click();
  // Issue 19 item 9: asked first, inline.
  await expect(page.getByRole("alertdialog")).toContainText("Are you sure you want to delete “whales-nojs”?");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Category deleted successfully")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Add Category" }).getByText("whales-nojs")).toHaveCount(0);
  await page.goto("/characters");

  await row.getByRole("button", { name: `Start stalker for ${acc.nick}` }).click();
  await expect(toast(page, "Stalker started successfully")).toBeVisible();
  await expect(row.getByTestId("active-badge")).toBeVisible();
  // Starting selected the user, which loads pictures, statuses and gifts; Refresh asks again.
  // The page follows the job (?refreshing=1 reloads itself), then tells its outcome.
  await page.getByTestId("stalker-card").getByRole("button", { name: "Refresh" }).click();
  await expect(page).toHaveURL(/\/characters$/, { timeout: 30_000 });
  await expect(toast(page, /^User details refreshed/)).toBeVisible();
  await expect(page.getByTestId("refresh-outcome")).toContainText("User details refreshed");
  const filter = page.getByRole("list", { name: "Filter by gift" });
  await expect(async () => {
    await page.goto("/characters");
    await expect(filter.getByRole("link").first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await filter.getByRole("link").first().click();
  await expect(page).toHaveURL(/gift=\d+/);
  await expect(filter.getByRole("link").first()).toHaveAttribute("aria-current", "true");

  await characterRow(page, acc.id)
    .getByRole("button", { name: `Stop stalker for ${acc.nick}` })
    .click();
  await expect(toast(page, "Stalker stopped successfully")).toBeVisible();
  await expect(page).toHaveURL(/gift=\d+/);

  await characterRow(page, acc.id)
    .getByRole("link", { name: `Delete ${acc.nick}` })
    .click();
  await expect(page).toHaveURL(/confirm=/);
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "User deleted successfully")).toBeVisible();
  await expect(characterRow(page, acc.id)).toHaveCount(0);
});

test("issue 19 item 14: search by nick or account id without JavaScript, the gift filter kept", async ({ page, baseURL }) => {
  const [acc] = (await simAccounts("plain")).slice(80, 81);
  await createAccounts(baseURL!, [{ account: acc!, type: "trading" }]);
  await page.goto(`/characters?q=${acc!.id}`);
  await expect(characterRow(page, acc!.id)).toBeVisible();
  await expect(page.getByTestId("character-row")).toHaveCount(1);
  await page.goto("/characters?gift=11");
  await page.getByRole("searchbox", { name: "Search by nick or account id" }).fill("zz-nobody-zz");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/gift=11&q=zz-nobody-zz/);
  await expect(page.getByTestId("character-row")).toHaveCount(0);
  await expect(page.getByTestId("search-summary")).toContainText("0 of");
  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(page).toHaveURL(/\/characters\?gift=11$/);
});
