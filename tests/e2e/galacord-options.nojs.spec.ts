/**
 * GalaCord's Relay Options dialog and backlog without JavaScript (issue 22 B.5, B.6; docs/galacord.md
 * "Relay options", "Backlog"): a plain POST form validated on the server (a regex that does not
 * compile is refused with the reason, nothing saved), saved values shown when the dialog opens again;
 * while Discord rate-limits the relay's webhook posts, the row shows the queue length.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { SIM_URL, simAccounts, toast } from "./characters-fixtures";
import { WORLD } from "./world";

const DISCORD_URL = WORLD.discordUrl;
const RELAY = "1180000000000000102";
const WEBHOOK_BUCKET = "POST /webhooks/:webhook/:token";
// "Running", "Starting" or "Stopped": always on the page, so a check reads it at once (a locator
// for Running|Stopped alone waited, on a no-JS page that cannot change, while the bot was Starting).
const botState = async (page: Page) => (await page.getByTestId("bot-state").textContent()) ?? "";

async function reloadUntil(page: Page, check: () => Promise<boolean>) {
  await expect
    .poll(
      async () => {
        await page.goto(page.url());
        return check();
      },
      { timeout: 30_000, intervals: [500, 1000] },
    )
    .toBe(true);
}
const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test("no-JS: Relay Options (bad regex refused: the form as typed, the reason next to the field; issue 30 A6); the backlog's length on the row while Discord rate-limits", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const [acc] = (await simAccounts("plain")).slice(43, 44);
  await page.goto("/galacord");
  if ((await botState(page)) !== "Running") {
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await expect(toast(page, "Bot started")).toBeVisible();
    await reloadUntil(page, async () => (await botState(page)) === "Running");
  }
  await page.getByRole("button", { name: "ID", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "New connection" });
  await dialog.getByLabel("Channel").selectOption({ label: "#relay" });
  await dialog.getByLabel("Recovery code").fill(acc.recoveryCode);
  await dialog.getByRole("button", { name: "Connect" }).click();
  await expect(toast(page, "Connection created")).toBeVisible({ timeout: 20_000 });
  const row = page.getByRole("listitem", { name: acc.nick });
  await reloadUntil(page, async () => (await row.getByText("Connected", { exact: true }).count()) > 0);

  await row.getByRole("button", { name: "Relay Options" }).click();
  let options = page.getByRole("dialog", { name: "Relay Options" });
  await expect(options.getByLabel("Name on Discord")).toHaveValue("{nick}");
  await options.getByLabel("Name on Discord").fill("{nick} @ {planet}");
  await options.getByLabel("Ignore messages matching").fill("(unclosed");
  await options.getByRole("button", { name: "Save Options" }).click();
  // Issue 30 A6: still the dialog, as typed, the reason next to the field it is about; nothing saved.
  options = page.getByRole("dialog", { name: "Relay Options" });
  const pattern = options.getByLabel("Ignore messages matching");
  await expect(pattern).toHaveValue("(unclosed");
  await expect(pattern).toHaveAttribute("aria-invalid", "true");
  await expect(pattern).toHaveAccessibleDescription(/^Ignore messages: not a valid regular expression \(.+\)$/);
  await expect(options.getByText(/^Ignore messages: not a valid regular expression \(/)).toBeVisible();
  await expect(options.getByLabel("Name on Discord")).toHaveValue("{nick} @ {planet}");
  await page.goto(`/galacord`);
  await row.getByRole("button", { name: "Relay Options" }).click();
  options = page.getByRole("dialog", { name: "Relay Options" });
  await expect(options.getByLabel("Name on Discord")).toHaveValue("{nick}");

  await options.getByLabel("Name on Discord").fill("{nick} @ {planet}");
  await options.getByLabel("Name on Galaxy").fill("[D] {nick}");
  await options.getByLabel("Ignore nicks").fill("spammer, bob");
  await options.getByLabel("Ignore messages matching").fill("^!");
  await options.getByRole("button", { name: "Save Options" }).click();
  await expect(toast(page, "Relay options saved")).toBeVisible();
  await row.getByRole("button", { name: "Relay Options" }).click();
  options = page.getByRole("dialog", { name: "Relay Options" });
  await expect(options.getByLabel("Name on Galaxy")).toHaveValue("[D] {nick}");
  await expect(options.getByLabel("Ignore nicks")).toHaveValue("spammer\nbob");
  await expect(options.getByLabel("Ignore messages matching")).toHaveValue("^!");
  await page.goto("/galacord");

  // Discord lets the webhook post once every 4 s: lines from the planet wait, and the row says how many.
  // (This run's lines carry a tag: the simulator keeps what earlier runs in this world sent.)
  const run = Date.now().toString(36);
  const conns = (await (await fetch(`${SIM_URL}/__sim/connections`)).json()) as { open: { accountId: string | null; planet: string | null }[] };
  const planet = conns.open.find((c) => c.accountId === acc.id)!.planet!;
  const sentLines = async () =>
    ((await (await fetch(`${DISCORD_URL}/__discord/sent?channelId=${RELAY}`)).json()) as { sent: { content: string; username: string }[] }).sent;
  // The channel's webhook exists first (found or created on the first post).
  expect((await post(`${SIM_URL}/__sim/say`, { planet, fromId: "999998", text: "warm up" })).status).toBe(200);
  await expect.poll(async () => (await sentLines()).some((s) => s.content === "warm up"), { timeout: 20_000 }).toBe(true);
  expect((await post(`${DISCORD_URL}/__discord/ratelimits`, { buckets: { [WEBHOOK_BUCKET]: { limit: 1, windowMs: 4000 } } })).status).toBe(200);
  try {
    for (let i = 0; i < 6; i++) expect((await post(`${SIM_URL}/__sim/say`, { planet, fromId: "999998", text: `queued line ${i} ${run}` })).status).toBe(200);
    // (textContent waits for the badge without a timeout of its own: a short one, then the next reload.)
    await reloadUntil(page, async () =>
      /^[1-6] queued$/.test(
        (await row
          .getByTestId("relay-queued")
          .textContent({ timeout: 200 })
          .catch(() => "")) ?? "",
      ),
    );
  } finally {
    await post(`${DISCORD_URL}/__discord/ratelimits`, { buckets: { [WEBHOOK_BUCKET]: { limit: 5, windowMs: 2000 } } });
  }
  await reloadUntil(page, async () => (await row.getByTestId("relay-queued").count()) === 0);
  const sent = await sentLines();
  expect(sent.filter((s) => s.content.endsWith(` ${run}`)).map((s) => [s.content, s.username])).toEqual(
    Array.from({ length: 6 }, (_, i) => [`queued line ${i} ${run}`, `#999998 @ ${planet}`]),
  );

  await row.getByRole("button", { name: `Delete ${acc.nick}` }).click();
  await page.getByRole("alertdialog", { name: "Delete Connection" }).getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Account deleted")).toBeVisible();
});
