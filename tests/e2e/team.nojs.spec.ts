import { expect, test } from "@playwright/test";

/**
 * Issue 21, team use without JavaScript: the admin's forms in Settings, a viewer's form post
 * answered with a 403 page that says why, and the audit trail's filters as a plain GET form.
 */
const loggedOut = { cookies: [], origins: [] };

test("operators managed with plain forms; a viewer's post gets a 403 page; the audit filters work", async ({ page, browser, baseURL }) => {
  const name = `nojs-viewer-${Date.now().toString(36)}`;
  const password = "viewer password 2";

  await page.goto("/settings");
  const operators = page.getByRole("region", { name: "Operators" });
  await operators.getByLabel("Name", { exact: true }).fill(name);
  await operators.getByLabel("Password", { exact: true }).fill(password);
  await operators.getByRole("combobox", { name: "Role", exact: true }).selectOption("viewer");
  await operators.getByRole("button", { name: "Add operator" }).click();
  await expect(page).toHaveURL("/settings");
  await expect(operators.getByRole("listitem", { name })).toContainText("Viewer");

  const context = await browser.newContext({ storageState: loggedOut, baseURL, javaScriptEnabled: false });
  const viewer = await context.newPage();
  await viewer.goto("/login");
  await viewer.getByLabel("Name", { exact: true }).fill(name);
  await viewer.getByLabel("Password", { exact: true }).fill(password);
  await viewer.getByRole("button", { name: "Log in" }).click();
  await viewer.goto("/logs?confirm=cleanup");
  const [response] = await Promise.all([
    viewer.waitForResponse((r) => r.request().method() === "POST"),
    viewer.getByRole("alertdialog").getByRole("button", { name: "Clean Old Logs" }).click(),
  ]);
  expect(response.status()).toBe(403);
  await expect(viewer.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(viewer.getByRole("alert")).toHaveText(/Viewers can look but not change anything/);
  await viewer.getByRole("link", { name: "Back" }).click();
  await expect(viewer).toHaveURL(/\/logs/);
  await context.close();

  await page.goto("/audit");
  await page.getByLabel("Action contains").fill("operator.create");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/audit\?.*action=operator\.create/);
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("operator.create");
});
