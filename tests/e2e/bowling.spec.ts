import type { Response } from "@playwright/test";
import { expect, holdChunk, test } from "./fixtures";
import { bowlingRow, seedBowling } from "./bowling-fixtures";
import { simAccounts, toast } from "./characters-fixtures";
import { waitForHydration } from "./trading-fixtures";

/**
 * Spec 1 §2 "Bowling Bots section", §4 refresh control, §8 bowling toasts, with JavaScript:
 * the refresh job run by the app's worker against the simulator (latency on), progress and
 * results as they arrive, refreshes in which some or all accounts fail (issue 18 item 5: the
 * simulator's per-account failure switch), companion assign/update, the Capybara popup,
 * delete, summary expand, and the same journey at 375 px.
 */

let seeded: Awaited<ReturnType<typeof seedBowling>>;

test.beforeAll(async ({ baseURL }) => {
  seeded = await seedBowling(baseURL!, 0);
});

test("refresh with progress: 'Loading...' and a spinning disabled button, rows fill in, 'Data refreshed successfully', 'just now'", async ({
  simFaults,
  page,
}) => {
  const [b0] = seeded.bowlers;
  await page.goto("/gifts");
  await expect(page.getByRole("heading", { name: "Bowling Bots", level: 1 })).toBeVisible();
  const control = page.getByTestId("refresh-control");
  // "???" until this world's first refresh (the standing axe test's Capybara state may have run one here).
  const { lastFetched } = (await (await page.request.get("/api/bowling-users/last-fetched")).json()) as { lastFetched: string | null };
  await expect(control.getByTestId("last-fetched")).toHaveText(lastFetched === null ? "???" : /\S/);
  await expect(bowlingRow(page, b0!.id)).toBeVisible();
  await expect(bowlingRow(page, b0!.id).getByTestId("status-loading")).toBeVisible();
  // Summary panel comes before the table.
  const summaryBox = (await page.getByTestId("summary-panel").boundingBox())!;
  const tableBox = (await page.locator("table.gt-bowling-table").boundingBox())!;
  expect(summaryBox.y).toBeLessThan(tableBox.y);

  const button = control.getByRole("button", { name: "Click to refresh data" });
  await button.hover();
  await expect(page.getByRole("tooltip")).toHaveText("Click to refresh data");

  // The platform holds its answers until the journey has seen the refresh running, before and
  // after a reload (a latency's window once closed during the reload on a loaded machine).
  await simFaults({ hold: true });
  await button.click();
  await expect(button).toBeDisabled();
  await expect(control).toHaveAttribute("data-refreshing", "true");
  await expect(control.locator("svg.gt-spin")).toHaveCount(1);
  await expect(control.getByTestId("last-fetched")).toHaveText("Loading...");
  await expect(page.getByTestId("refresh-progress")).toContainText(/Refreshing \d+ of \d+ accounts/);
  // A reload mid-refresh renders the same state from the database.
  await page.reload();
  await expect(page.getByTestId("refresh-progress")).toContainText(/Refreshing \d+ of \d+ accounts/);
  await expect(page.getByTestId("refresh-control").getByRole("button", { name: "Click to refresh data" })).toBeDisabled();
  await expect(page.getByTestId("refresh-control").getByTestId("last-fetched")).toHaveText("Loading...");
  await simFaults({ hold: false });

  await expect(toast(page, "Data refreshed successfully")).toBeVisible({ timeout: 30_000 });
  await expect(control.getByTestId("last-fetched")).toHaveText("just now");
  await expect(control.getByTestId("last-fetched").locator("time")).toHaveAttribute("title", /\d/);
  await expect(button).toBeEnabled();
  const row = bowlingRow(page, b0!.id);
  await expect(row.getByTestId("status-badge")).toHaveText(/.+/);
  const chips = row.getByRole("list", { name: /^Gifts of / }).locator("li");
  await expect(chips).toHaveCount(7);
  // regular types: green at/above the threshold, red below (spec 1 §9)
  for (const [type, threshold] of [
    [11, 50],
    [12, 200],
    [13, 250],
  ] as const) {
    const chip = row.locator(`li[data-type="${type}"]`);
    const amount = Number(await chip.locator("span").last().textContent());
    await expect(chip).toHaveAttribute("data-color", amount >= threshold ? "green" : "red");
  }
  for (const type of [1, 4, 8, 15]) await expect(row.locator(`li[data-type="${type}"]`)).toHaveAttribute("data-special", "true");
  await expect(page.getByTestId("totals-bar")).toContainText(/Capybara: \d+ items/);

  // The results are stored: a reload renders them from the database.
  await page.reload();
  await expect(bowlingRow(page, b0!.id).getByTestId("status-badge")).toBeVisible();
  await expect(page.getByTestId("refresh-control").getByTestId("last-fetched")).toHaveText("just now");
});

