import { expect, test } from "./fixtures";
import { postedBy, resetTrading, seedTrader, toast, traderCard } from "./trading-fixtures";

/** Issue 11 "The trading run" with JavaScript off: Start/Stop are posted forms; a reload shows the state. */

let accountId: string | null = null;
test.beforeEach(async ({ request }) => resetTrading(request));
test.afterEach(async ({ request }) => {
  if (accountId) await request.post("/api/trader/stop", { data: { account_id: accountId } });
});

test("start and stop by posted forms; the state after a reload is on planet TradeZone*1", async ({ page, request }) => {
  // The account's relogin window (3 s here), a sign-in, then a JOIN after the platform's 4 s.
  test.setTimeout(90_000);
  const since = Date.now();
  const acc = await seedTrader(request, 6);
  accountId = acc.id;
  await page.goto("/trading-planets");
  const card = traderCard(page, acc.id);
  await card.getByRole("button", { name: `Start ${acc.nick}` }).click();
  await expect(toast(page, "Trader started successfully")).toBeVisible();
  await expect(card.getByRole("button", { name: `Stop ${acc.nick}` })).toBeVisible();
  await expect
    .poll(
      async () => {
        await page.reload();
        // While it waits out the platform's relogin window (our own sign-in made the account just
        // now) the card shows the retry badge instead: read the state only where it is shown.
        const state = card.getByTestId("trader-state");
        return (await state.count()) ? state.textContent() : null;
      },
      { timeout: 40_000, intervals: [1_000] },
    )
    .toBe("on planet TradeZone*1");
  await expect.poll(() => postedBy(acc.id, since)).toEqual([expect.objectContaining({ planet: "TradeZone*1", text: "Selling roses 🌹 #6" })]);

  await card.getByRole("button", { name: `Stop ${acc.nick}` }).click();
  await expect(toast(page, "Trader stopped successfully")).toBeVisible();
  await expect(card.getByTestId("trader-state")).toHaveText("idle");
});

test("375 px without JavaScript: Start is reachable and nothing scrolls sideways", async ({ page, request }) => {
  const acc = await seedTrader(request, 8);
  accountId = null;
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/trading-planets");
  await expect(traderCard(page, acc.id).getByRole("button", { name: `Start ${acc.nick}` })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
