import { beforeEach, expect, test } from "vitest";
import { runSeeders, SEEDERS } from "../../scripts/seed";
import { deleteAllRates, deleteRatePair, listRates, upsertRate } from "./rate.server";
import { DEMO_RATES, seedDemoRates } from "./rate.seed.server";

beforeEach(async () => {
  await deleteAllRates();
});

test("demo seed: every demo pair is written, with flat, tiered and disabled rows (spec 1 §3)", async () => {
  expect(await seedDemoRates()).toBe(DEMO_RATES.length);
  const map = await listRates();
  const rows = Object.values(map).flatMap((outputs) => Object.values(outputs));
  expect(rows).toHaveLength(DEMO_RATES.length);
  expect(rows.some((r) => r.rate !== undefined)).toBe(true);
  expect(rows.some((r) => (r.rates?.length ?? 0) > 1)).toBe(true);
  expect(rows.some((r) => !r.status)).toBe(true);
  expect(map["Fire Cannon Ball"]["Gold Ring"]).toMatchObject({ rate: "1/2", status: true });
});

test("issue 8 §2.9: the demo seed writes into an empty table only — edits and deletions survive every demo start", async () => {
  expect(await seedDemoRates()).toBe(DEMO_RATES.length);
  await upsertRate({ inputItem: "Fire Cannon Ball", outputItem: "Gold Ring", rates: "9", status: false });
  await deleteRatePair("Clay", "Fire Cannon Ball");
  const edited = await listRates();
  await runSeeders(["rates"], () => {});
  expect(await seedDemoRates()).toBe(0);
  expect(await listRates()).toEqual(edited);
  expect(edited["Fire Cannon Ball"]["Gold Ring"]).toMatchObject({ rate: "9", status: false });
  expect(edited["Clay"]).toBeUndefined();
});

test("the demo seed leaves an operator's own rates alone too", async () => {
  await upsertRate({ inputItem: "Clay", outputItem: "Gold Ring", rates: "7" });
  expect(await seedDemoRates()).toBe(0);
  expect(Object.values(await listRates()).flatMap(Object.keys)).toEqual(["Gold Ring"]);
});

test("npm run seed knows the rates seeder and refuses unknown names", async () => {
  expect(SEEDERS.map((s) => s.name)).toContain("rates");
  await expect(runSeeders(["nope"], () => {})).rejects.toThrow(/Unknown seeder: nope/);
});
