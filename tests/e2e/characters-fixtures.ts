import type { Page } from "@playwright/test";
import { WORLD } from "./world";

/** This worker's world's Galaxy simulator (tests/e2e/world.ts; global-setup.ts starts it). */
export const SIM_URL = WORLD.simUrl;

export type SimAccount = { id: string; nick: string; recoveryCode: string; kind?: string };

/** Seeded accounts of one kind, with recovery codes (GET /__sim/accounts). */
export async function simAccounts(kind: string): Promise<SimAccount[]> {
  const res = await fetch(`${SIM_URL}/__sim/accounts?kind=${kind}`);
  if (!res.ok) throw new Error(`GET /__sim/accounts answered ${res.status}`);
  return ((await res.json()) as { accounts: SimAccount[] }).accounts;
}

export const toast = (page: Page, text: string | RegExp) => page.locator(".gt-toaster").getByText(text, { exact: typeof text === "string" });

export const characterRow = (page: Page, accountId: string) => page.locator(`[data-testid="character-row"][data-account="${accountId}"]`);

export const group = (page: Page, name: string) => page.getByRole("region", { name: `${name} Characters` });
