import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { ads, bowlingCompanions, categories, customPlanets, exchangeRates, planetSequences } from "~/db/schema";
import { upsertRate } from "~/models/rate.server";
import { upsertUser } from "~/models/user.server";
import { describeTarget, fallbackTarget } from "./audit-target.server";

/**
 * Issue 28: the audit trail names what a write changed as the screens do, from the route's
 * parameters and the request's fields, looking ids up in the real database.
 */
const ids: Record<string, string> = {};

beforeAll(async () => {
  const db = await getDb();
  await upsertUser({ accountId: "123456", nick: "Kazensar", password: "p".repeat(32), type: "bowling" });
  await upsertUser({ accountId: "223344", nick: "Supplio", password: "p".repeat(32), type: "suppliers" });
  await upsertUser({ accountId: "334455", nick: "Recipia", password: "p".repeat(32), type: "recipients" });
  ids.category = (await db.insert(categories).values({ value: "farmers" }).returning())[0]!.id;
  await upsertRate({ inputItem: "Gold Ring", outputItem: "Silver Ring", rates: "1/2" });
  ids.rate = (await db.select().from(exchangeRates))[0]!.id;
  ids.sequence = (await db.insert(planetSequences).values({ name: "Morning loop", steps: [] }).returning())[0]!.id;
  ids.planet = (await db.insert(customPlanets).values({ name: "Nebula", type: "english" }).returning())[0]!.id;
  ids.ad = (await db.insert(ads).values({ adsMessage: "Selling rings cheap\nsecond line" }).returning())[0]!.id;
  ids.companion = (await db.insert(bowlingCompanions).values({ bowlingId: "123456", supplier: "223344", consumer: "334455" }).returning())[0]!.id;
});

const name = (pattern: string, fields: Record<string, unknown> = {}, params: Record<string, string> = {}) => describeTarget({ pattern, params, fields });

describe("describeTarget", () => {
  it("names rows by what the screens show", async () => {
    expect(await name("/api/users/:id", {}, { id: "123456" })).toBe("Kazensar (123456)");
    expect(await name("/api/users/:id", {}, { id: "999" })).toBe("account 999");
    expect(await name("/characters", { intent: "delete-category", id: ids.category })).toBe("farmers");
    expect(await name("/api/categories/:id", {}, { id: ids.category! })).toBe("farmers");
    expect(await name("/api/rates/:id", {}, { id: ids.rate! })).toBe("Gold Ring → Silver Ring");
    expect(await name("/exchange-rates", { intent: "add", inputItem: "Gold Ring", "outputs[0].outputItem": "Clay", "outputs[1].outputItem": "Silk" })).toBe(
      "Gold Ring → Clay, Gold Ring → Silk",
    );
    expect(await name("/api/rates/input/:inputItem", {}, { inputItem: "Gold Ring" })).toBe("Gold Ring → every output");
    expect(await name("/api/rates/batch", { updates: [1, 2, 3, 4, 5].map((n) => ({ inputItem: "Gold Ring", outputItem: `Gift ${n}` })) })).toBe(
      "Gold Ring → Gift 1, Gold Ring → Gift 2, Gold Ring → Gift 3 and 2 more",
    );
    expect(await name("/exchange-rates", { intent: "import", data: JSON.stringify({ "Gold Ring": { Clay: "1/2" } }) })).toBe("Gold Ring → Clay");
    expect(await name("/api/planet-sequences/:id", {}, { id: ids.sequence! })).toBe('sequence "Morning loop"');
    expect(await name("/trading-planets", { intent: "planet-delete", id: ids.planet })).toBe('planet "Nebula"');
    expect(await name("/api/ads/:id", {}, { id: ids.ad! })).toBe('ad "Selling rings cheap"');
    expect(await name("/api/bowling-companions/:id", {}, { id: ids.companion! })).toBe("companion of Kazensar (123456)");
    expect(await name("/api/user-agent", { "123456": { headers: "{}" } })).toBe("Kazensar (123456)");
    expect(await name("/api/stalker/start", { accountId: "123456" })).toBe("Kazensar (123456)");
  });

  it("names the one thing a write without a row acts on", async () => {
    expect(await name("/api/bot/start")).toBe("GalaCord bot");
    expect(await name("/characters", { intent: "refresh" })).toBe("all characters");
    expect(await name("/gifts", { intent: "refresh" })).toBe("bowling users");
    expect(await name("/api/logs/cleanup")).toBe("System Logs");
  });

  it("falls back to the request's own words, never empty, never a value", () => {
    expect(fallbackTarget("POST /somewhere", { secretish: "x", intent: "go" })).toBe("POST /somewhere (fields: secretish)");
    expect(fallbackTarget("")).toBe("(unnamed request)");
  });
});