test("a press on Refresh while the hint's code arrives still refreshes: the button is not swapped under the pressed pointer", async ({ page }) => {
  // The hint's tooltip code loads when the pointer comes over the button (held here, as on a
  // slow phone or a loaded machine) and then takes the button's place. Arriving between the
  // press and its click, it took the pressed button away and the refresh never started (a CI
  // run's flaky retry: the Capybara state's refresh).
  const tooltip = await holdChunk(page, "hint-tooltip");
  await page.goto("/gifts");
  await waitForHydration(page);
  const control = page.getByTestId("refresh-control");
  const button = control.getByRole("button", { name: "Click to refresh data" });
  // A refresh already under way here (an earlier journey's) ends first: its button is disabled.
  await expect(button).toBeEnabled({ timeout: 30_000 });
  await button.evaluate((b) => b.setAttribute("data-pressed-here", ""));
  const box = (await button.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(tooltip.url).not.toBe("");
  await page.mouse.down();
  tooltip.release();
  // The code has run (the page's own import of it resolves once it is evaluated), then a turn for React.
  await page.evaluate(async (url) => {
    await import(url);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }, tooltip.url());
  await expect(control.locator("button[data-pressed-here]")).toHaveCount(1);
  const posted = page.waitForRequest((r) => r.method() === "POST" && r.postData() === "intent=refresh");
  await page.mouse.up();
  await posted;
  await expect(toast(page, "Data refreshed successfully")).toBeVisible({ timeout: 30_000 });
  // Then the tooltip's code has the button (a new element).
  await expect(control.locator("button[data-pressed-here]")).toHaveCount(0);
  await expect(button).toBeEnabled();
});

test("issue 18 item 5: some accounts fail → a warning naming them; all fail → 'Failed to refresh data', last-fetched unchanged, rows keep their gifts marked stale, totals agree, another tab follows live", async ({
  simFaults,
  page,
  context,
}) => {
  const [b0, b1] = seeded.bowlers;
  await page.goto("/gifts");
  const control = page.getByTestId("refresh-control");
  const button = control.getByRole("button", { name: "Click to refresh data" });
  // Start from a successful refresh (the rows have gifts, last-fetched is set).
  await button.click();
  await expect(toast(page, "Data refreshed successfully")).toBeVisible({ timeout: 30_000 });
  await expect(bowlingRow(page, b0!.id).getByTestId("stale")).toHaveCount(0);

  // Some fail: the warning says how many and which.
  await simFaults({ failAccounts: [b1!.id] });
  await button.click();
  const nick = b1!.nick.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await expect(toast(page, new RegExp(`^Data refreshed for \\d+ of \\d+ accounts; 1 failed: ${nick}$`))).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("refresh-outcome")).toContainText(`1 failed: ${b1!.nick}`);
  await expect(page.getByTestId("refresh-outcome")).toContainText("Simulated service failure");
  await expect(bowlingRow(page, b1!.id).getByTestId("stale")).toContainText(/^stale · /);
  await expect(
    bowlingRow(page, b1!.id)
      .getByRole("list", { name: /^Gifts of / })
      .locator("li"),
  ).toHaveCount(7);
  await expect(control.getByTestId("last-fetched")).toHaveText("just now");
  const lastFetched = await control.getByTestId("last-fetched").locator("time").getAttribute("dateTime");

  // A second tab, open before the next refresh: it follows without a reload.
  const other = await context.newPage();
  await other.goto("/gifts");
  await expect(other.getByTestId("refresh-outcome")).toContainText("1 failed");

  // All fail: the spec's failure text with the platform's reason, last-fetched unchanged.
  await simFaults({ failAccounts: (await simAccounts("bowling")).map((a) => a.id) });
  await button.click();
  const failed = toast(page, "Failed to refresh data");
  await expect(failed).toBeVisible({ timeout: 30_000 });
  await expect(page.locator(".gt-toaster")).toContainText(/All \d+ accounts failed: .*Simulated service failure/);
  // Issue 30 A7: after a failed try the header names both times; the success time (the first) is unchanged.
  await expect(control.getByTestId("last-fetched")).toContainText(/Last success .* · Last try failed/);
  await expect(control.getByTestId("last-fetched").locator("time").first()).toHaveAttribute("dateTime", lastFetched!);
  await expect(page.getByTestId("refresh-outcome")).toContainText("Failed to refresh data");
  await expect(other.getByTestId("refresh-outcome")).toContainText("Failed to refresh data");

  // Rows keep their last known gifts, marked stale with the age (absolute time on hover); no 'Failed to load gifts'.
  const row = bowlingRow(page, b0!.id);
  await expect(row.getByRole("list", { name: /^Gifts of / }).locator("li")).toHaveCount(7);
  await expect(row.getByTestId("gifts-failed")).toHaveCount(0);
  const stale = row.getByTestId("stale");
  await expect(stale).toContainText(/^stale · (just now|\d+m ago)/);
  await expect(stale.locator("time")).toHaveAttribute("title", /\d/);
  await expect(stale).toHaveAttribute("title", /Simulated service failure/);

  // The totals bar sums exactly what the rows show (type 11 as the sample).
  let sum = 0;
  for (const chip of await page.locator('[data-testid="bowling-row"] li[data-type="11"]').all()) sum += Number(await chip.locator("span").last().textContent());
  await expect(page.getByTestId("totals-bar").locator('li[data-type="11"] span').last()).toHaveText(String(sum));

  // A reload shows the same: the outcome is stored.
  await page.reload();
  await expect(page.getByTestId("refresh-outcome")).toContainText("Failed to refresh data");
  await expect(bowlingRow(page, b0!.id).getByTestId("stale")).toBeVisible();
  await other.close();
});

