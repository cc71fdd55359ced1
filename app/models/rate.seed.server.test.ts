import { beforeEach, expect, test } from "vitest";
import { runSeeders, SEEDERS } from "../../scripts/seed";
import { deleteAllRates, listRates, upsertRate } from "./rate.server";
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

test("demo seed is idempotent and leaves other pairs alone", async () => {
  await upsertRate({ inputItem: "Clay", outputItem: "Gold Ring", rates: "7" });
  await seedDemoRates();
  await upsertRate({ inputItem: "Fire Cannon Ball", outputItem: "Gold Ring", rates: "9", status: false });
  const first = await listRates();
  await runSeeders(["rates"], () => {});
  const again = await listRates();
  expect(again["Fire Cannon Ball"]["Gold Ring"]).toEqual({ ...first["Fire Cannon Ball"]["Gold Ring"], rate: "1/2", status: true });
  expect(again["Clay"]["Gold Ring"].rate).toBe("7");
  expect(Object.values(again).flatMap(Object.keys)).toHaveLength(DEMO_RATES.length + 1);
});

test("npm run seed knows the rates seeder and refuses unknown names", async () => {
  expect(SEEDERS.map((s) => s.name)).toContain("rates");
  await expect(runSeeders(["nope"], () => {})).rejects.toThrow(/Unknown seeder: nope/);
});
