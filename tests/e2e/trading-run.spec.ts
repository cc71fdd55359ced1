import { expect, test } from "./fixtures";
import { postedBy, resetTrading, seedTrader, toast, traderCard } from "./trading-fixtures";

/**
 * Issue 11 "The trading run" with JavaScript: Start/Stop per trading character on the Trading
 * Planets screen, the state beside the sequences re-read every 2 s while it runs, against the
 * app's worker and the run's Galaxy simulator (real timings: 4 s between JOINs).
 */

let accountId: string | null = null;
test.beforeEach(async ({ request }) => resetTrading(request));
test.afterEach(async ({ request }) => {
  if (accountId) await request.post("/api/trader/stop", { data: { account_id: accountId } });
});

test("start a trader: flying → on planet TradeZone*1 with its ad posted there; stop → idle", async ({ page, request }) => {
  // Sign-in, then a JOIN after the platform's 4 s: past 20 s on a loaded 2-core CI machine.
  test.setTimeout(90_000);
  const since = Date.now();
  const acc = await seedTrader(request, 5);
  accountId = acc.id;
  await page.goto("/trading-planets");
  const card = traderCard(page, acc.id);
  await expect(page.getByRole("heading", { name: "Trading run" })).toBeVisible();
  await expect(card.getByTestId("trader-state")).toHaveText("idle");
  await card.getByRole("button", { name: `Start ${acc.nick}` }).click();
  await expect(toast(page, "Trader started successfully")).toBeVisible();
  // No reload: the page re-reads the state while the trader runs.
  await expect(card.getByTestId("trader-state")).toHaveText("on planet TradeZone*1", { timeout: 40_000 });
  await expect(card.getByTestId("trader-counts")).toContainText("1 post ·");
  await expect.poll(() => postedBy(acc.id, since)).toEqual([expect.objectContaining({ planet: "TradeZone*1", text: "Selling roses 🌹 #5" })]);
  const status = (await (await request.get("/api/trader/status")).json()) as { traders: { accountId: string; state: string; planet: string }[] };
  expect(status.traders.find((t) => t.accountId === acc.id)).toMatchObject({ state: "on_planet", planet: "TradeZone*1" });

  await card.getByRole("button", { name: `Stop ${acc.nick}` }).click();
  await expect(toast(page, "Trader stopped successfully")).toBeVisible();
  await expect(card.getByTestId("trader-state")).toHaveText("idle");
  await expect(card.getByRole("button", { name: `Start ${acc.nick}` })).toBeVisible();
});

test("375 px: the trading run sits below the sequences, nothing scrolls sideways", async ({ page, request }) => {
  const acc = await seedTrader(request, 7);
  accountId = null;
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/trading-planets");
  const sequences = page.getByRole("heading", { name: "Sequences" });
  const run = page.getByRole("heading", { name: "Trading run" });
  await expect(run).toBeVisible();
  const [a, b] = [await sequences.boundingBox(), await run.boundingBox()];
  expect(b!.y).toBeGreaterThan(a!.y);
  await expect(traderCard(page, acc.id).getByRole("button", { name: `Start ${acc.nick}` })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
