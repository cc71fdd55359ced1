/**
 * The /api contract of the Summary panel and Gift Rates (spec 2 §2, §3, §5, §7; spec 1 §2, §7),
 * shared by the resource routes, the page action and the panel. Client-safe and zod-free
 * (the schemas live in api/summary-schemas.ts so the panel does not ship zod on first load).
 *
 *   GET  /api/gift-rates                   → { rates: { [giftName]: number } }
 *   POST /api/gift-rates { rates }         → { rates } (replaces the whole set; rates ≤ 0 dropped)
 *   GET  /api/bowling-awards/daily-totals  → { dailyTotals: [{ date, awards, ballStats }] }
 *
 * Valuation (docs/summary.md [D] "valuation"): a rate r of gift g is "prize units per one
 * fireball", i.e. r pieces of g are worth one Fire Cannon Ball, so n pieces are worth n / r FCB.
 */

/** Spec 2 §3 "Gift rates": the 8 gift names, in the spec's order; FCB is the unit. */
export const GIFT_RATE_NAMES = [
  "Clay",
  "Fire Cannon Ball",
  "Skeleton Key",
  "Silver Ring",
  "Electric Bowling Ball",
  "Red Bowling Ball",
  "Green Bowling Ball",
  "Collection Capybara",
] as const;
export type GiftRateName = (typeof GIFT_RATE_NAMES)[number];
export const RATE_UNIT = "Fire Cannon Ball";
export const RATE_UNIT_NICK = "FCB";

export type GiftRates = Partial<Record<GiftRateName, number>>;
export type DailyTotal = { date: string; awards: Record<string, number>; ballStats: Record<string, number> };

/** Spec 2 §9 "Summary window": 7 days; 2 rows collapsed. */
export const SUMMARY_DAYS = 7;
export const SUMMARY_COLLAPSED_ROWS = 2;

/** Spec 2 §2 / §8 texts. */
export const SUMMARY_TEXTS = {
  title: "Summary",
  giftRates: "Gift Rates",
  empty: "No records found for the last 7 days",
  loadFailed: "Failed to load daily totals",
} as const;
export const GIFT_RATE_ERRORS = {
  loadFailed: "Failed to load gift rates",
  saveFailed: "Failed to save gift rates",
  saved: "Gift rates saved",
} as const;

/**
 * The intent of the Gift Rates form without JavaScript, posted to the page that hosts the
 * dialog (All Characters, Bowling Bots), so a refusal renders it open with what was typed
 * (issue 30 A6, docs/decisions/0047). The resource route /summary/gift-rates takes `save`.
 */
export const GIFT_RATES_INTENT = "save-gift-rates";

export function isGiftRateName(name: string): name is GiftRateName {
  return (GIFT_RATE_NAMES as readonly string[]).includes(name);
}

/** Spec 2 §5: "Rates of 0 or below are dropped." (also non-finite values). */
export function dropNonPositive(rates: Record<string, number>): GiftRates {
  const out: GiftRates = {};
  for (const name of GIFT_RATE_NAMES) {
    const r = rates[name];
    if (typeof r === "number" && Number.isFinite(r) && r > 0) out[name] = r;
  }
  return out;
}

export type RatePair = { prize: number; fireballs: number };

/**
 * Spec 2 §5: "On load, each rate above 0 is turned into a prize and fireball pair by finding
 * the smallest multiplier up to 1000 that makes the product whole within 0.0001."
 * The multiplier is the fireball count, the rounded product the prize. When no multiplier up
 * to 1000 works, 1000 is used with the product rounded (the closest pair we can show).
 * Rates of 0 or below (or not numbers) give null: they are dropped.
 */
export function rateToPair(rate: number): RatePair | null {
  if (!Number.isFinite(rate) || rate <= 0) return null;
  for (let m = 1; m <= 1000; m++) {
    const product = rate * m;
    if (Math.abs(product - Math.round(product)) < 0.0001) return { prize: Math.round(product), fireballs: m };
  }
  return { prize: Math.round(rate * 1000), fireballs: 1000 };
}

/**
 * Spec 2 §5: "Gift rate inputs: numeric, minimum 0, whole numbers, empty is 0."
 * Returns the whole number, or null when the text is not a whole number ≥ 0.
 */
