import { expect, test } from "./fixtures";

/** Spec 2 §2 Summary panel and the Gift Rates form with JavaScript disabled (plain form → its host page, redirect, toast; a refusal: forms-keep-input.nojs.spec.ts). */

test("Gift Rates opens inline from the link, saves through the page action and shows a toast", async ({ page }) => {
  await page.goto("/gifts");
  const panel = page.getByTestId("summary-panel");
  await expect(panel.getByRole("heading", { name: "Summary" })).toBeVisible();
  await panel.getByRole("link", { name: "Gift Rates" }).click();
  await expect(page).toHaveURL(/\/gifts\?dialog=gift-rates$/);
  const form = page.getByTestId("gift-rates-form");
  await form.getByLabel("Skeleton Key prize").fill("7");
  await form.getByLabel("Skeleton Key fireballs").fill("3");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/gifts$/);
  await expect(page.getByRole("status").filter({ hasText: "Gift rates saved" })).toBeVisible();
  const rates = (await (await page.request.get("/api/gift-rates")).json()).rates;
  expect(rates["Skeleton Key"]).toBeCloseTo(7 / 3, 10);

  // Reopened, the stored rate reads back as the same pair (spec 2 §5 load conversion).
  await page.goto("/gifts?dialog=gift-rates");
  await expect(page.getByTestId("gift-rates-form").getByLabel("Skeleton Key prize")).toHaveValue("7");
  await expect(page.getByTestId("gift-rates-form").getByLabel("Skeleton Key fireballs")).toHaveValue("3");
  await page.getByTestId("gift-rates-form").getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/gifts$/);
});

test("375 px without JavaScript: no horizontal scrolling with the form open", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/gifts?dialog=gift-rates");
  await expect(page.getByTestId("gift-rates-form")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
