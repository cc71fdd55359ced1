import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { emptyFilter, seedFailedLogin, seedSkippedEntries, uniqueName } from "./logs-seed";

/** Spec 2 "Logs page (/logs)": filters by type and source, auto-refresh, refresh, Clean Old Logs, badges, Clear, details. */

const entry = (page: Page, message: string) => page.getByRole("list", { name: "Log entries" }).getByRole("listitem").filter({ hasText: message });

test.describe("spec 2 Logs page", () => {
  test("shows entries with type and source badges, time and details as formatted data", async ({ page }, testInfo) => {
    const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("badge"));
    await page.goto("/logs");
    await expect(page.getByRole("heading", { level: 1, name: "System Logs" })).toBeVisible();
    const row = entry(page, message);
    await expect(row).toHaveCount(1);
    await expect(row.locator("[data-log-type]")).toHaveText("error");
    await expect(row.locator("[data-log-source]")).toHaveText("system");
    // Time: relative text, absolute time on hover, machine-readable datetime.
    const time = row.locator("time");
    await expect(time).toHaveText(/just now|\dm ago/);
    await expect(time).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
    await expect(time).toHaveAttribute("title", /\d/);
    // Details: pretty-printed JSON in a <pre>.
    const details = row.locator("pre");
    await expect(details).toContainText('"accountId": "badge-');
    expect(await details.textContent()).toMatch(/^\{\n {2}"reason"/);
    // The server's own start-up entry is there too, as info.
    await expect(entry(page, "Server started on port").first().locator("[data-log-type]")).toHaveText("info");
  });

  test("filters by type and source live in the URL; no matches offers Clear filters", async ({ page }, testInfo) => {
    const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("filter"));
    await page.goto("/logs");
    await page.getByLabel("Type").selectOption("error");
    await expect(page).toHaveURL(/\/logs\?type=error$/);
    await expect(entry(page, message)).toBeVisible();
    await expect(page.locator("[data-log-type]").filter({ hasNotText: "error" })).toHaveCount(0);

    await page.getByLabel("Type").selectOption("info");
    await page.getByLabel("Source").selectOption("system");
    await expect(page).toHaveURL(/\/logs\?type=info&source=system$/);
    await expect(entry(page, message)).toHaveCount(0);
    await expect(entry(page, "Server started on port").first()).toBeVisible();

    // Shared links and reloads keep the filters.
    await page.reload();
    await expect(page.getByLabel("Type")).toHaveValue("info");
    await expect(page.getByLabel("Source")).toHaveValue("system");

    // Other journeys log under several sources meanwhile: pick a pair that is empty now.
    const empty = await emptyFilter(testInfo.project.use.baseURL!, { type: "info", source: "system" });
    await page.getByLabel("Type").selectOption(empty.type);
    await page.getByLabel("Source").selectOption(empty.source);
    // The pair's own page, not the type-only step before it (which may be empty too: a click on
    // its Clear filters would cancel the source's navigation and leave it out of the history).
    await expect(page).toHaveURL(new RegExp(`type=${empty.type}&source=${empty.source}$`));
    await expect(page.getByRole("heading", { name: "No entries match these filters" })).toBeVisible();
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/logs$/);
    await expect(page.getByLabel("Type")).toHaveValue("");
    await expect(page.getByLabel("Source")).toHaveValue("");
    await expect(entry(page, message)).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`type=${empty.type}&source=${empty.source}`));
  });

  test("Clear hides an entry in place; Show cleared brings it back marked Cleared", async ({ page }, testInfo) => {
    const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("clear"));
    await page.goto("/logs");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await entry(page, message).getByRole("button", { name: "Clear" }).click();
    await expect(entry(page, message)).toHaveCount(0);
    // In place: no page load happened.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);

    await page.getByLabel("Show cleared").check();
    await expect(page).toHaveURL(/showCleared=1/);
    await expect(entry(page, message)).toContainText("Cleared");
    await expect(entry(page, message).getByRole("button", { name: "Clear" })).toHaveCount(0);
  });

  test("Clean Old Logs asks first, then deletes cleared entries with a count toast", async ({ page }, testInfo) => {
    const base = testInfo.project.use.baseURL!;
    const gone = await seedFailedLogin(base, uniqueName("gone"));
    const kept = await seedFailedLogin(base, uniqueName("kept"));
    await page.goto("/logs?showCleared=1");
    await entry(page, gone).getByRole("button", { name: "Clear" }).click();
    await expect(entry(page, gone)).toContainText("Cleared");

    await page.getByRole("link", { name: "Clean Old Logs" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("every cleared entry and every entry older than 14 days");
    await expect(dialog).toContainText("cannot be undone");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(entry(page, gone)).toHaveCount(1);

    await page.getByRole("link", { name: "Clean Old Logs" }).click();
    await dialog.getByRole("button", { name: "Clean Old Logs" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Deleted \d+ log entr(y|ies)$/ })).toBeVisible();
    await expect(page).toHaveURL(/\/logs\?showCleared=1$/);
    await expect(entry(page, gone)).toHaveCount(0);
    await expect(entry(page, kept)).toHaveCount(1);
    await expect(page.locator('[data-cleared="true"]')).toHaveCount(0);
  });

  test("Refresh re-reads the list without reloading the page", async ({ page }, testInfo) => {
    // Entries arrive live (issue 30 A5): with the stream cut only Refresh (or the 5 s fallback
    // poll, later than the check below) brings a new one.
    await page.route("**/api/events*", (route) => route.abort());
    await page.goto("/logs");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("refresh"));
    await expect(entry(page, message)).toHaveCount(0);
    await page.getByRole("link", { name: "Refresh" }).click();
    await expect(entry(page, message)).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  });

  test("a page of 50 at a time: Older → and ← Newer reach every entry, in the URL (issue 20)", async ({ page }, testInfo) => {
    const prefix = uniqueName("page");
    const mine = await seedSkippedEntries(
      testInfo.project.use.baseURL!,
      Array.from({ length: 60 }, (_, i) => `${prefix}-${String(i).padStart(2, "0")}`),
    );
    await page.goto("/logs?type=error&source=system");
    const rows = page.getByRole("list", { name: "Log entries" }).getByRole("listitem");
    await expect(rows).toHaveCount(50);
    await expect(page.getByText(/^Showing the newest 50 of [\d,]+\+? entries$/)).toBeVisible();
    await expect(entry(page, mine[59]!)).toBeVisible();
    await expect(entry(page, mine[9]!)).toHaveCount(0);
    const pages = page.getByRole("navigation", { name: "Log pages" });
    await expect(pages.getByRole("link", { name: "← Newer" })).toHaveCount(0);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 5));

    await pages.getByRole("link", { name: "Older →" }).click();
    await expect(page).toHaveURL(/\/logs\?type=error&source=system&before=/);
    await expect(entry(page, mine[9]!)).toBeVisible();
    await expect(entry(page, mine[0]!)).toBeVisible();
    await expect(entry(page, mine[10]!)).toHaveCount(0);
    await expect(page.getByText(/^Showing \d+ of [\d,]+\+? entries$/)).toBeVisible();
    // Client-side navigation, and the filters stayed.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(5);
    await expect(page.getByLabel("Type")).toHaveValue("error");

    // Clear works in place on an older page too.
    await entry(page, mine[5]!).getByRole("button", { name: "Clear" }).click();
    await expect(entry(page, mine[5]!)).toHaveCount(0);

    await pages.getByRole("link", { name: "← Newer" }).click();
    await expect(page).toHaveURL(/after=/);
    await expect(entry(page, mine[59]!)).toBeVisible();
    await expect(rows).toHaveCount(50);
    await page.reload();
    await expect(entry(page, mine[59]!)).toBeVisible();
    await expect(entry(page, mine[10]!)).toBeVisible();
  });

  test("issue 30 A5: new entries appear by themselves (live updates replace Auto-refresh); no poll while the stream is up", async ({ page }, testInfo) => {
    await page.goto("/logs");
    await expect(page.getByTestId("logs-live")).toHaveText("New entries appear as they happen");
    // Auto-refresh is offered only without JavaScript.
    await expect(page.getByLabel("Auto-refresh (5 s)")).toHaveCount(0);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 9));
    const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("live"));
    await expect(entry(page, message)).toBeVisible({ timeout: 5_000 });
    // No reload: the page is the same document.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(9);
    // Cleared through /api in another tab: it goes here too.
    const { logs } = (await (await page.request.get("/api/logs?type=error&source=system&cleared=false")).json()) as {
      logs: { _id: string; message: string }[];
    };
    const mine = logs.find((l) => l.message === message)!;
    expect((await page.request.post(`/api/logs/clear/${mine._id}`)).status()).toBe(200);
    await expect(entry(page, message)).toHaveCount(0, { timeout: 5_000 });
  });

  test("issue 30 A5: search and dates follow the typing and stay in the URL", async ({ page }, testInfo) => {
    const name = uniqueName("search");
    const message = await seedFailedLogin(testInfo.project.use.baseURL!, name);
    await page.goto("/logs?type=error");
    await page.getByRole("searchbox", { name: "Search messages and accounts" }).fill(name);
    await expect(page).toHaveURL(new RegExp(`type=error&q=${name}$`));
    await expect(page.getByRole("list", { name: "Log entries" }).getByRole("listitem")).toHaveCount(1);
    await expect(entry(page, message)).toBeVisible();
    await page.getByLabel("To (UTC)").fill("2020-01-01");
    await expect(page).toHaveURL(/q=.*&to=2020-01-01/);
    await expect(page.getByRole("heading", { name: "No entries match these filters" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("searchbox", { name: "Search messages and accounts" })).toHaveValue(name);
    await expect(page.getByLabel("To (UTC)")).toHaveValue("2020-01-01");
  });
});