test("Capybara popup: 'N items', a 4-column grid with counts, red badge at 0", async ({ page }) => {
  const [b0] = seeded.bowlers;
  await page.goto("/gifts");
  const link = bowlingRow(page, b0!.id).getByRole("link", { name: /^Capybara of .*: \d+ items$/ });
  const total = Number((await link.textContent())!.match(/(\d+) items/)![1]);
  await link.click();
  const dialog = page.getByRole("dialog", { name: "Capybara" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("collection-total")).toHaveText(`${total} items`);
  const items = dialog.locator(".gt-capybara-item");
  expect(await items.count()).toBeGreaterThan(0);
  const columns = await dialog.locator(".gt-capybara-grid").evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
  expect(columns).toBe(4);
  let sum = 0;
  for (const item of await items.all()) {
    const count = Number(await item.getAttribute("data-count"));
    sum += count;
    await expect(item.locator(".rt-Badge")).toHaveAttribute("data-accent-color", count === 0 ? "red" : "gray");
  }
  expect(sum).toBe(total);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
});

test("companion assign then update; 'Assign' only with one supplier and one recipient; delete all companions", async ({ page }) => {
  const [b0] = seeded.bowlers;
  const [s0, s1] = seeded.suppliers;
  const [r0] = seeded.recipients;
  await page.goto("/gifts");
  const row = bowlingRow(page, b0!.id);
  await row.getByRole("link", { name: /^Assign Companion/ }).click();
  const dialog = page.getByRole("dialog", { name: "Assign Companion" });
  await expect(dialog).toBeVisible();
  const assign = dialog.getByRole("button", { name: "Assign" });
  await expect(assign).toBeDisabled();
  await dialog.getByLabel("Supplier").selectOption(s0!.id);
  await expect(assign).toBeDisabled();
  await dialog.getByLabel("Recipient").selectOption(r0!.id);
  await expect(assign).toBeEnabled();
  await assign.click();
  await expect(toast(page, "Companion assigned successfully")).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByTestId("companion")).toHaveText(`Supplier: ${s0!.nick} · Consumer: ${r0!.nick}`);

  await row.getByRole("link", { name: /^Update Companion/ }).click();
  const update = page.getByRole("dialog", { name: "Update Companion" });
  await expect(update.getByLabel("Supplier")).toHaveValue(s0!.id);
  await update.getByLabel("Supplier").selectOption(s1!.id);
  await update.getByRole("button", { name: "Update" }).click();
  await expect(toast(page, "Companion updated successfully")).toBeVisible();
  await expect(row.getByTestId("companion")).toHaveText(`Supplier: ${s1!.nick} · Consumer: ${r0!.nick}`);

  await page.getByRole("button", { name: "Delete all companions" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete all companions" });
  await expect(confirm).toContainText("Are you sure you want to delete all companions? This action cannot be undone.");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, /^Deleted (1 companion|\d+ companions)$/)).toBeVisible();
  await expect(row.getByTestId("companion")).toHaveText("No companion");
});

