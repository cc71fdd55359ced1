/**
 * The Summary panel's data (spec 2 §2 / spec 1 §2), loaded on the server by every section
 * that shows the panel (All Characters, Bowling Bots) and passed to <SummaryPanel summary>.
 */
import { SUMMARY_DAYS, valueDay, type DailyTotal, type GiftRates } from "#api/summary";
import { errorText } from "~/utils/errors";
import { getGiftRates } from "./gift-rates.server";
import { addDays, dailyTotals, dayIn, summaryTimeZone } from "./daily-totals.server";

/** One point of the 7-day net chart (oldest first; days without records count 0). */
export type ChartPoint = { date: string; net: number };

export type SummaryData = {
  /** Newest first, days with records only. */
  dailyTotals: DailyTotal[];
  rates: GiftRates;
  /** Null when no gift rates exist (no net can be computed). */
  chart: ChartPoint[] | null;
  /** True when the daily totals could not be loaded ("Failed to load daily totals"). */
  failed: boolean;
};

export function chartPoints(totals: DailyTotal[], rates: GiftRates, today: string, days = SUMMARY_DAYS): ChartPoint[] | null {
  const byDay = new Map(totals.map((t) => [t.date, t]));
  const points: ChartPoint[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const date = addDays(today, -back);
    const t = byDay.get(date);
    const v = valueDay(t ?? { awards: {}, ballStats: {} }, rates);
    if (!v) return null;
    points.push({ date, net: t ? v.net : 0 });
  }
  return points;
}

export async function loadSummary(_request?: Request, now: Date = new Date()): Promise<SummaryData> {
  let rates: GiftRates = {};
  try {
    rates = await getGiftRates();
  } catch (err) {
    // spec 2 §8: gift rate load failures are only logged.
    console.warn("[summary] gift rates failed:", errorText(err));
  }
  try {
    const totals = await dailyTotals(SUMMARY_DAYS, now);
    return { dailyTotals: totals, rates, chart: chartPoints(totals, rates, dayIn(summaryTimeZone(), now)), failed: false };
  } catch (err) {
    console.warn("[summary] daily totals failed:", errorText(err));
    return { dailyTotals: [], rates, chart: null, failed: true };
  }
}
