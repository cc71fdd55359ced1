/**
 * GalaCord screen with JavaScript (spec 2 §2 "GalaCord screen", §4/§5/§8 "Relay bot", §9 status
 * poll 5 s): the app's worker holds the relay session; the bot logs in to this run's Discord
 * simulator and relay accounts to its Galaxy simulator (global-setup.ts).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { SIM_URL, simAccounts, toast } from "./characters-fixtures";
import { WORLD } from "./world";

const DISCORD_URL = WORLD.discordUrl;
const status = (page: Page) => page.getByRole("status").filter({ hasText: /Running|Stopped/ });

async function botStopped(page: Page) {
  await page.goto("/galacord");
  if (await page.getByRole("button", { name: "Stop", exact: true }).isVisible()) {
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await expect(status(page)).toContainText("Stopped");
  }
}

test.describe.configure({ mode: "serial" });

test("Start → Running (polled); ID → channel grouped by server + recovery code, Connect disabled until both; the account connects; relay both ways; Change Planet; Delete Connection; Stop", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const [acc] = (await simAccounts("plain")).slice(40, 41);
  await botStopped(page);
  await expect(status(page)).toContainText("Stopped");
  await page.getByRole("button", { name: "Start", exact: true }).click();
  // Spec 2 §9: the status is polled every 5 s; no reload needed.
  await expect(status(page)).toContainText("Running", { timeout: 20_000 });
  await expect(status(page)).toContainText("0 active connections");

  await page.getByRole("button", { name: "ID", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "New connection" });
  const connect = dialog.getByRole("button", { name: "Connect" });
  await expect(connect).toBeDisabled();
  const select = dialog.getByLabel("Channel");
  await expect(select.locator("optgroup")).toHaveCount(2);
  await expect(select.locator('optgroup[label="Galaxy Fans"] option')).toHaveText(["#general", "#relay", "#off-topic"]);
  await select.selectOption({ label: "#relay" });
  await expect(connect).toBeDisabled();
  await dialog.getByLabel("Recovery code").fill(acc.recoveryCode);
  await expect(connect).toBeEnabled();
  await connect.click();
  await expect(toast(page, "Connection created")).toBeVisible({ timeout: 20_000 });

  const row = page.getByRole("listitem", { name: acc.nick });
  await expect(row).toBeVisible();
  await expect(row.getByText("Connected", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(row.getByRole("link", { name: "#relay" })).toBeVisible();
  await expect(status(page)).toContainText("1 active connection", { timeout: 10_000 });

  // Discord → planet, end to end (the simulator's control endpoint plays the Discord user).
  const res = await fetch(`${DISCORD_URL}/__discord/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ channelId: "1180000000000000102", username: "alice", content: "hello from the e2e" }),
  });
  expect(res.status).toBe(200);
  await expect
    .poll(async () => {
      const conns = (await (await fetch(`${SIM_URL}/__sim/connections`)).json()) as { open: { accountId: string | null; received: string[] }[] };
      return conns.open.filter((c) => c.accountId === acc.id).flatMap((c) => c.received);
    })
    .toContain("PRIVMSG 0 0 :Alice: hello from the e2e");
  // Planet → Discord: someone on the relay account's planet speaks (the simulator's say lever).
  const conns = (await (await fetch(`${SIM_URL}/__sim/connections`)).json()) as { open: { accountId: string | null; planet: string | null }[] };
  const planetName = conns.open.find((c) => c.accountId === acc.id)!.planet!;
  const said = await fetch(`${SIM_URL}/__sim/say`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ planet: planetName, fromId: "999999", text: "hi from the planet" }),
  });
  expect(said.status).toBe(200);
  await expect
    .poll(
      async () =>
        ((await (await fetch(`${DISCORD_URL}/__discord/sent?channelId=1180000000000000102`)).json()) as { sent: { content: string; username: string }[] }).sent,
    )
    .toContainEqual(expect.objectContaining({ content: "hi from the planet", username: "#999999" }));

  await row.getByRole("button", { name: "Change Planet" }).click();
  const planet = page.getByRole("dialog", { name: "Change Planet" });
  await expect(planet.getByRole("radio")).toHaveCount(3);
  await expect(planet.getByRole("button", { name: "Change Planet" })).toBeDisabled();
  await planet.getByLabel("Other planet").fill("Sirius");
  await planet.getByRole("button", { name: "Change Planet" }).click();
  await expect(toast(page, "Planet changed: Sirius")).toBeVisible({ timeout: 20_000 });
  await expect(row.getByText("Sirius")).toBeVisible();

  await row.getByRole("button", { name: "Change Planet" }).click();
  await page.getByRole("dialog", { name: "Change Planet" }).getByLabel("Other planet").fill("NoSuchPlanetXYZ");
  await page.getByRole("dialog", { name: "Change Planet" }).getByRole("button", { name: "Change Planet" }).click();
  // Issue 30 A6: the platform's refusal in the dialog, what was typed kept.
  await expect(page.getByRole("dialog", { name: "Change Planet" }).getByText("Planet with such name doesn't exist!")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("dialog", { name: "Change Planet" }).getByLabel("Other planet")).toHaveValue("NoSuchPlanetXYZ");

  await page.goto("/galacord");
  await row.getByRole("button", { name: "Disconnect" }).click();
  await expect(row.getByText("Offline", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: "Change Planet" }).click();
  await expect(page.getByRole("dialog", { name: "Change Planet" }).getByText("Not connected to Galaxy")).toBeVisible();

  await page.goto("/galacord");
  await row.getByRole("button", { name: `Delete ${acc.nick}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Connection" });
  await expect(confirm).toContainText(acc.nick);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Account deleted")).toBeVisible();
  await expect(page.getByRole("listitem", { name: acc.nick })).toHaveCount(0);

  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(status(page)).toContainText("Stopped");
});

test('spec 2 §8: the bot\'s own error is shown as "Bot Error" (token refused on Identify, close 4004); Start again clears it', async ({ page }) => {
  test.setTimeout(90_000);
  const faults = (body: unknown) =>
    fetch(`${DISCORD_URL}/__discord/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  await botStopped(page);
  expect((await faults({ identifyCloseCode: 4004 })).status).toBe(200);
  try {
    await page.getByRole("button", { name: "Start", exact: true }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Bot Error" });
    await expect(alert).toContainText(/Authentication failed/, { timeout: 30_000 });
    await expect(status(page)).toContainText("Stopped");
  } finally {
    await faults({ identifyCloseCode: null });
  }
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await expect(status(page)).toContainText("Running", { timeout: 30_000 });
  await expect(page.getByRole("alert").filter({ hasText: "Bot Error" })).toHaveCount(0);
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(status(page)).toContainText("Stopped");
});

test('spec 2 §4 "a spinner shows while connecting": a dropped Galaxy connection (not a login failure) shows Connecting, then reconnects by itself', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const [acc] = (await simAccounts("plain")).slice(42, 43);
  const sim = (path: string, body: unknown) =>
    fetch(`${SIM_URL}/__sim/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  await botStopped(page);
  // Spec 2 §7 "POST /api/bot/start": no body.
  expect((await request.post("/api/bot/start")).status()).toBe(200);
  await expect(status(page)).toContainText("Running", { timeout: 20_000 });
  const created = await request.post("/api/bot/connect-new", { data: { channelId: "1180000000000000102", recoveryCode: acc.recoveryCode } });
  expect(created.status()).toBe(200);
  const row = page.getByRole("listitem", { name: acc.nick });
  await expect(row.getByText("Connected", { exact: true })).toBeVisible({ timeout: 20_000 });

  expect((await sim("faults", { refuseConnections: true })).status).toBe(200);
  try {
    expect((await sim("drop", { accountId: acc.id })).status).toBe(200);
    // Polled (spec 2 §9), no reload: the badge turns into the spinner, the count drops.
    await expect(row.getByText("Connecting", { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(row.getByText("Connected", { exact: true })).toHaveCount(0);
    await expect(row.getByRole("button", { name: "Disconnect" })).toBeVisible();
    await expect(status(page)).toContainText("0 active connections");
  } finally {
    await sim("faults", { refuseConnections: false });
  }
  await expect(row.getByText("Connected", { exact: true })).toBeVisible({ timeout: 40_000 });
  await expect(status(page)).toContainText("1 active connection");

  // A login failure is different: 950 leaves the account in error, offered Connect, not retried.
  expect((await sim("another-device", { accountId: acc.id })).status).toBe(200);
  await expect(row.getByRole("status")).toContainText("You login from another device", { timeout: 15_000 });
  await expect(row.getByText("Offline", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(row.getByText("Connected", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row.getByRole("status")).toHaveCount(0);

  expect((await request.delete(`/api/bot/connection/${acc.id}`)).status()).toBe(200);
  expect((await request.post("/api/bot/stop")).status()).toBe(200);
  await expect(status(page)).toContainText("Stopped", { timeout: 15_000 });
});

test("at 375 px wide the GalaCord screen fits without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/galacord?new=1");
  // With JavaScript the dialog is modal (the kit's DialogFrame): the page behind it is hidden
  // from assistive technology (includeHidden), but laid out all the same.
  await expect(page.getByRole("heading", { name: "GalaCord", level: 1, includeHidden: true })).toBeVisible();
  await expect(page.getByRole("dialog", { name: "New connection" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByRole("button", { name: "ID", exact: true, includeHidden: true })).toBeInViewport();
});
