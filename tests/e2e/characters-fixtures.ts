import type { Page } from "@playwright/test";

/** The run's Galaxy simulator (started by global-setup.ts on E2E_PORT + 1000). */
export const SIM_URL = `http://127.0.0.1:${Number(process.env.E2E_SIM_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 1000)}`;

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

/** Sets simulator faults (partial merge), e.g. `{ latencyMs: 800 }` delays every line the socket sends. */
export async function simFaults(faults: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${SIM_URL}/__sim/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(faults) });
  if (!res.ok) throw new Error(`POST /__sim/faults answered ${res.status}: ${await res.text()}`);
}
