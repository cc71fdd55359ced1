import { describe, expect, it } from "vitest";
import {
  dayLabel,
  dropNonPositive,
  formatNet,
  formatReceived,
  formatSpent,
  GIFT_RATE_NAMES,
  pairsToRates,
  parseRateInput,
  giftRateInputError,
  GIFT_RATE_INPUT_ERRORS,
  FIREBALLS_MAX,
  rateToPair,
  valueDay,
} from "./summary";
import { giftRatesBodySchema } from "./summary-schemas";

describe("spec 2 §3 Gift rates: the 8 gift names", () => {
  it("lists them in the spec's order", () => {
    expect(GIFT_RATE_NAMES).toEqual([
      "Clay",
      "Fire Cannon Ball",
      "Skeleton Key",
      "Silver Ring",
      "Electric Bowling Ball",
      "Red Bowling Ball",
      "Green Bowling Ball",
      "Collection Capybara",
    ]);
  });
});

describe("spec 2 §5: on load, each rate above 0 is turned into a prize and fireball pair by the smallest multiplier up to 1000 that makes the product whole within 0.0001", () => {
  it("whole rates use multiplier 1", () => {
    expect(rateToPair(5)).toEqual({ prize: 5, fireballs: 1 });
  });
  it("fractions find the smallest multiplier", () => {
    expect(rateToPair(2.5)).toEqual({ prize: 5, fireballs: 2 });
    expect(rateToPair(0.25)).toEqual({ prize: 1, fireballs: 4 });
    expect(rateToPair(1 / 3)).toEqual({ prize: 1, fireballs: 3 });
    expect(rateToPair(7 / 12)).toEqual({ prize: 7, fireballs: 12 });
  });
  it("within 0.0001: 0.33333 × 3 = 0.99999 counts as whole", () => {
    expect(rateToPair(0.33333)).toEqual({ prize: 1, fireballs: 3 });
  });
  it("multipliers stop at 1000 (1/997 found, 1/1001 falls back to 1000)", () => {
    expect(rateToPair(1 / 997)).toEqual({ prize: 1, fireballs: 997 });
    expect(rateToPair(1 / 1001)).toEqual({ prize: 1, fireballs: 1000 });
  });
  it("rates of 0 or below are dropped", () => {
    expect(rateToPair(0)).toBeNull();
    expect(rateToPair(-2)).toBeNull();
    expect(rateToPair(Number.NaN)).toBeNull();
    expect(dropNonPositive({ Clay: 0, "Silver Ring": -1, "Skeleton Key": 2, Unknown: 3 })).toEqual({ "Skeleton Key": 2 });
  });
});

describe("spec 2 §5: gift rate inputs are numeric, minimum 0, whole numbers, empty is 0", () => {
  it("parses whole numbers and empty", () => {
    expect(parseRateInput("")).toBe(0);
    expect(parseRateInput("  ")).toBe(0);
    expect(parseRateInput(undefined)).toBe(0);
    expect(parseRateInput("12")).toBe(12);
  });
  it("refuses negatives, decimals and text", () => {
    for (const t of ["-1", "1.5", "abc", "1e3", "99999999999999999999"]) expect(parseRateInput(t)).toBeNull();
  });
});

describe("spec 2 §5: on save only entries where both prize and fireball count are non-zero are sent, each as prize divided by fireballs", () => {
  it("sends prize / fireballs for complete pairs only", () => {
    expect(
      pairsToRates({
        Clay: { prize: 5, fireballs: 2 },
        "Fire Cannon Ball": { prize: 1, fireballs: 1 },
        "Skeleton Key": { prize: 0, fireballs: 3 },
        "Silver Ring": { prize: 4, fireballs: 0 },
      }),
    ).toEqual({ Clay: 2.5, "Fire Cannon Ball": 1 });
  });
  it("round-trips with the load conversion", () => {
    for (const rate of [2.5, 0.25, 1 / 3, 40, 7 / 12]) {
      const pair = rateToPair(rate)!;
      expect(pairsToRates({ Clay: pair }).Clay).toBeCloseTo(rate, 10);
    }
  });
});

