import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { seedFailedLogin, uniqueName } from "./logs-seed";

/** Spec 2, "Main app shell": "Section menu with six sections: Exchange Rates, Bowling Bots (id gifts), …". */
const SECTIONS = [
  { label: "Exchange Rates", path: "/exchange-rates" },
  { label: "Bowling Bots", path: "/gifts" },
  { label: "All Characters", path: "/characters" },
  { label: "Trading Planets", path: "/trading-planets" },
  { label: "GalaCord", path: "/galacord" },
  { label: "Collections", path: "/collections" },
];

const sectionMenu = (page: Page) => page.getByRole("navigation", { name: "Sections" });

/** The class of <html> exactly as the server sent it (before any script ran). */
async function serverHtmlClass(page: Page, path: string) {
  const res = await page.request.get(path);
  expect(res.status()).toBe(200);
  const html = await res.text();
  return /<html[^>]*\sclass="([^"]*)"/.exec(html)?.[1];
}

/** Writes `count` new System Logs entries and clears them (through /api/logs), for Clean Old Logs to delete. */
async function clearNewEntries(page: Page, baseURL: string, count: number) {
  const messages: string[] = [];
  for (let i = 0; i < count; i++) messages.push(await seedFailedLogin(baseURL, uniqueName("toast")));
  const res = await page.request.get("/api/logs?cleared=false");
  expect(res.ok()).toBe(true);
  const { logs } = (await res.json()) as { logs: { _id: string; message: string }[] };
  for (const message of messages) {
    const entry = logs.find((l) => l.message === message);
    expect(entry, `seeded entry "${message}"`).toBeDefined();
    expect((await page.request.post(`/api/logs/clear/${entry!._id}`)).ok()).toBe(true);
  }
}

