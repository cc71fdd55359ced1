import { expect, test } from "./fixtures";
import { toast } from "./characters-fixtures";

/**
 * Issue 30 A6 with JavaScript: a form the server refuses keeps what was typed and says why next
 * to the field (aria-invalid, aria-describedby), as it does without JavaScript
 * (forms-keep-input.nojs.spec.ts). docs/decisions/0033-forms-keep-refused-input.md.
 */

for (const [label, viewport] of [
  ["1366 px", { width: 1366, height: 768 }],
  ["390 px phone", { width: 390, height: 844 }],
] as const) {
  test.describe(label, () => {
    test.use({ viewport });

    test("spec 2 §2 Collections 'Recovery-code login': a refused code stays in the field, the reason next to it, no toast", async ({ page }) => {
      await page.goto("/collections");
      const out = page.getByTestId("profile-card").getByRole("button", { name: "Log out of Galaxy" });
      if (await out.count()) {
        await out.click();
        await expect(page.getByLabel("Recovery code")).toBeVisible();
      }
      const code = page.getByLabel("Recovery code");
      await code.fill("ZZZZZZZZZZ");
      await page.getByRole("button", { name: "Log in", exact: true }).click();

      await expect(code).toHaveAttribute("aria-invalid", "true");
      await expect(code).toHaveAccessibleDescription("Login failed: Invalid credentials");
      await expect(code).toHaveValue("ZZZZZZZZZZ");
      await expect(page.locator("#gt-collections-rc-error")).toBeInViewport();
      await expect(toast(page, "Login failed: Invalid credentials")).toHaveCount(0);
    });

    test("spec 2 §2 Trading Planets ads manager: an ad the server refuses (too long) stays as typed with its category, the reason next to it", async ({
      page,
    }) => {
      const long = `${"WTS rings ".repeat(200)}!`; // 2001 characters: one past the limit
      await page.goto("/trading-planets");
      const ads = page.getByRole("region", { name: "Ads and Messages" });
      await ads.getByRole("button", { name: "Expand" }).click();
      const text = ads.getByLabel("New message");
      await text.fill(long);
      await ads.getByLabel("Category").first().selectOption("msg");
      await ads.getByRole("button", { name: "Add", exact: true }).click();

      await expect(text).toHaveAttribute("aria-invalid", "true");
      await expect(text).toHaveAccessibleDescription("An ad message is at most 2000 characters");
      await expect(text).toHaveValue(long);
      await expect(page.locator("#gt-ad-new-error")).toBeVisible();
      await expect(ads.getByLabel("Category").first()).toHaveValue("msg");
    });
  });
}
