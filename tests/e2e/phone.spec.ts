/**
 * Issue 30 A7 and B4 at phone size (390 × 844): the header keeps the Audit link and the role
 * badge; Trading Planets' controls and its sequence form are 40 px targets (CONVENTIONS "Narrow
 * screens: touch targets of at least 40 px"; every page and dialog is measured so in
 * a11y.spec.ts, on the load it scans at 390 px); the Collections recovery code is a password
 * field with a Show button.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { smallTargets } from "./screens";
import { resetTrading, seedSequences, waitForHydration } from "./trading-fixtures";

test.use({ viewport: { width: 390, height: 844 } });

async function open(page: Page, path: string) {
  await page.goto(path);
  await waitForHydration(page);
}

test("issue 30 A7: the phone header has the Audit link and the operator's role", async ({ page }) => {
  await open(page, "/exchange-rates");
  const header = page.locator(".gt-app-header");
  const audit = header.getByRole("link", { name: "Audit" });
  await expect(audit).toBeVisible();
  const box = (await audit.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(40);
  expect(box.height).toBeGreaterThanOrEqual(40);
  // The run's operator is the first-run admin.
  await expect(header.getByText("Admin", { exact: true })).toBeVisible();
  // Nothing in the header runs off the screen.
  for (const el of await header.locator(".gt-topbar a, .gt-topbar button, .gt-topbar .rt-Badge").all()) {
    if (!(await el.isVisible())) continue;
    const b = (await el.boundingBox())!;
    expect(b.x + b.width, await el.innerText()).toBeLessThanOrEqual(390);
  }
  await audit.click();
  await expect(page).toHaveURL(/\/audit/);
});

test("issue 30 B4: every control of Trading Planets is at least 40 × 40 px on a phone", async ({ page }) => {
  await resetTrading(page.request);
  await seedSequences(page.request, ["Phone one", "Phone two"]);
  const ad = await page.request.post("/api/ads", { data: { adsMessage: "Phone-sized ad", category: "ads" } });
  expect(ad.status(), await ad.text()).toBeLessThan(300);
  await open(page, "/trading-planets");
  await expect(page.getByText("Phone one")).toBeVisible();
  expect(await smallTargets(page.locator("main"))).toEqual([]);
  // The sequence form too (Active and Shuffle switches, the planets' move buttons).
  await page.getByRole("link", { name: "New Sequence" }).click();
  await expect(page.getByRole("region", { name: "New Sequence" })).toBeVisible();
  expect(await smallTargets(page.getByRole("region", { name: "New Sequence" }))).toEqual([]);
});

test("issue 30 A7: the Collections recovery code is a password field with a Show button", async ({ page }) => {
  await open(page, "/collections");
  // The operator's Collections state lives on the server: start from the login card.
  const out = page.getByTestId("profile-card").getByRole("button", { name: "Log out of Galaxy" });
  if (await out.count()) await out.click();
  const code = page.getByLabel("Recovery code", { exact: true });
  await expect(code).toHaveAttribute("type", "password");
  await code.fill("SECRET-CODE-1");
  const show = page.getByRole("button", { name: "Show recovery code" });
  await show.click();
  await expect(code).toHaveAttribute("type", "text");
  await expect(code).toHaveValue("SECRET-CODE-1");
  await page.getByRole("button", { name: "Hide recovery code" }).click();
  await expect(code).toHaveAttribute("type", "password");
});