test("summary expands with the chevron once the refresh pulled the daily totals", async ({ page }) => {
  await page.goto("/gifts");
  const panel = page.getByTestId("summary-panel");
  await expect(panel.getByTestId("summary-row")).toHaveCount(2);
  await panel.getByTestId("summary-chevron").click();
  // Read as the page draws it: a count read once, right after the click, ran ahead of the
  // render on a loaded machine (flaky in CI on 2026-11-29: "Expected: > 2, Received: 2").
  await expect(panel.getByTestId("summary-chevron")).toHaveAttribute("aria-expanded", "true");
  await expect.poll(() => panel.getByTestId("summary-row").count()).toBeGreaterThan(2);
});

test("delete a bowling user after confirming", async ({ page }) => {
  const b2 = seeded.bowlers[2]!;
  await page.goto("/gifts");
  await bowlingRow(page, b2.id)
    .getByRole("button", { name: `Delete ${b2.nick}` })
    .click();
  const confirm = page.getByRole("alertdialog", { name: "Delete bowling user" });
  // Issue 19 items 9, 10: no companion to mention; Undo is offered instead of "cannot be undone".
  await expect(confirm).toContainText(`Are you sure you want to delete ${b2.nick} (${b2.id})? You can undo this for 2 minutes.`);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "User deleted successfully")).toBeVisible();
  await expect(bowlingRow(page, b2.id)).toHaveCount(0);
  // For the failure report (the Undo once restored nothing in a CI run, its toast and row never
  // came, the bar still offering it; not diagnosed): the page's posts and what they answered.
  const posts: string[] = [];
  const onResponse = async (res: Response) => {
    const req = res.request();
    if (req.method() !== "POST" || !new URL(req.url()).pathname.startsWith("/gifts")) return;
    const body = await res.text().catch((e: Error) => `(body unreadable: ${e.message})`);
    posts.push(`${new Date().toISOString()} ${req.postData() ?? ""} → ${res.status()} ${body.slice(0, 300)}`);
  };
  page.on("response", onResponse);
  const bar = page.getByRole("status").filter({ hasText: `Deleted ${b2.nick} (${b2.id}).` });
  const undoId = await bar.locator('input[name="undoId"]').inputValue();
  await bar.getByRole("button", { name: "Undo" }).click();
  const clickedAt = new Date().toISOString();
  try {
    await expect(toast(page, `Restored ${b2.nick}`)).toBeVisible();
  } catch (err) {
    const shown = await page.locator('input[name="undoId"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    throw new Error(
      `${(err as Error).message}\nUndo ${undoId} clicked at ${clickedAt}; the bars now offer ${JSON.stringify(shown)}\n` +
        `posts to /gifts after the delete:\n${posts.join("\n") || "(none)"}`,
    );
  } finally {
    page.off("response", onResponse);
  }
  await expect(bowlingRow(page, b2.id)).toBeVisible();
});

test("issue 19 item 14: search by nick or account id narrows the rows, in the URL", async ({ page }) => {
  const [b0, b1] = seeded.bowlers;
  await page.goto("/gifts");
  const search = page.getByRole("searchbox", { name: "Search by nick or account id" });
  await search.fill(b1!.id.slice(-5));
  await expect(page).toHaveURL(new RegExp(`[?&]q=${b1!.id.slice(-5)}`));
  await expect(bowlingRow(page, b1!.id)).toBeVisible();
  await expect(bowlingRow(page, b0!.id)).toHaveCount(0);
  await expect(page.getByTestId("search-summary")).toContainText(/^1 of \d+ accounts matches/);
  await search.fill(b0!.nick.toUpperCase());
  await expect(bowlingRow(page, b0!.id)).toBeVisible();
  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(page).not.toHaveURL(/q=/);
  await expect(bowlingRow(page, b1!.id)).toBeVisible();
});

test("375 px: no horizontal scrolling; refresh, companion dialog and the popup fit", async ({ page }) => {
  const [, b1] = seeded.bowlers;
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/gifts");
  await expect(bowlingRow(page, b1!.id)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const button = page.getByTestId("refresh-control").getByRole("button", { name: "Click to refresh data" });
  await button.click();
  await expect(toast(page, "Data refreshed successfully")).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await bowlingRow(page, b1!.id)
    .getByRole("link", { name: /^Assign Companion|^Update Companion/ })
    .click();
  const dialog = page.getByRole("dialog", { name: /Companion$/ });
  await expect(dialog).toBeVisible();
  let box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await bowlingRow(page, b1!.id)
    .getByRole("link", { name: /^Capybara of / })
    .click();
  const popup = page.getByRole("dialog", { name: "Capybara" });
  await expect(popup).toBeVisible();
  box = (await popup.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
