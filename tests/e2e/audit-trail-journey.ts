import type { Expect, Page } from "@playwright/test";

/**
 * The /audit journey both projects walk (js and nojs): three categories added through the
 * API, found on the trail by their names with the "Target contains" filter, then paged two at
 * a time (the URL's `limit`) with the Older and Newer links.
 */
export async function auditJourney(page: Page, expect: Expect) {
  const stamp = `aud${Date.now().toString(36)}`;
  const names = [1, 2, 3].map((i) => `${stamp}-cat${i}`);
  for (const value of names) {
    const res = await page.request.post("/api/categories", { data: { value } });
    expect(res.status()).toBe(201);
  }

  await page.goto("/audit");
  await page.getByLabel("Target contains").fill(stamp);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`/audit\\?.*target=${stamp}`));
  // Radix names the table's wrapper: the rows are inside it.
  const rows = page.getByLabel("Audit trail entries").getByRole("row").filter({ hasText: stamp });
  await expect(rows).toHaveCount(3);
  // Newest first, each naming its category.
  for (const [i, name] of [...names].reverse().entries()) await expect(rows.nth(i)).toContainText(name);
  await expect(rows.first()).toContainText("POST /api/categories");

  await page.goto(`/audit?target=${stamp}&limit=2`);
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(names[2]!);
  await expect(page.getByRole("link", { name: "Newer" })).toHaveCount(0);
  await page.getByRole("link", { name: "Older" }).click();
  await expect(page).toHaveURL(/before=/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(names[0]!);
  await expect(page.getByRole("link", { name: "Older" })).toHaveCount(0);
  await page.getByRole("link", { name: "Newer" }).click();
  await expect(page).toHaveURL(/after=/);
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(names[2]!);
  await expect(rows.nth(1)).toContainText(names[1]!);
}
