import { expect, test } from "./fixtures";

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
    // Issue 19 item 7: a save with JavaScript confirms itself too.
    await expect(page.locator(".gt-toaster").getByText("Gift rates saved", { exact: true })).toBeVisible();

    const rates = await page.request.get("/api/gift-rates");
    expect((await rates.json()).rates).toMatchObject({ Clay: 2.5, "Fire Cannon Ball": 1 });
    expect((await (await page.request.get("/api/gift-rates")).json()).rates["Silver Ring"]).toBeUndefined();

    await panel.getByRole("link", { name: "Gift Rates" }).click();
    await expect(page.getByRole("dialog", { name: "Gift Rates" }).getByLabel("Clay prize")).toHaveValue("5");
    await expect(page.getByRole("dialog", { name: "Gift Rates" }).getByLabel("Clay fireballs")).toHaveValue("2");
  });

  test("issue 30 A6: a save the server refuses (4xx) says why under the form and keeps what was typed", async ({ page }) => {
    // The inputs are checked before the post, so a refusal is rare (the server's rules changed
    // meanwhile): the refusal is made up here, in /api's shape.
    const why = "rates.Clay: rate must not be negative";
    await page.route("**/api/gift-rates", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 400, json: { error: why, message: why } }) : route.fallback(),
    );
    await page.goto("/gifts");
    await page.waitForLoadState("networkidle");
    const loaded = page.waitForResponse((r) => r.url().endsWith("/api/gift-rates") && r.request().method() === "GET");
    await page.getByTestId("summary-panel").getByRole("link", { name: "Gift Rates" }).click();
    const dialog = page.getByRole("dialog", { name: "Gift Rates" });
    await (await loaded).finished();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await dialog.getByLabel("Clay prize").fill("7");
    await dialog.getByLabel("Clay fireballs").fill("3");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(why);
    await expect(dialog.getByLabel("Clay prize")).toHaveValue("7");
    await expect(dialog.getByRole("button", { name: "Save" })).toBeEnabled();
    await expect(page.locator(".gt-toaster").getByText("Gift rates saved", { exact: true })).toHaveCount(0);
  });

  test("issue 19 item 7: a refused input says why Save is disabled; fireballs above 1,000 are refused", async ({ page }) => {
    await page.goto("/gifts?dialog=gift-rates");
    const dialog = page.getByRole("dialog", { name: "Gift Rates" });
    await expect(dialog).toBeVisible();
    // Issue 19 item 12: the dialog opens focused itself, not a field (no phone keyboard over the list).
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe("INPUT");
    const save = dialog.getByRole("button", { name: "Save" });
    const prize = dialog.getByLabel("Skeleton Key prize");
    const fireballs = dialog.getByLabel("Skeleton Key fireballs");
    for (const [p, f, why] of [
      ["-5", "1", "Skeleton Key: Whole numbers of 0 or more only"],
      ["1.5", "1", "Skeleton Key: Whole numbers of 0 or more only"],
      ["1e3", "1", "Skeleton Key: Whole numbers of 0 or more only"],
      ["99999999999999999999", "1", "Skeleton Key: Prize: at most 1,000,000"],
      ["1", "1001", "Skeleton Key: FCB: at most 1,000 (a rate is read back with at most 1,000 fireballs)"],
    ] as const) {
      // The dialog is open in the server's HTML: what is typed before hydration is reset by it,
      // and the reasons show only with JavaScript. Type again until the reason shows.
      await expect(async () => {
        await prize.fill(p);
        await fireballs.fill(f);
        await expect(dialog.getByRole("alert")).toHaveText(why, { timeout: 1_000 });
      }).toPass();
      await expect(save).toBeDisabled();
      await expect(prize).toHaveAttribute("aria-invalid", "true");
    }
    await fireballs.fill("1000");
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await expect(save).toBeEnabled();
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
