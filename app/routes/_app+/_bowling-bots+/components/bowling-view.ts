/**
 * Pure helpers of the Bowling Bots screen (spec 1 §2 "Bowling Bots section", §4 relative time,
 * §9 gift thresholds): chip colours, totals, the URL state of dialogs. Client-safe: no server
 * imports and no zod, so the first load stays light.
 */

export type GiftCell = { type: number; name: string; img: string; amount: number };
export type CollectionItemView = { imageUrl: string; count: number };

/** Spec 1 §9: regular gift types 11, 12 and 13 with thresholds 50, 200 and 250. */
export const REGULAR_THRESHOLDS: ReadonlyMap<number, number> = new Map([
  [11, 50],
  [12, 200],
  [13, 250],
]);
/** Spec 1 §9: special gift types 1, 4, 8 and 15 (in this order). */
export const SPECIAL_TYPES = [1, 4, 8, 15] as const;

/** The gift types a row shows: the regular ones, then the special ones. */
export const ROW_GIFT_TYPES: ReadonlySet<number> = new Set([...REGULAR_THRESHOLDS.keys(), ...SPECIAL_TYPES]);

/** Spec 1 §9 "Collection id 151 is named 'Capybara'". */
export const COLLECTION_TITLE = "Capybara";

/** "an amount at or above its threshold is green, below it red"; special and other types are neutral. */
export function chipColor(type: number, amount: number): "green" | "red" | "gray" {
  const threshold = REGULAR_THRESHOLDS.get(type);
  if (threshold === undefined) return "gray";
  return amount >= threshold ? "green" : "red";
}

/**
 * The chips of one row: the regular types (11, 12, 13), then the special ones (1, 4, 8, 15),
 * each with the amount the stats give (0 when the type is missing from the answer).
 * [D] types outside these seven are not shown on the row (they are in the totals bar).
 */
export function rowChips(gifts: GiftCell[]): Array<GiftCell & { color: "green" | "red" | "gray"; special: boolean }> {
  const byType = new Map(gifts.map((g) => [g.type, g]));
  const types = [...REGULAR_THRESHOLDS.keys(), ...SPECIAL_TYPES];
  return types.map((type) => {
    const g = byType.get(type) ?? { type, name: `Gift ${type}`, img: "", amount: 0 };
    return { ...g, color: chipColor(type, g.amount), special: (SPECIAL_TYPES as readonly number[]).includes(type) };
  });
}

/** "N items": the sum of the item counts (counts arrive as text holding a number). */
export function collectionTotal(items: CollectionItemView[] | null): number {
  return (items ?? []).reduce((n, i) => n + i.count, 0);
}

/** The companion dialog's suppliers and recipients, fetched when it opens (issue 20; /gifts/companion-candidates). */
export const CANDIDATE_TEXTS = {
  loading: "Loading suppliers and recipients…",
  failed: "Failed to load suppliers and recipients",
} as const;

// ---- URL state (no-JavaScript dialogs, CONVENTIONS rule 6) -------------------------------

export const DIALOG_PARAM = "dialog";
export const ACCOUNT_PARAM = "account";
export const CONFIRM_PARAM = "confirm";
/** The page of the list (1-based; issue 20 "Bounded pages"): plain links, so paging works without JavaScript. */
export const PAGE_PARAM = "page";
/** Set by a refresh posted without JavaScript: the page reloads itself until the job ends. */
export const REFRESHING_PARAM = "refreshing";
export const DIALOGS = ["companion", "collection"] as const;
export type BowlingDialog = (typeof DIALOGS)[number];
export const CONFIRM_ALL_COMPANIONS = "all-companions";
/** Parameters only the screen reads. */
export const URL_ONLY_PARAMS = [DIALOG_PARAM, ACCOUNT_PARAM, CONFIRM_PARAM] as const;

export function dialogOf(params: URLSearchParams): { dialog: BowlingDialog; account: string } | null {
  const dialog = params.get(DIALOG_PARAM);
  const account = params.get(ACCOUNT_PARAM);
  if (!account || !(DIALOGS as readonly string[]).includes(dialog ?? "")) return null;
  return { dialog: dialog as BowlingDialog, account };
}

export function hrefWith(search: string, set: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(set)) {
    if (v === null) params.delete(k);
    else params.set(k, v);
  }
  const s = params.toString();
  return `/gifts${s ? `?${s}` : ""}`;
}

/** While a refresh runs and the live-events stream is down, the page re-reads every second (with JavaScript). */
export const REFRESH_POLL_MS = 1000;
/**
 * What the page follows on the live-events bus (one useLive per page): its own refresh, and
 * the All Characters refreshes, which write the same details rows (bowling users included).
 */
export const LIVE_PATTERNS = ["refresh:bowling", "refresh:characters", "characters"] as const;

/** The header text of spec 1 §2: "Loading..." while loading, "???" when unknown, else relative. */
export const LAST_FETCHED_TEXTS = {
  loading: "Loading...",
  unknown: "???",
  // After a failed refresh (issue 30 A7; our words): "Last success 2h ago · Last try failed just now".
  lastSuccess: "Last success",
  lastTryFailed: "Last try failed",
} as const;
