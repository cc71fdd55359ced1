import { expect, test } from "@playwright/test";

/** Spec 2 §2 / spec 1 §2 Summary panel and §4/§5 Gift Rates dialog, on Bowling Bots (/gifts), with JavaScript. */

test.describe("Summary panel on Bowling Bots", () => {
  test("shows the panel; Gift Rates loads on open, saves prize/fireballs and closes", async ({ page }) => {
    await page.goto("/gifts");
    const panel = page.getByTestId("summary-panel");
    await expect(panel.getByRole("heading", { name: "Summary" })).toBeVisible();
    // The Bowling Bots refresh journeys (tests/e2e/bowling*.spec.ts) may have pulled daily totals into this run's database.
    const { dailyTotals } = (await (await page.request.get("/api/bowling-awards/daily-totals")).json()) as { dailyTotals: unknown[] };
    if (dailyTotals.length === 0) await expect(panel.getByText("No records found for the last 7 days")).toBeVisible();
    else await expect(panel.getByTestId("summary-row").first()).toBeVisible();

    await panel.getByRole("link", { name: "Gift Rates" }).click();
    const dialog = page.getByRole("dialog", { name: "Gift Rates" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel(/ prize$/)).toHaveCount(8);
    await dialog.getByLabel("Clay prize").fill("5");
    await dialog.getByLabel("Clay fireballs").fill("2");
    await dialog.getByLabel("Fire Cannon Ball prize").fill("1");
    await dialog.getByLabel("Fire Cannon Ball fireballs").fill("1");
    await dialog.getByLabel("Silver Ring prize").fill("3");
    const saved = page.waitForResponse((r) => r.url().endsWith("/api/gift-rates") && r.request().method() === "POST");
    await dialog.getByRole("button", { name: "Save" }).click();
    expect((await saved).status()).toBe(200);
    await expect(dialog).toBeHidden();

    const rates = await page.request.get("/api/gift-rates");
    expect((await rates.json()).rates).toMatchObject({ Clay: 2.5, "Fire Cannon Ball": 1 });
    expect((await (await page.request.get("/api/gift-rates")).json()).rates["Silver Ring"]).toBeUndefined();

    await panel.getByRole("link", { name: "Gift Rates" }).click();
    await expect(page.getByRole("dialog", { name: "Gift Rates" }).getByLabel("Clay prize")).toHaveValue("5");
    await expect(page.getByRole("dialog", { name: "Gift Rates" }).getByLabel("Clay fireballs")).toHaveValue("2");
  });

  test("375 px: no horizontal scrolling, the dialog fits", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/gifts");
    await expect(page.getByTestId("summary-panel")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByTestId("summary-panel").getByRole("link", { name: "Gift Rates" }).click();
    const dialog = page.getByRole("dialog", { name: "Gift Rates" });
    await expect(dialog).toBeVisible();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  });
});
