import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { simAccounts, toast } from "./characters-fixtures";

/**
 * Issue 30 A7 without JavaScript: the server's flash toast (in <noscript>, faded by CSS after
 * spec 1 §9's 4000 ms) takes no click meant for the page either, only its own ×.
 * docs/decisions/0040-toasts-cover-no-control.md.
 */

/** The page's visible buttons whose centre the toast takes instead (see toasts.spec.ts). */
async function buttonsUnderToasts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const covered: string[] = [];
    for (const b of document.querySelectorAll<HTMLElement>("main button, .gt-floating-panel button")) {
      const r = b.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      if (document.elementFromPoint(x, y)?.closest(".gt-toaster")) covered.push(b.getAttribute("aria-label") ?? b.textContent ?? "?");
    }
    return covered;
  });
}

test("issue 30 A7, no JavaScript, 390 px and 1366 px: the flash toast of Minimize leaves the panel's Expand clickable; its × still closes it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const code = (await simAccounts("plain"))[0]!.recoveryCode;
  await page.goto("/collections");
  if (!(await page.getByTestId("profile-card").count())) {
    await page.getByLabel("Recovery code").fill(code);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
  }
  await expect
    .poll(
      async () => {
        await page.goto("/collections");
        const state = (await page.getByTestId("connection-state").textContent()) ?? "";
        if (state === "Disconnected") await page.getByRole("button", { name: "Connect to Galaxy" }).click();
        return state;
      },
      { timeout: 30_000, intervals: [500, 1000] },
    )
    .toBe("Connected");
  const show = page.getByRole("button", { name: "Show floating panel" });
  if (await show.count()) await show.click();
  // The choice is saved by a post: leaving before its answer would cancel it.
  await expect(page.getByRole("button", { name: "Hide floating panel" })).toBeVisible();

  for (const size of [
    { width: 390, height: 844 },
    { width: 1366, height: 768 },
  ]) {
    await page.setViewportSize(size);
    await page.goto("/characters");
    const panel = page.getByRole("complementary", { name: "Collections panel" });
    await expect(panel).toBeVisible();
    if ((await panel.getAttribute("data-mode")) === "minimized") await panel.getByRole("button", { name: "Expand" }).click();
    await panel.getByRole("button", { name: "Minimize" }).click();
    await expect(toast(page, "Floating panel minimized")).toBeVisible();
    expect(await buttonsUnderToasts(page), `${size.width} px`).toEqual([]);
    // The toast's × (a label without JavaScript) still takes its click and closes it.
    await page.locator(".gt-toaster").getByTitle("Dismiss notification").click();
    await expect(toast(page, "Floating panel minimized")).toBeHidden();
    await panel.getByRole("button", { name: "Expand" }).click();
    await expect(panel.getByRole("button", { name: "Minimize" })).toBeVisible();
    await expect(toast(page, "Floating panel shown")).toBeVisible();
    expect(await buttonsUnderToasts(page), `${size.width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
});
