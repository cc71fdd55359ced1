/**
 * Data for bench/rates.ts. The catalogue has 15 gifts, so at most 15 × 14 = 210 distinct
 * pairs; the benchmark needs 1,000 and 5,000. It adds synthetic gift names ("Bench Gift
 * 001", …) after the 15 real ones and lets the app accept them through
 * `allowExtraGiftNames` (bench/rates-preload.ts does it inside the server process).
 * Nothing else about the code path changes: the gift check is a Set lookup either way.
 */
import type { RateEntry, Tier } from "#api/rates";
import { GIFT_NAMES } from "~/data/gifts";

/** Enough synthetic names for 10,000 pairs (101 gifts × 100 outputs; issue 32: the list bench crashed at 10,000 with 80). */
export const EXTRA_GIFT_COUNT = 150;

export function benchGiftNames(count = EXTRA_GIFT_COUNT): string[] {
  return Array.from({ length: count }, (_, i) => `Bench Gift ${String(i + 1).padStart(3, "0")}`);
}

/**
 * `count` distinct pairs over the fewest names that give that many (the catalogue first):
 * 1,000 pairs → 33 inputs of ~30 outputs; 5,000 → 72 inputs of ~70. The rate mix follows
 * the demo data: mostly flat fractions, some decimals, a quarter tiered (3 tiers), one in
 * ten disabled.
 */
export function benchPairs(count: number): RateEntry[] {
  let n = 2;
  while (n * (n - 1) < count) n++;
  const names = [...GIFT_NAMES, ...benchGiftNames(Math.max(0, n - GIFT_NAMES.length))].slice(0, n);
  const out: RateEntry[] = [];
  for (const inputItem of names) {
    for (const outputItem of names) {
      if (inputItem === outputItem) continue;
      const i = out.length;
      if (i === count) return out;
      out.push({ inputItem, outputItem, rates: rateFor(i), status: i % 10 !== 9 });
    }
  }
  return out;
}

function rateFor(i: number): string | number | Tier[] {
  switch (i % 4) {
    case 0:
      return `${(i % 7) + 1}/${(i % 5) + 2}`;
    case 1:
      return Number((((i % 40) + 1) / 8).toFixed(3));
    case 2:
      return String(((i % 9) + 1) * 0.25);
    default:
      return [
        { quantity: 0, rate: `1/${(i % 3) + 2}` },
        { quantity: 50, rate: "0.6" },
        { quantity: 200, rate: 0.75 },
      ];
  }
}