describe("spec 2 §2 totals: spent with a minus sign, received with a plus sign, net plus when zero or more, one decimal; §5 gifts with no known rate are ignored", () => {
  const rates = { Clay: 4, "Fire Cannon Ball": 1, "Silver Ring": 0.5 };
  it("values counts as count / rate FCB", () => {
    const v = valueDay({ ballStats: { "Fire Cannon Ball": 10, Clay: 2, Mystery: 100 }, awards: { "Silver Ring": 3, Clay: 8 } }, rates)!;
    expect(v.spent).toBeCloseTo(10.5);
    expect(v.received).toBeCloseTo(8);
    expect(v.net).toBeCloseTo(-2.5);
    expect([formatSpent(v.spent), formatReceived(v.received), formatNet(v.net)]).toEqual(["-10.5", "+8.0", "-2.5"]);
  });
  it("totals appear only if gift rates exist", () => {
    expect(valueDay({ ballStats: { Clay: 1 }, awards: {} }, {})).toBeNull();
    expect(valueDay({ ballStats: { Clay: 1 }, awards: {} }, { Clay: 0 })).toBeNull();
  });
  it("net is + when zero or more, also for values that round to zero", () => {
    expect(formatNet(0)).toBe("+0.0");
    expect(formatNet(-0.04)).toBe("+0.0");
    expect(formatNet(-0.05)).toBe("-0.1");
    expect(formatNet(3.26)).toBe("+3.3");
    expect(formatSpent(0)).toBe("-0.0");
    expect(formatReceived(1.25)).toBe("+1.3");
  });
  it("rows show the day number and month abbreviation", () => {
    expect(dayLabel("2026-11-03")).toEqual({ day: "3", month: "Nov" });
    expect(dayLabel("2026-01-31")).toEqual({ day: "31", month: "Jan" });
  });
});

describe("POST /api/gift-rates body (spec 2 §7)", () => {
  it("accepts the 8 names with numbers ≥ 0", () => {
    expect(giftRatesBodySchema.safeParse({ rates: { Clay: 2.5, "Fire Cannon Ball": 0 } }).success).toBe(true);
    expect(giftRatesBodySchema.safeParse({ rates: {} }).success).toBe(true);
  });
  it("refuses unknown names, negatives, non-numbers and missing rates", () => {
    for (const body of [
      { rates: { Gold: 1 } },
      { rates: { Clay: -1 } },
      { rates: { Clay: "2" } },
      { rates: { Clay: null } },
      {},
      { rates: [] },
      { rates: { Clay: 1 }, extra: 1 },
      null,
    ])
      expect(giftRatesBodySchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
  });
});

describe("issue 19 item 7: why a Gift Rates input is refused", () => {
  it("names the reason: not a whole number ≥ 0, a prize too large, fireballs above the §5 multiplier cap", () => {
    expect(giftRateInputError("", "")).toBeNull();
    expect(giftRateInputError("3", "1000")).toBeNull();
    for (const bad of ["-5", "1.5", "1e3", "abc"]) {
      expect(giftRateInputError(bad, "1")).toBe(GIFT_RATE_INPUT_ERRORS.notWhole);
      expect(giftRateInputError("1", bad)).toBe(GIFT_RATE_INPUT_ERRORS.notWhole);
    }
    expect(giftRateInputError("99999999999999999999", "1")).toBe(GIFT_RATE_INPUT_ERRORS.prizeTooLarge);
    expect(giftRateInputError("1000001", "1")).toBe(GIFT_RATE_INPUT_ERRORS.prizeTooLarge);
    expect(giftRateInputError("1", "1001")).toBe(GIFT_RATE_INPUT_ERRORS.fireballsTooLarge);
    expect(giftRateInputError("1", "99999999999999999999")).toBe(GIFT_RATE_INPUT_ERRORS.fireballsTooLarge);
    expect(GIFT_RATE_INPUT_ERRORS.fireballsTooLarge).toBe("FCB: at most 1,000 (a rate is read back with at most 1,000 fireballs)");
  });

  it("every accepted pair reads back as the same rate (the cap keeps the round trip)", () => {
    for (const [prize, fireballs] of [
      [1, FIREBALLS_MAX],
      [999, 997],
      [1_000_000, 999],
      [7, 3],
    ] as const) {
      const rate = prize / fireballs;
      const back = rateToPair(rate)!;
      expect(back.prize / back.fireballs).toBeCloseTo(rate, 12);
    }
  });
});
