/**
 * Daily totals (spec 2 §3 "Daily total", §7 daily-totals) and gift rates against real
 * PostgreSQL, pulled over real HTTP from the simulator's daily-stats action.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { dailyStatsOf, resetServicesFigures } from "#sim/services-data";
import { getDb } from "~/db/client.server";
import { dailyAwards, giftRates, users } from "~/db/schema";
import { getUserAgent } from "~/models/user-agent.server";
import { GalaxyServices } from "~/galaxy/services.server";
import { buildServicesConfig } from "~/galaxy/services-config";
import { getEnv, resetEnv } from "~/utils/env.server";
import { pullDailyStats } from "~/platform/daily-stats.server";
import { addDays, dailyTotals, dayIn, DEFAULT_SUMMARY_TIME_ZONE, upsertDailyRows } from "./daily-totals.server";
import { getGiftRates, replaceGiftRates } from "./gift-rates.server";
import { chartPoints, loadSummary } from "./summary.server";
import { upsertUser } from "./user.server";

let sim: Simulator;
let services: GalaxyServices;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  services = new GalaxyServices({ baseUrl: sim.servicesUrl, config: buildServicesConfig(), userAgents: getUserAgent });
});
afterAll(async () => {
  services.close();
  await sim.close();
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(dailyAwards);
  await db.delete(giftRates);
  await db.delete(users);
  sim.world.reset();
  resetServicesFigures(sim.world);
});

const bowlers = () => sim.world.accounts.filter((a) => a.kind === "bowling");

describe("pullDailyStats: every bowling account's daily stats into daily_awards", () => {
  it("stores one row per account and day, from the simulator over HTTP, and only for type bowling", async () => {
    const [a, b] = bowlers();
    const other = sim.world.accounts.find((x) => x.kind !== "bowling")!;
    await upsertUser({ accountId: a!.id, nick: "A", password: a!.password, type: "bowling" });
    await upsertUser({ accountId: b!.id, nick: "B", password: b!.password, type: "bowling" });
    await upsertUser({ accountId: other.id, nick: "O", password: other.password, type: "stalker" });
    const result = await pullDailyStats({ services });
    expect(result).toEqual({ accounts: 2, rows: 14, failed: [] });
    const db = await getDb();
    const rows = await db.select().from(dailyAwards);
    expect(rows).toHaveLength(14);
    expect(new Set(rows.map((r) => r.accountId))).toEqual(new Set([a!.id, b!.id]));
    for (const day of dailyStatsOf(sim.world, a!, 7)) {
      const row = rows.find((r) => r.accountId === a!.id && r.day === day.date)!;
      expect(row.awards).toEqual(day.awards);
      expect(row.ballStats).toEqual(day.spent);
    }
  });

  it("a failing account (wrong password) is reported; the others are stored", async () => {
    const [a, b] = bowlers();
    await upsertUser({ accountId: a!.id, nick: "A", password: a!.password, type: "bowling" });
    await upsertUser({ accountId: b!.id, nick: "B", password: "wrong-password", type: "bowling" });
    const result = await pullDailyStats({ services });
    expect(result.accounts).toBe(2);
    expect(result.failed.map((f) => f.accountId)).toEqual([b!.id]);
    const db = await getDb();
    const rows = await db.select().from(dailyAwards);
    expect(rows.filter((r) => r.accountId === a!.id)).toHaveLength(7);
    expect(rows).toHaveLength(7);
    expect(result.rows).toBe(7);
  });

  it("keeps history the platform no longer returns, and a later pull replaces a day's figures (upsert)", async () => {
    const [a] = bowlers();
    await upsertUser({ accountId: a!.id, nick: "A", password: a!.password, type: "bowling" });
    const today = dayIn(DEFAULT_SUMMARY_TIME_ZONE);
    await upsertDailyRows([
      { accountId: a!.id, day: "2020-01-01", awards: { Clay: 1 }, ballStats: {} },
      { accountId: a!.id, day: today, awards: { Clay: 999 }, ballStats: {} },
    ]);
    await pullDailyStats({ services });
    const db = await getDb();
    const rows = await db.select().from(dailyAwards);
    expect(rows.find((r) => r.day === "2020-01-01")?.awards).toEqual({ Clay: 1 });
    const simToday = dailyStatsOf(sim.world, a!, 7).find((d) => d.date === today);
    if (simToday) expect(rows.find((r) => r.day === today)?.awards).toEqual(simToday.awards);
    expect(rows.filter((r) => r.day === today)).toHaveLength(1);
  });
});

describe("dailyTotals: the last 7 days summed across accounts (Europe/Moscow days)", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  it("sums per day, newest first, leaves out days outside the window and days without rows", async () => {
    await upsertDailyRows([
      { accountId: "1", day: "2026-11-23", awards: { Clay: 2 }, ballStats: { "Fire Cannon Ball": 5 } },
      { accountId: "2", day: "2026-11-23", awards: { Clay: 3, "Silver Ring": 1 }, ballStats: { "Fire Cannon Ball": 1 } },
      { accountId: "1", day: "2026-11-17", awards: { Clay: 1 }, ballStats: {} },
      { accountId: "1", day: "2026-11-16", awards: { Clay: 100 }, ballStats: {} },
      { accountId: "1", day: "2026-11-24", awards: { Clay: 100 }, ballStats: {} },
    ]);
    expect(await dailyTotals(7, now)).toEqual([
      { date: "2026-11-23", awards: { Clay: 5, "Silver Ring": 1 }, ballStats: { "Fire Cannon Ball": 6 } },
      { date: "2026-11-17", awards: { Clay: 1 }, ballStats: {} },
    ]);
  });
  it("the day is Moscow's: 22:30 UTC on the 23rd is already the 24th", async () => {
    expect(dayIn(DEFAULT_SUMMARY_TIME_ZONE, new Date("2026-11-23T22:30:00Z"))).toBe("2026-11-24");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    await upsertDailyRows([{ accountId: "1", day: "2026-11-24", awards: { Clay: 1 }, ballStats: {} }]);
    expect((await dailyTotals(7, new Date("2026-11-23T22:30:00Z"))).map((d) => d.date)).toEqual(["2026-11-24"]);
  });
});

describe("SUMMARY_TIME_ZONE makes the day boundary configurable (docs/summary.md)", () => {
  afterEach(() => {
    delete process.env.SUMMARY_TIME_ZONE;
    resetEnv();
  });
  it("UTC: 22:30 UTC on the 23rd is still the 23rd", async () => {
    process.env.SUMMARY_TIME_ZONE = "UTC";
    resetEnv();
    await upsertDailyRows([
      { accountId: "1", day: "2026-11-24", awards: { Clay: 1 }, ballStats: {} },
      { accountId: "1", day: "2026-11-23", awards: { Clay: 2 }, ballStats: {} },
    ]);
    expect((await dailyTotals(7, new Date("2026-11-23T22:30:00Z"))).map((d) => d.date)).toEqual(["2026-11-23"]);
  });
  it("an unknown zone is refused when the environment is read", () => {
    process.env.SUMMARY_TIME_ZONE = "Mars/Olympus";
    resetEnv();
    expect(() => getEnv()).toThrow(/IANA time zone/);
  });
});

describe("gift rates: a save replaces the whole set; rates ≤ 0 dropped (spec 2 §5)", () => {
  it("replaces, drops non-positive", async () => {
    await replaceGiftRates({ Clay: 2.5, "Silver Ring": 3 });
    expect(await getGiftRates()).toEqual({ Clay: 2.5, "Silver Ring": 3 });
    await replaceGiftRates({ "Fire Cannon Ball": 1, Clay: 0, "Skeleton Key": -1 });
    expect(await getGiftRates()).toEqual({ "Fire Cannon Ball": 1 });
    await replaceGiftRates({});
    expect(await getGiftRates()).toEqual({});
  });
  it("keeps 1/3 exactly enough for the load conversion", async () => {
    await replaceGiftRates({ Clay: 1 / 3 });
    expect((await getGiftRates()).Clay).toBe(1 / 3);
  });
});

describe("loadSummary", () => {
  it("gives totals, rates and a 7-point net chart (oldest first, missing days 0)", async () => {
    const now = new Date();
    const today = dayIn(DEFAULT_SUMMARY_TIME_ZONE, now);
    await replaceGiftRates({ Clay: 2, "Fire Cannon Ball": 1 });
    await upsertDailyRows([{ accountId: "1", day: today, awards: { Clay: 10 }, ballStats: { "Fire Cannon Ball": 3 } }]);
    const s = await loadSummary(undefined, now);
    expect(s.failed).toBe(false);
    expect(s.dailyTotals).toHaveLength(1);
    expect(s.chart).toHaveLength(7);
    expect(s.chart!.at(-1)).toEqual({ date: today, net: 2 });
    expect(s.chart!.slice(0, 6).every((p) => p.net === 0)).toBe(true);
  });
  it("no chart without rates", () => {
    expect(chartPoints([], {}, "2026-11-23")).toBeNull();
  });
});
