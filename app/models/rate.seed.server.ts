import type { RateEntry, Tier } from "#api/rates";
import { batchUpsert, hasAnyRate } from "./rate.server";

/**
 * Demo exchange rates for a first look (`npm run seed`). Every gift is from the catalogue
 * (spec 1 §3); the set shows each kind of row the section has: flat fractions and decimals,
 * quantity tiers (a default tier plus "from N gifts" tiers), and a few disabled pairs.
 * The rates are made up: the spec gives no real ones.
 */
const t = (...tiers: Array<[quantity: number, rate: string | number]>): Tier[] => tiers.map(([quantity, rate]) => ({ quantity, rate }));

export const DEMO_RATES: readonly RateEntry[] = [
  // What one Fire Cannon Ball buys.
  { inputItem: "Fire Cannon Ball", outputItem: "Gold Ring", rates: "1/2" },
  { inputItem: "Fire Cannon Ball", outputItem: "Silver Ring", rates: 1.5 },
  { inputItem: "Fire Cannon Ball", outputItem: "Bronze Ring", rates: t([0, "2"], [50, "2.5"], [200, "3"]) },
  { inputItem: "Fire Cannon Ball", outputItem: "Clay", rates: t([0, 10], [100, 12]) },
  { inputItem: "Fire Cannon Ball", outputItem: "Collection Capybara", rates: "1/4", status: false },
  // Cannon balls for one another.
  { inputItem: "Explosive Cannon Ball", outputItem: "Fire Cannon Ball", rates: "3/2" },
  { inputItem: "Explosive Cannon Ball", outputItem: "Gold Cannon Ball", rates: "1/3" },
  { inputItem: "Explosive Cannon Ball", outputItem: "Green Light", rates: t([0, "1/2"], [25, "2/3"], [100, "3/4"]) },
  { inputItem: "Gold Cannon Ball", outputItem: "Fire Cannon Ball", rates: "5" },
  { inputItem: "Gold Cannon Ball", outputItem: "Diamond Skeleton Key", rates: "1/10" },
  { inputItem: "Gold Cannon Ball", outputItem: "Gold Ring", rates: t([0, 2], [20, 2.25]) },
  // Bowling balls.
  { inputItem: "Electric Bowling Ball", outputItem: "Red Bowling Ball", rates: "2" },
  { inputItem: "Electric Bowling Ball", outputItem: "Green Bowling Ball", rates: "2" },
  { inputItem: "Electric Bowling Ball", outputItem: "Fire Cannon Ball", rates: t([0, "1/2"], [10, "0.6"], [50, "0.75"]), status: false },
  { inputItem: "Red Bowling Ball", outputItem: "Green Bowling Ball", rates: "1" },
  { inputItem: "Red Bowling Ball", outputItem: "Clay", rates: 4 },
  { inputItem: "Green Bowling Ball", outputItem: "Red Bowling Ball", rates: "1" },
  // Rings and keys.
  { inputItem: "Gold Ring", outputItem: "Silver Ring", rates: "3" },
  { inputItem: "Gold Ring", outputItem: "Bronze Ring", rates: t([0, 5], [30, 6]) },
  { inputItem: "Silver Ring", outputItem: "Bronze Ring", rates: "5/3" },
  { inputItem: "Diamond Skeleton Key", outputItem: "Skeleton Key", rates: "4" },
  { inputItem: "Diamond Skeleton Key", outputItem: "Gold Cannon Ball", rates: t([0, "8"], [5, "9"], [20, "10"]) },
  { inputItem: "Skeleton Key", outputItem: "Bronze Ring", rates: "1/2", status: false },
  // Collections and Clay.
  { inputItem: "Collection Hungry Tomcat", outputItem: "Fire Cannon Ball", rates: "2/5" },
  { inputItem: "Collection Capybara", outputItem: "Fire Cannon Ball", rates: "3/5" },
  { inputItem: "Collection Capybara", outputItem: "Green Light", rates: 1.25 },
  { inputItem: "Clay", outputItem: "Fire Cannon Ball", rates: "1/12" },
];

/**
 * Writes the demo set (one transaction) into an empty rates table only. Once there is any
 * rate — the demo's own, edited or not, or the operator's — seeding leaves the table alone:
 * `npm start -- --demo` seeds on every start, and must not overwrite edits to demo pairs or
 * bring deleted ones back. Returns the number of pairs written (0 when skipped).
 */
export async function seedDemoRates(): Promise<number> {
  if (await hasAnyRate()) return 0;
  return batchUpsert(DEMO_RATES.map((entry) => ({ status: true, ...entry })));
}
