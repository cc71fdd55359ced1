import { expect, request as playwrightRequest, type Page } from "@playwright/test";
import { simAccounts, type SimAccount } from "./characters-fixtures";
import { WORLD } from "./world";

/** Bowling Bots journeys: accounts created through the app (POST /api/create-creds with simulator recovery codes). */

export const bowlingRow = (page: Page, accountId: string) => page.locator(`[data-testid="bowling-row"][data-account="${accountId}"]`);

export async function createAccounts(baseURL: string, list: Array<{ account: SimAccount; type: string }>) {
  const ctx = await playwrightRequest.newContext({ baseURL, storageState: WORLD.storageState, extraHTTPHeaders: { Origin: baseURL } });
  try {
    for (const { account, type } of list) {
      const res = await ctx.post("/api/create-creds", { data: { rc: account.recoveryCode, type } });
      expect(res.status(), `create ${type} ${account.id}: ${await res.text()}`).toBeLessThan(300);
    }
  } finally {
    await ctx.dispose();
  }
}

/** The users this world has, account id → type (GET /api/users). */
async function usersOf(baseURL: string): Promise<Map<string, string | null>> {
  const ctx = await playwrightRequest.newContext({ baseURL, storageState: WORLD.storageState, extraHTTPHeaders: { Origin: baseURL } });
  try {
    const res = await ctx.get("/api/users");
    expect(res.status(), await res.text()).toBe(200);
    return new Map(((await res.json()) as { users: { account_id: string; type: string | null }[] }).users.map((u) => [u.account_id, u.type]));
  } finally {
    await ctx.dispose();
  }
}

/**
 * Accounts of this spec file: `offset` picks distinct simulator accounts per file (the run's
 * database is shared by every spec). Accounts this world already has with their type are not
 * made again: a file whose journeys run in parallel seeds once per worker (and again after a
 * worker restarts), and each sign-in costs the platform's relogin window.
 */
export async function seedBowling(baseURL: string, offset: number) {
  const bowlers = (await simAccounts("bowling")).slice(offset, offset + 3);
  const suppliers = (await simAccounts("supplier")).slice(offset, offset + 2);
  const recipients = (await simAccounts("recipient")).slice(offset, offset + 1);
  const have = await usersOf(baseURL);
  await createAccounts(
    baseURL,
    [
      ...bowlers.map((account) => ({ account, type: "bowling" as const })),
      ...suppliers.map((account) => ({ account, type: "suppliers" as const })),
      ...recipients.map((account) => ({ account, type: "recipients" as const })),
    ].filter(({ account, type }) => have.get(account.id) !== type),
  );
  return { bowlers, suppliers, recipients };
}

/** Deletes bowling accounts through DELETE /api/bowling-users/{id} (a spec's own accounts, so later specs do not see them). */
export async function deleteBowlers(baseURL: string, ids: string[]) {
  const ctx = await playwrightRequest.newContext({ baseURL, storageState: WORLD.storageState, extraHTTPHeaders: { Origin: baseURL } });
  try {
    for (const id of ids) {
      const res = await ctx.delete(`/api/bowling-users/${id}`);
      expect([200, 404], `delete ${id}: ${await res.text()}`).toContain(res.status());
    }
  } finally {
    await ctx.dispose();
  }
}
