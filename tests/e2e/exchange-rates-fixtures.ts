import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Fixtures of the Exchange Rates journeys (spec 1 §2): seeding through /api/rates, locators. */

export type SeedEntry = {
  inputItem: string;
  outputItem: string;
  rates: string | number | Array<{ quantity: number; rate: string | number }>;
  status?: boolean;
};

/** Two inputs: Gold Ring (a flat and a tiered output) and Fire Cannon Ball (one disabled output). */
export const SEED: SeedEntry[] = [
  { inputItem: "Gold Ring", outputItem: "Clay", rates: "1/2", status: true },
  {
    inputItem: "Gold Ring",
    outputItem: "Silver Ring",
    rates: [
      { quantity: 0, rate: "1/3" },
      { quantity: 10, rate: "1/2" },
    ],
    status: true,
  },
  { inputItem: "Fire Cannon Ball", outputItem: "Green Light", rates: 1.5, status: false },
];

/** The gift catalogue in the spec's order (spec 1 §3, 15 entries). */
export const CATALOGUE = [
  "Fire Cannon Ball",
  "Green Light",
  "Explosive Cannon Ball",
  "Gold Cannon Ball",
  "Electric Bowling Ball",
  "Red Bowling Ball",
  "Green Bowling Ball",
  "Silver Ring",
  "Gold Ring",
  "Bronze Ring",
  "Diamond Skeleton Key",
  "Skeleton Key",
  "Collection Hungry Tomcat",
  "Collection Capybara",
  "Clay",
];

/**
 * Every catalogue pair (15 × 14 = 210, more than five of the section's pages; issue 20),
 * inputs in catalogue order. The last one, Clay → Collection Capybara, is on the last page.
 */
export const ALL_PAIRS: SeedEntry[] = CATALOGUE.flatMap((inputItem) =>
  CATALOGUE.filter((o) => o !== inputItem).map((outputItem) => ({ inputItem, outputItem, rates: "1/2", status: true })),
);

type RatesMap = Record<
  string,
  Record<string, { _id: string; rate?: string | number; rates?: Array<{ quantity: number; rate: string | number }>; status: boolean }>
>;

export async function getRates(request: APIRequestContext): Promise<RatesMap> {
  const res = await request.get("/api/rates");
  expect(res.ok(), `GET /api/rates answered ${res.status()}`).toBeTruthy();
  return res.json();
}

/** Empties the rates table, then adds `entries` (in order) as one batch. */
export async function resetRates(request: APIRequestContext, entries: SeedEntry[] = SEED) {
  for (const input of Object.keys(await getRates(request))) {
    const res = await request.delete(`/api/rates/input/${encodeURIComponent(input)}`);
    expect(res.ok(), `DELETE rates of ${input} answered ${res.status()}`).toBeTruthy();
  }
  if (entries.length) {
    const res = await request.post("/api/rates/batch", { data: { updates: entries } });
    expect(res.ok(), `batch answered ${res.status()}: ${await res.text()}`).toBeTruthy();
  }
}

/** Opens the section and waits until the page has hydrated (the "View settings" button is rendered only then). */
export async function openRates(page: Page, search = "") {
  await page.goto(`/exchange-rates${search}`);
  await expect(page.getByRole("heading", { level: 1, name: "Exchange Rates" })).toBeVisible();
  await expect(page.getByRole("button", { name: "View settings" })).toBeVisible();
}

/** The optimistic-updates switch, in the "View settings" popover. */
export async function optimisticSwitch(page: Page) {
  await page.getByRole("button", { name: "View settings" }).click();
  return page.getByRole("switch", { name: "Optimistic updates" });
}

export const group = (page: Page, input: string) => page.getByRole("region", { name: input, exact: true });

export const row = (page: Page, input: string, output: string) =>
  group(page, input)
    .locator("li.gt-rate-row")
    .filter({ has: page.locator(".gt-rate-name", { hasText: new RegExp(`^${escape(output)}$`) }) });

/** The groups' headings, in order: `await expect(groupHeadings(page)).toHaveText([...])` retries until the page shows them. */
export const groupHeadings = (page: Page) => page.locator(".gt-rate-group h2");

/**
 * A toast by its text. Located by the toaster's class rather than its "Notifications"
 * region: while a modal dialog is open Radix hides everything outside it from the
 * accessibility tree, the toaster included.
 */
export const toast = (page: Page, text: string | RegExp) => page.locator(".gt-toaster").getByText(text, { exact: typeof text === "string" });

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
