import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { simAccounts, toast, type SimAccount } from "./characters-fixtures";

/**
 * Issue 31 item 1 with JavaScript, on the app's own worker and the run's simulator: the
 * Sessions page lists every session with its state as the section screens show it, filters
 * live in the URL, the list follows changes made elsewhere without a reload, operators stop
 * the selected sessions and Undo starts them again, the Workers panel shows the worker's beat,
 * memory and version, and the header's worker badge opens the page.
 */

const row = (page: Page, accountId: string) => page.locator(`[data-session="stalker:${accountId}"]`);

async function stalker(request: APIRequestContext, index: number): Promise<SimAccount> {
  const acc = (await simAccounts("stalker"))[index]!;
  const res = await request.post("/api/create-creds", { data: { rc: acc.recoveryCode, type: "stalker", takeover: true } });
  expect(res.status(), await res.text()).toBe(200);
  const start = await request.post("/api/stalker/start", { data: { account_id: acc.id } });
  expect(start.status(), await start.text()).toBeLessThan(300);
  return acc;
}
async function remove(request: APIRequestContext, acc: SimAccount) {
  await request.post("/api/stalker/stop", { data: { account_id: acc.id } });
  await request.delete(`/api/users/${acc.id}`);
}

test("every session in one list; filters in the URL; Stop with Undo; live; the Workers panel; the header badge opens it", async ({ page, request }) => {
  const a = await stalker(request, 15);
  const b = await stalker(request, 16);

  await page.goto("/characters");
  await page.locator(".gt-jobs-badge").click();
  await expect(page).toHaveURL(/\/sessions$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();

  // The Workers panel: this world's worker (inside the web process), its beat, memory and version.
  const workers = page.getByRole("region", { name: "Workers" });
  await expect(workers.getByRole("row").nth(1)).toContainText("Alive");
  await expect(workers.getByRole("row").nth(1)).toContainText(/\d+(\.\d)? MB/);
  await expect(workers.getByRole("row").nth(1)).toContainText("0.1.0");
  await expect(workers.getByRole("button", { name: /^Drain worker / })).toBeVisible();

  // Both stalkers, active, with nick and account id.
  await expect(row(page, a.id)).toContainText("Active", { timeout: 20_000 });
  await expect(row(page, b.id)).toContainText("Active", { timeout: 20_000 });
  await expect(row(page, a.id)).toContainText(a.nick);
  await expect(row(page, a.id)).toContainText(a.id);

  // Filters are a GET form: the URL carries them.
  await page.getByLabel("Purpose").selectOption("stalker");
  await page.getByLabel("Search").fill(a.nick);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect.poll(() => [new URL(page.url()).searchParams.get("purpose"), new URL(page.url()).searchParams.get("q")]).toEqual(["stalker", a.nick]);
  await expect(row(page, a.id)).toBeVisible();
  await expect(row(page, b.id)).toHaveCount(0);
  await page.getByRole("link", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/sessions$/);

  // Select one and Stop: the toast says how many; Undo starts it again.
  await row(page, a.id).getByRole("checkbox").check();
  await expect(page.getByText("1 selected")).toBeVisible();
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(toast(page, "Stopped 1 session")).toBeVisible();
  await expect(row(page, a.id)).toContainText("Stopped");
  await expect(row(page, b.id)).toContainText("Active");
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(toast(page, "Started 1 session")).toBeVisible();
  await expect(row(page, a.id)).toContainText("Active", { timeout: 20_000 });

  // Live: a stop made elsewhere (the API) reaches the open page without a reload.
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  const stop = await request.post("/api/stalker/stop", { data: { account_id: b.id } });
  expect(stop.status()).toBe(200);
  await expect(row(page, b.id)).toContainText("Stopped");
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

  // The state filter is the phase the screens show.
  await page.goto("/sessions?state=stopped&purpose=stalker");
  await expect(row(page, b.id)).toBeVisible();
  await expect(row(page, a.id)).toHaveCount(0);

  await remove(request, a);
  await remove(request, b);
});