test.describe("spec 2 Main app shell", () => {
  test("the section menu lists the six sections in the spec's order, each with its own URL", async ({ page }) => {
    await page.goto("/gifts");
    const links = sectionMenu(page).getByRole("link");
    await expect(links).toHaveText(SECTIONS.map((s) => s.label));
    for (const [i, s] of SECTIONS.entries()) {
      await expect(links.nth(i)).toHaveAttribute("href", s.path);
    }
    for (const s of SECTIONS) {
      await sectionMenu(page).getByRole("link", { name: s.label, exact: true }).click();
      await expect(page).toHaveURL(s.path);
      await expect(page.getByRole("heading", { level: 1, name: s.label })).toBeVisible();
      await expect(sectionMenu(page).getByRole("link", { name: s.label, exact: true })).toHaveAttribute("aria-current", "page");
    }
  });

  test("/ opens the remembered section, also in a new browser with the same cookies", async ({ page, browser }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/(exchange-rates|gifts|characters|trading-planets|galacord|collections)$/);

    await page.goto("/galacord");
    await sectionMenu(page).getByRole("link", { name: "Trading Planets" }).click();
    await expect(page).toHaveURL("/trading-planets");
    // Leaving for a page that is not a section keeps the remembered one.
    await page.goto("/logs");
    const state = await page.context().storageState();
    expect(state.cookies.find((c) => c.name === "gt_section")?.value).toBe("trading-planets");

    const other = await browser.newContext({ storageState: state });
    const second = await other.newPage();
    await second.goto("/");
    await expect(second).toHaveURL("/trading-planets");
    await expect(second.getByRole("heading", { level: 1, name: "Trading Planets" })).toBeVisible();
    await other.close();
  });

  test("/ defaults to exchange-rates when nothing is remembered", async ({ page }) => {
    await page.context().clearCookies({ name: "gt_section" });
    const res = await page.request.get("/", { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers()["location"]).toBe("/exchange-rates");
  });

  test("dark by default, rendered by the server, and the toggle is remembered without a flash", async ({ page, browser }) => {
    await page.context().clearCookies({ name: "gt_theme" });
    expect(await serverHtmlClass(page, "/galacord")).toBe("dark");
    await page.goto("/galacord");
    const toggle = page.getByRole("switch", { name: "Dark mode" });
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await expect(page.locator("html")).toHaveClass("dark");

    await toggle.click();
    await expect(page.locator("html")).toHaveClass("light");
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await expect(page.locator(".radix-themes").first()).toHaveClass(/\blight\b/);
    // The choice sits in a cookie the server reads: the very first HTML is already light.
    await expect.poll(() => serverHtmlClass(page, "/galacord")).toBe("light");

    const other = await browser.newContext({ storageState: await page.context().storageState() });
    const second = await other.newPage();
    const firstPaint: string[] = [];
    second.on("domcontentloaded", async () => firstPaint.push((await second.locator("html").getAttribute("class")) ?? ""));
    await second.goto("/collections");
    await expect(second.locator("html")).toHaveClass("light");
    expect(firstPaint[0]).toBe("light");
    await other.close();

    await toggle.click();
    await expect(page.locator("html")).toHaveClass("dark");
    await expect.poll(() => serverHtmlClass(page, "/galacord")).toBe("dark");
  });

  test("the header shows the operator, System Logs, settings, logout and the job engine badge", async ({ page }, testInfo) => {
    await page.goto("/logs");
    await page.screenshot({ path: testInfo.outputPath("desktop-logs.png") });
    await page.goto("/exchange-rates");
    const header = page.getByRole("banner").first();
    await expect(header.getByText("operator", { exact: true })).toBeVisible();
    await expect(header.getByRole("link", { name: "System Logs" })).toHaveAttribute("href", "/logs");
    await expect(header.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/settings");
    await expect(header.getByRole("button", { name: "Log out" })).toBeVisible();
    await expect(header.getByText(/^(Jobs online|Jobs offline|Worker stopped)$/)).toBeVisible();
  });

  test("toasts: at most 3 visible, the oldest dropped, each gone after 4000 ms (spec 1 §9)", async ({ clockPage: page }, testInfo) => {
    const base = testInfo.project.use.baseURL!;
    // Nothing cleared left over from other tests: each "Clean Old Logs" below then deletes
    // exactly the entries cleared for it, so the four flash toasts differ (identical ones
    // would collapse into one, docs/decisions/0010-toasts-sonner.md).
    expect((await page.request.delete("/api/logs/cleanup")).ok()).toBe(true);
    // Time stands still in the page until the test moves it on.
    await page.clock.install({ time: new Date("2026-11-21T10:00:00Z") });
    await page.goto("/logs");
    await page.clock.pauseAt(new Date("2026-11-21T10:00:05Z"));
    const now = () => page.evaluate(() => Date.now());
    const runTo = async (time: number) => page.clock.runFor(time - (await now()));
    const status = (n: number) => page.getByRole("status").filter({ hasText: new RegExp(`^Deleted ${n} log entr(y|ies)$`) });

    const shownAt: number[] = [];
    for (let n = 1; n <= 4; n++) {
      await clearNewEntries(page, base, n);
      await page.getByRole("link", { name: "Clean Old Logs" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Clean Old Logs" }).click();
      await expect(page.getByRole("alertdialog")).toBeHidden();
      // sonner mounts a toast on the next timer tick: move the clock on by 1 ms until it is there.
      await expect(async () => {
        await page.clock.runFor(1);
        await expect(status(n)).toBeVisible({ timeout: 200 });
      }).toPass();
      shownAt[n] = await now();
    }
    // The 4th pushed out the oldest (after its 200 ms exit animation).
    await page.clock.runFor(300);
    const toasts = page.getByRole("region", { name: "Notifications" }).getByRole("listitem");
    await expect(toasts).toHaveCount(3);
    await expect(toasts).toHaveText([/Deleted 4 log entries/, /Deleted 3 log entries/, /Deleted 2 log entries/]);
    // 3.9 s after the oldest of them appeared all three are still there and none is leaving…
    await runTo(shownAt[2]! + 3900);
    await expect(toasts).toHaveCount(3);
    await expect(page.locator(".gt-toaster [data-removed='true']")).toHaveCount(0);
    // …and 4 s (plus the exit animation) after the newest appeared, all are gone.
    await runTo(shownAt[4]! + 4300);
    await expect(toasts).toHaveCount(0);
  });

  test("a flash toast in a full page load is shown once, by sonner after hydration", async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
    page.on("pageerror", (err) => errors.push(err.message));
    // The action answers with a redirect and the flash cookie (shared with the page).
    const res = await page.request.post("/logs", { form: { intent: "cleanup" }, maxRedirects: 0 });
    expect(res.status()).toBe(302);
    // The server HTML carries it inside <noscript> (for browsers without JavaScript)…
    const html = await (await page.request.get("/logs")).text();
    expect(html).toMatch(/<noscript><section aria-label="Notifications"[^]*?Deleted \d+ log entr(y|ies)<\/span>[^]*?<\/noscript>/);
    // …and a browser with JavaScript shows it through sonner, once (that GET consumed the first flash).
    const res2 = await page.request.post("/logs", { form: { intent: "cleanup" }, maxRedirects: 0 });
    expect(res2.status()).toBe(302);
    await page.goto("/logs");
    const flash = page.getByRole("status").filter({ hasText: /^Deleted \d+ log entr(y|ies)$/ });
    await expect(flash).toBeVisible();
    await expect(page.locator(".gt-toaster [data-sonner-toast]")).toHaveCount(1);
    await expect(flash).toHaveCount(1);
    expect(errors).toEqual([]);
  });

  test("at 375 px: one column, nothing wider than the screen", async ({ page }, testInfo) => {
    await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("narrow"));
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of ["/trading-planets", "/logs", "/characters"]) {
      await page.goto(path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path} scroll width`).toBeLessThanOrEqual(375);
      await page.screenshot({ path: testInfo.outputPath(`narrow${path.replace(/\//g, "-")}.png`), fullPage: false });
    }
    // Every section stays reachable: the menu is one row that scrolls sideways.
    await sectionMenu(page).getByRole("link", { name: "Collections" }).click();
    await expect(page).toHaveURL("/collections");
    await expect(page.getByRole("switch", { name: "Dark mode" })).toBeVisible();
    await expect(page.getByRole("link", { name: "System Logs" })).toBeVisible();
  });

  test("issue 19 item 12: on a phone (390×844) the section menu is one row of 40 px links, header and menu well under 150 px, the current section scrolled into view", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/exchange-rates");
    const header = await page.locator(".gt-app-header").boundingBox();
    expect(header!.height).toBeLessThanOrEqual(115);
    const links = sectionMenu(page).getByRole("link");
    await expect(links).toHaveCount(6);
    const boxes = await links.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
    for (const box of boxes) {
      expect(box.top).toBe(boxes[0]!.top); // one row
      expect(box.height).toBeGreaterThanOrEqual(40); // touch target
    }
    // The last section starts off-screen; on its page the strip shows it whole.
    expect(boxes[5]!.right).toBeGreaterThan(390);
    await links.filter({ hasText: "Collections" }).click();
    await expect(page).toHaveURL("/collections");
    const current = sectionMenu(page).locator('[aria-current="page"]');
    await expect(current).toHaveText("Collections");
    await expect
      .poll(async () => {
        const box = (await current.boundingBox())!;
        return box.x >= 0 && box.x + box.width <= 390;
      })
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
