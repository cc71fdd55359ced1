import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { characterRow, simAccounts, toast, type SimAccount } from "./characters-fixtures";

/**
 * Issue 18 without JavaScript: the page shows the state as of its render; a refused start
 * answers the platform's words; the take-over question is a plain form.
 */

async function stalkerUser(request: APIRequestContext, index: number): Promise<SimAccount> {
  const acc = (await simAccounts("stalker"))[index]!;
  const res = await request.post("/api/create-creds", { data: { rc: acc.recoveryCode, type: "stalker", takeover: true } });
  expect(res.status(), await res.text()).toBe(200);
  return acc;
}
async function remove(request: APIRequestContext, acc: SimAccount) {
  await request.post("/api/stalker/stop", { data: { account_id: acc.id } });
  await request.delete(`/api/users/${acc.id}`);
}

test("a refused login (451): the redirect's toast has the platform's words and the row says why", async ({ simFaults, page, request }) => {
  const acc = await stalkerUser(request, 9);
  await simFaults({ loginCode: 451, loginCodeAccounts: [acc.id] });
  await page.goto("/characters");
  await characterRow(page, acc.id)
    .getByRole("button", { name: `Start stalker for ${acc.nick}` })
    .click();
  await expect(toast(page, "Login failed: Invalid credentials")).toBeVisible();
  await expect(characterRow(page, acc.id).getByTestId("stalker-failed-badge")).toContainText("Login failed: Invalid credentials");
  await remove(request, acc);
});

test("take over without JavaScript: the question is a form; Take over starts the stalker", async ({ page, request }) => {
  const acc = await stalkerUser(request, 10);
  // Collections holds the account (its recovery-code login, a plain form here too).
  await page.goto("/collections");
  const out = page.getByTestId("profile-card").getByRole("button", { name: "Log out" });
  if (await out.count()) await out.click();
  await page.getByLabel("Recovery code").fill(acc.recoveryCode);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page.getByTestId("profile-card")).toBeVisible();

  await page.goto("/characters");
  await characterRow(page, acc.id)
    .getByRole("button", { name: `Start stalker for ${acc.nick}` })
    .click();
  const panel = page.getByTestId("takeover-panel");
  await expect(panel).toContainText("is in use by Collections");
  await panel.getByRole("button", { name: "Take over" }).click();
  await expect(toast(page, new RegExp(`Took account ${acc.id} over from Collections`))).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("takeover-panel")).toHaveCount(0);
  // Taking over selected the user, which starts a refresh of every user's details; without
  // JavaScript the page reloads itself every 2 s until it ends (no progress line, no reload).
  // A goto while a reload was due was aborted by it once on a loaded machine: leave after it.
  await expect(page.getByTestId("refresh-progress")).toHaveCount(0, { timeout: 30_000 });
  await page.goto("/collections");
  await expect(page.getByTestId("profile-card").getByTestId("session-detail")).toContainText("Taken over by the stalker");
  await page.getByTestId("profile-card").getByRole("button", { name: "Log out" }).click();
  await remove(request, acc);
});
