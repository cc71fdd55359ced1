import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E_OPERATOR } from "./credentials";

/**
 * Operator authentication with JavaScript disabled (issue "Foundation" item 3): every form
 * is a plain POST answered by a redirect.
 */
const loggedOut = { cookies: [], origins: [] };

async function logIn(page: Page, password = E2E_OPERATOR.password) {
  await page.getByLabel("Name", { exact: true }).fill(E2E_OPERATOR.name);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

test.describe("logged out, no JavaScript", () => {
  test.use({ storageState: loggedOut });

  test("log in (and back to the page asked for), then log out from the header", async ({ page }) => {
    await page.goto("/logs");
    await expect(page).toHaveURL("/login?redirectTo=%2Flogs");
    await logIn(page);
    await expect(page).toHaveURL("/logs");
    await expect(page.getByRole("heading", { level: 1, name: "System Logs" })).toBeVisible();

    await page.getByRole("banner").getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL("/login");
    await page.goto("/settings");
    await expect(page).toHaveURL("/login?redirectTo=%2Fsettings");
  });

  test("a wrong password is answered inline", async ({ page }) => {
    await page.goto("/login");
    await logIn(page, "certainly wrong");
    await expect(page.getByRole("alert").filter({ hasText: "Invalid name or password" })).toBeVisible();
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(E2E_OPERATOR.name);
  });

  test("GET /logout asks before logging out", async ({ page }) => {
    await page.goto("/login");
    await logIn(page);
    await page.goto("/logout");
    await expect(page.getByText(`You are logged in as ${E2E_OPERATOR.name}.`)).toBeVisible();
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL("/login");
    await page.goto("/logout");
    await expect(page).toHaveURL("/login");
  });
});

test("API tokens: create (shown once) and revoke after a confirmation, without JavaScript", async ({ page }) => {
  const tokenName = `nojs token ${Date.now().toString(36)}`;
  await page.goto("/settings");
  await page.getByLabel("Token name").fill(tokenName);
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page).toHaveURL("/settings");
  await expect(page.getByRole("textbox", { name: "New API token" })).toHaveValue(/^gtk_/);
  await page.goto("/settings");
  await expect(page.getByRole("textbox", { name: "New API token" })).toHaveCount(0);

  await page.getByRole("link", { name: `Revoke ${tokenName}` }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(`Revoke API token "${tokenName}"?`);
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(page).toHaveURL("/settings");
  await expect(page.getByRole("listitem", { name: tokenName })).toHaveCount(0);
});
