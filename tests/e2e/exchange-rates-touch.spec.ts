import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { getRates, group, openRates, resetRates, row, toast } from "./exchange-rates-fixtures";

/**
 * Spec 1 §2 "On touch devices a horizontal swipe reveals Delete (swipe left) or
 * Enable/Disable (swipe right)"; §4 / §9 "releasing beyond 80px triggers the action;
 * swipe is limited to ±100px". Real touch input through the DevTools protocol.
 */
test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

test.beforeEach(async ({ page }) => {
  await resetRates(page.request);
  await openRates(page);
});

/** Puts a finger on `target`, moves it `dx` px sideways in steps; releases unless told not to. */
async function swipe(page: Page, target: Locator, dx: number, { release = true } = {}) {
  const box = (await target.boundingBox())!;
  const x = box.x + Math.min(40, box.width / 2);
  const y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  const steps = 8;
  for (let i = 1; i <= steps; i++) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: x + (dx * i) / steps, y }] });
  }
  const end = async () => cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  if (release) await end();
  return end;
}

/** The writes the page sends to the section from now on (a gesture that does nothing sends none). */
function writesFrom(page: Page) {
  const writes: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "GET" && new URL(r.url()).pathname.startsWith("/exchange-rates")) writes.push(r.url());
  });
  return writes;
}
/** Two frames: a release's outcome (swipe.tsx acts in the touchend handler) has been drawn and sent by then. */
const twoFrames = (page: Page) => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

const surface = (r: Locator) => r.locator(".gt-swipe-surface");
const offset = (r: Locator) =>
  surface(r).evaluate((el) => {
    const t = getComputedStyle(el).transform;
    return t === "none" ? 0 : new DOMMatrixReadOnly(t).m41;
  });

test("swipe right beyond 80px disables an enabled row, and enables it again", async ({ page }) => {
  const clay = row(page, "Gold Ring", "Clay");
  await swipe(page, clay.locator(".gt-rate-name"), 90);
  await expect(toast(page, "Exchange rate disabled successfully")).toBeVisible();
  await expect(clay).toHaveAttribute("data-status", "disabled");
  expect((await getRates(page.request))["Gold Ring"].Clay.status).toBe(false);

  await swipe(page, clay.locator(".gt-rate-name"), 95);
  await expect(toast(page, "Exchange rate enabled successfully")).toBeVisible();
  await expect(clay).toHaveAttribute("data-status", "enabled");
});

test("swipe left beyond 80px deletes the row", async ({ page }) => {
  const silver = row(page, "Gold Ring", "Silver Ring");
  await swipe(page, silver.locator(".gt-rate-name"), -90);
  await expect(toast(page, "Exchange rate deleted successfully")).toBeVisible();
  await expect(silver).toHaveCount(0);
  await expect(group(page, "Gold Ring").getByText("1 output", { exact: true })).toBeVisible();
  expect(Object.keys((await getRates(page.request))["Gold Ring"])).toEqual(["Clay"]);
});

test("the swipe reveals the action, stops at ±100px, and does nothing when released before 80px", async ({ page }) => {
  const clay = row(page, "Gold Ring", "Clay");
  const releaseLeft = await swipe(page, clay.locator(".gt-rate-name"), -160, { release: false });
  // The surface follows the last move on the next frame: read it once it has.
  await expect.poll(() => offset(clay)).toBe(-100);
  await expect(clay.locator(".gt-swipe-delete")).toHaveAttribute("data-armed", "true");
  await releaseLeft();
  await expect(toast(page, "Exchange rate deleted successfully")).toBeVisible();
  await expect(clay).toHaveCount(0);

  const green = row(page, "Fire Cannon Ball", "Green Light");
  const releaseRight = await swipe(page, green.locator(".gt-rate-name"), 60, { release: false });
  await expect.poll(() => offset(green)).toBe(60);
  await expect(green.locator(".gt-swipe-toggle")).toHaveAttribute("data-label", "Enable");
  await expect(green.locator(".gt-swipe-toggle")).toHaveAttribute("data-visible", "true");
  await expect(green.locator(".gt-swipe-toggle")).not.toHaveAttribute("data-armed");
  const writes = writesFrom(page);
  await releaseRight();
  await expect.poll(() => offset(green)).toBe(0);
  await twoFrames(page);
  expect(writes).toEqual([]);
  await expect(green).toHaveAttribute("data-status", "disabled");
  expect((await getRates(page.request))["Fire Cannon Ball"]["Green Light"].status).toBe(false);
});

test("a vertical drag scrolls and never swipes", async ({ page }) => {
  const clay = row(page, "Gold Ring", "Clay");
  const box = (await clay.locator(".gt-rate-name").boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  const writes = writesFrom(page);
  const x = box.x + 20;
  const y = box.y + box.height / 2;
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  for (let i = 1; i <= 6; i++) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: x + i * 15, y: y + i * 40 }] });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await twoFrames(page);
  expect(writes).toEqual([]);
  await expect(clay).toHaveAttribute("data-status", "enabled");
  await expect(clay).toBeVisible();
});
