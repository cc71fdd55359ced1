import { expect, test } from "./fixtures";
import { addOperator, checkSections, logInAs, sectionChecks, seedSections } from "./team-fixtures";

/**
 * Issue 21, team use without JavaScript: the admin's forms in Settings, a viewer's form post
 * (from a page loaded while they were still an operator) answered with a 403 page that says
 * why, the audit trail's filters as a plain GET form, and every section rendered by the server
 * for a viewer without its write controls (issue 21 item 1: "the UI hides or disables what they
 * cannot do (without JS too)"), an operator's with them.
 */
test("operators managed with plain forms; a viewer's post gets a 403 page; the audit filters work", async ({ page, browser, baseURL }) => {
  const name = `nojs-viewer-${Date.now().toString(36)}`;
  const password = "viewer password 2";

  const operators = await addOperator(page, name, password, "operator");
  await expect(page).toHaveURL("/settings");

  const demoted = await logInAs(browser, baseURL!, name, password, false);
  await demoted.goto("/logs?confirm=cleanup");
  await expect(demoted.getByRole("alertdialog").getByRole("button", { name: "Clean Old Logs" })).toBeVisible();

  await operators.getByRole("combobox", { name: `Role of ${name}` }).selectOption("viewer");
  await operators.getByRole("button", { name: `Change role of ${name}` }).click();
  await expect(operators.getByRole("listitem", { name })).toContainText("Viewer");

  const [response] = await Promise.all([
    demoted.waitForResponse((r) => r.request().method() === "POST"),
    demoted.getByRole("alertdialog").getByRole("button", { name: "Clean Old Logs" }).click(),
  ]);
  expect(response.status()).toBe(403);
  await expect(demoted.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(demoted.getByRole("alert")).toHaveText(/Viewers can look but not change anything/);
  await demoted.getByRole("link", { name: "Back" }).click();
  await expect(demoted).toHaveURL(/\/logs/);
  // Now a viewer: the confirmation is not offered, the header says read-only.
  await expect(demoted.getByRole("banner").getByText("Read-only")).toBeVisible();
  await demoted.goto("/logs?confirm=cleanup");
  await expect(demoted.getByRole("heading", { name: "System Logs" })).toBeVisible();
  await expect(demoted.getByRole("alertdialog")).toHaveCount(0);
  await expect(demoted.getByRole("link", { name: "Clean Old Logs" })).toHaveCount(0);
  await demoted.context().close();

  await page.goto("/audit");
  await page.getByLabel("Action contains").fill("operator.create");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/audit\?.*action=operator\.create/);
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("operator.create");
});

test("every section, rendered by the server, shows a viewer its data without the write controls", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const { bowler } = await seedSections(page.request, baseURL!, 13);
  const checks = sectionChecks(bowler);
  const stamp = Date.now().toString(36);

  await addOperator(page, `nojs-op-${stamp}`, "operator password 2", "operator");
  const operator = await logInAs(browser, baseURL!, `nojs-op-${stamp}`, "operator password 2", false);
  await checkSections(operator, checks, true);
  await operator.context().close();

  await addOperator(page, `nojs-view-${stamp}`, "viewer password 4", "viewer");
  const viewer = await logInAs(browser, baseURL!, `nojs-view-${stamp}`, "viewer password 4", false);
  await checkSections(viewer, checks, false);
  // A confirmation's URL shows a viewer no confirmation (the server renders none).
  await viewer.goto(`/gifts?confirm=${bowler.id}`);
  await expect(viewer.getByRole("alertdialog")).toHaveCount(0);
  await viewer.goto(`/characters?confirm=${bowler.id}`);
  await expect(viewer.getByRole("alertdialog")).toHaveCount(0);
  await viewer.context().close();
});