test.describe("spec 2 §7 Logs calls, through the running server", () => {
  test("GET /api/logs, POST /api/logs/clear/{id}, DELETE /api/logs/cleanup", async ({ page }, testInfo) => {
    const message = await seedFailedLogin(testInfo.project.use.baseURL!, uniqueName("api"));
    const api = page.request;

    const list = await api.get("/api/logs?type=error&source=system&cleared=false");
    expect(list.status()).toBe(200);
    const { logs } = (await list.json()) as { logs: { _id: string; type: string; message: string; timestamp: string; cleared: boolean }[] };
    const mine = logs.find((l) => l.message === message)!;
    expect(mine).toMatchObject({ type: "error", cleared: false });
    expect(logs.every((l) => l.type === "error")).toBe(true);
    expect(new Date(mine.timestamp).toISOString()).toBe(mine.timestamp);

    expect((await api.get("/api/logs?type=fatal")).status()).toBe(400);
    expect(await (await api.get("/api/logs?cleared=maybe")).json()).toEqual({
      error: "Invalid cleared: use true or false",
      message: "Invalid cleared: use true or false",
    });

    const cleared = await api.post(`/api/logs/clear/${mine._id}`);
    expect(await cleared.json()).toMatchObject({ success: true, log: { _id: mine._id, cleared: true } });
    const missing = await api.post("/api/logs/clear/3f1c0a52-7d7e-4c1a-9a53-2b9b7c0e8f11");
    expect(missing.status()).toBe(404);
    expect(await missing.json()).toEqual({ error: "Log entry not found", message: "Log entry not found" });

    const cleanup = await api.delete("/api/logs/cleanup");
    const body = (await cleanup.json()) as { message: string; deletedCount: number };
    expect(body.deletedCount).toBeGreaterThanOrEqual(1);
    expect(body.message).toBe(`Deleted ${body.deletedCount} log entries`);
    expect((await api.get("/api/logs/cleanup")).status()).toBe(405);
  });
});
