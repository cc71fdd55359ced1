import { expect, test, request as playwrightRequest } from "@playwright/test";
import { createAccounts } from "./bowling-fixtures";
import { simAccounts, type SimAccount } from "./characters-fixtures";
import { WORLD } from "./world";

/**
 * Issue 20 "Bounded pages" journeys: more characters than one page holds. 51 simulator
 * accounts (plain 5–39 and 44–59, which no other journey uses) are created through the app in
 * the group "zz-paging" — after every group the other journeys use, so their rows stay on
 * page 1 — and deleted again when the file ends (the run's database is shared by every spec).
 */
export const PAGING_GROUP = "zz-paging";
export const PAGE_SIZE = 50;

export async function pagingFleet(): Promise<SimAccount[]> {
  const plain = await simAccounts("plain");
  return [...plain.slice(5, 40), ...plain.slice(44, 60)];
}

export async function seedPagingFleet(baseURL: string): Promise<SimAccount[]> {
  const fleet = await pagingFleet();
  expect(fleet).toHaveLength(PAGE_SIZE + 1);
  await createAccounts(
    baseURL,
    fleet.map((account) => ({ account, type: PAGING_GROUP })),
  );
  return fleet;
}

export async function removePagingFleet(baseURL: string): Promise<void> {
  const ctx = await playwrightRequest.newContext({ baseURL, storageState: WORLD.storageState, extraHTTPHeaders: { Origin: baseURL } });
  try {
    for (const account of await pagingFleet()) {
      const res = await ctx.delete(`/api/users/${account.id}`);
      expect([200, 404], `delete ${account.id}: ${await res.text()}`).toContain(res.status());
    }
  } finally {
    await ctx.dispose();
  }
}

/** The spec file's fleet: seeded before its journeys, removed after them (both can be slow on a loaded machine). */
export function withPagingFleet() {
  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(180_000);
    await seedPagingFleet(baseURL!);
  });
  test.afterAll(async ({ baseURL }) => {
    test.setTimeout(120_000);
    await removePagingFleet(baseURL!);
  });
}
