import { expect, test, type Browser } from "@playwright/test";

/**
 * Issue 21, team use (docs/decisions/0016), JavaScript on: an admin adds a viewer in
 * Settings; the viewer logs in, is shown as a viewer, cannot manage operators, and a write
 * they try comes back as a flash toast with the reason; the admin finds the change on the
 * audit trail.
 */
const loggedOut = { cookies: [], origins: [] };

async function logInAs(browser: Browser, baseURL: string, name: string, password: string) {
  const context = await browser.newContext({ storageState: loggedOut, baseURL });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

test("an admin adds a viewer, who reads but cannot write; the audit trail shows who did what", async ({ page, browser, baseURL }, testInfo) => {
  const name = `viewer-${testInfo.project.name}-${Date.now().toString(36)}`;
  const password = "viewer password 1";

  await page.goto("/settings");
  const operators = page.getByRole("region", { name: "Operators" });
  await operators.getByLabel("Name", { exact: true }).fill(name);
  await operators.getByLabel("Password", { exact: true }).fill(password);
  await operators.getByRole("combobox", { name: "Role", exact: true }).selectOption("viewer");
  await operators.getByRole("button", { name: "Add operator" }).click();
  await expect(page.getByText(`Operator "${name}" created (Viewer)`)).toBeVisible();
  await expect(operators.getByRole("listitem", { name })).toContainText("Viewer");

  const viewer = await logInAs(browser, baseURL!, name, password);
  await expect(viewer.locator(".gt-shell")).toHaveAttribute("data-can-write", "false");
  await expect(viewer.getByRole("banner").getByText("Viewer", { exact: true })).toBeVisible();
  await viewer.goto("/settings");
  await expect(viewer.getByRole("heading", { name: "API tokens", exact: true })).toBeVisible();
  await expect(viewer.getByRole("heading", { name: "Operators" })).toHaveCount(0);

  // A write from the page: refused, the reason in a toast, the page stays.
  await viewer.goto("/logs");
  await viewer.getByRole("link", { name: "Clean Old Logs" }).click();
  await viewer.getByRole("alertdialog").getByRole("button", { name: "Clean Old Logs" }).click();
  await expect(viewer.getByText("Viewers can look but not change anything")).toBeVisible();
  await expect(viewer).toHaveURL(/\/logs/);
  await viewer.context().close();

  await page.goto(`/audit?action=operator.`);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("operator.create");
  await expect(row).toContainText("operator");
});