export function parseRateInput(text: string | null | undefined): number | null {
  const t = (text ?? "").trim();
  if (t === "") return 0;
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** Spec 2 §5 / §9 "Rate search multiplier cap": a rate is read back with at most 1000 fireballs. */
export const FIREBALLS_MAX = 1000;
/**
 * [D] The largest prize: above it the read-back multiplier search of spec 2 §5 (tolerance
 * 0.0001) can no longer tell a whole product from float noise, so the pair would come back changed.
 */
export const PRIZE_MAX = 1_000_000;

/** Why a Gift Rates input is refused (issue 19 item 7: say why Save is disabled). */
export const GIFT_RATE_INPUT_ERRORS = {
  notWhole: "Whole numbers of 0 or more only",
  prizeTooLarge: `Prize: at most ${PRIZE_MAX.toLocaleString("en-US")}`,
  fireballsTooLarge: `${RATE_UNIT_NICK}: at most ${FIREBALLS_MAX.toLocaleString("en-US")} (a rate is read back with at most ${FIREBALLS_MAX.toLocaleString("en-US")} fireballs)`,
} as const;

/**
 * What is wrong with one gift's prize and fireball texts (spec 2 §5: whole numbers, minimum 0,
 * empty is 0; fireballs up to the multiplier cap, so what is saved reads back the same), or null.
 */
export function giftRateInputError(prize: string | null | undefined, fireballs: string | null | undefined): string | null {
  const p = parseRateInput(prize);
  const f = parseRateInput(fireballs);
  const digits = (t: string | null | undefined) => /^\d+$/.test((t ?? "").trim());
  if ((p === null && !digits(prize)) || (f === null && !digits(fireballs))) return GIFT_RATE_INPUT_ERRORS.notWhole;
  if (p === null || p > PRIZE_MAX) return GIFT_RATE_INPUT_ERRORS.prizeTooLarge;
  if (f === null || f > FIREBALLS_MAX) return GIFT_RATE_INPUT_ERRORS.fireballsTooLarge;
  return null;
}

/**
 * Spec 2 §5: "On save only entries where both prize and fireball count are non-zero are sent,
 * each as prize divided by fireballs."
 */
export function pairsToRates(pairs: Partial<Record<string, RatePair>>): GiftRates {
  const out: GiftRates = {};
  for (const name of GIFT_RATE_NAMES) {
    const p = pairs[name];
    if (p && p.prize > 0 && p.fireballs > 0) out[name] = p.prize / p.fireballs;
  }
  return out;
}

export type DayValue = { spent: number; received: number; net: number };

/**
 * Values one day in FCB (spec 2 §2, §5 "In totals, gifts with no known rate are ignored"):
 * n pieces of a gift with rate r are worth n / r FCB. `spent` comes from ballStats,
 * `received` from awards, `net = received − spent`. Null when no gift rates exist
 * ("Totals appear only if gift rates exist").
 */
export function valueDay(day: Pick<DailyTotal, "awards" | "ballStats">, rates: Record<string, number>): DayValue | null {
  const known = dropNonPositive(rates);
  if (Object.keys(known).length === 0) return null;
  const sum = (counts: Record<string, number>) => {
    let s = 0;
    for (const [name, n] of Object.entries(counts)) {
      const r = isGiftRateName(name) ? known[name] : undefined;
      if (r && Number.isFinite(n)) s += n / r;
    }
    return s;
  };
  const spent = sum(day.ballStats);
  const received = sum(day.awards);
  return { spent, received, net: received - spent };
}

/** |n| to one decimal, halves rounded away from zero (1.25 → "1.3", 0.05 → "0.1"). */
function oneDecimal(n: number): string {
  return (Math.round(Math.abs(n) * 10 + 1e-9) / 10).toFixed(1);
}

/** Spec 2 §2: "spent total with a minus sign". */
export function formatSpent(spent: number): string {
  return `-${oneDecimal(spent)}`;
}
/** Spec 2 §2: "received total with a plus sign". */
export function formatReceived(received: number): string {
  return `+${oneDecimal(received)}`;
}
/** Spec 2 §2: "net result (green, plus sign when zero or more)". Judged after rounding: -0.04 reads "+0.0". */
export function formatNet(net: number): string {
  const shown = oneDecimal(net);
  return net >= 0 || shown === "0.0" ? `+${shown}` : `-${shown}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11-23" → { day: "23", month: "Nov" } (spec 2 §2 "day number and month abbreviation"). */
export function dayLabel(date: string): { day: string; month: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) return { day: date, month: "" };
  return { day: String(Number(m[3])), month: MONTHS[Number(m[2]) - 1] ?? "" };
}
