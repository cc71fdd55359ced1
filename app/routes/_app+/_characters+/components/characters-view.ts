/**
 * Pure helpers of the All Characters screen (spec 2 §2 "All Characters screen", §4 "Stalker"
 * gift filter): initials, gift totals, the URL gift selection and the §4 sort.
 * Client-safe, no server imports, and no zod (api/accounts.ts is zod; grouping lives in group-rows.ts,
 * which only the loader imports, so the first load stays without it).
 */

import { findGift } from "~/data/gifts";
import type { SessionPhase, SessionView } from "#api/sessions";
import { stalkerSessionState } from "#api/stalker";

export type GiftCell = { type: number; name: string; img: string; amount: number };
/** A row's gift: its type and amount (the type's name and picture come once per page, with the totals). */
export type GiftAmount = { type: number; amount: number };

/**
 * The short name printed under a gift's picture (issue 19 item 12: tiles told apart only by
 * colour): the catalogue's nick (spec 1 §3, "FCB", "skey"), else the initials of the name.
 */
export function giftLabel(g: { name: string }): string {
  const known = findGift(g.name)?.nick;
  if (known) return known;
  const words = g.name.trim().split(/\s+/).filter(Boolean);
  return words.length > 1 ? words.map((w) => [...w][0]!.toUpperCase()).join("") : (words[0] ?? "?");
}

/** Spec 2 §9 "Gift grid": 8 columns. */
export const GIFT_COLUMNS = 8;
/** URL parameter of the gift filter, repeated once per selected gift type (`?gift=11&gift=4`). */
export const GIFT_PARAM = "gift";
/** URL parameter of the page of rows (1-based; issue 20 "Bounded pages"): `?page=2`. */
export const PAGE_PARAM = "page";

/** The page a URL asks for (1 when missing or not a number; the loader clamps it to the last page). */
export function pageParam(params: URLSearchParams): number {
  const raw = params.get(PAGE_PARAM)?.trim() ?? "";
  return /^\d{1,6}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
}

/** The search string for page `page` of the same list (other parameters kept; page 1 has none). */
export function pageSearch(params: URLSearchParams, page: number): string {
  const out = new URLSearchParams(params);
  out.delete(PAGE_PARAM);
  if (page > 1) out.set(PAGE_PARAM, String(page));
  const s = out.toString();
  return s ? `?${s}` : "";
}
/** URL parameter of the no-JavaScript dialogs: `?dialog=user` / `?dialog=category`. */
export const DIALOG_PARAM = "dialog";
export const DIALOGS = ["user", "category"] as const;
export type CharactersDialog = (typeof DIALOGS)[number];
/** Set by a Refresh posted without JavaScript: the page reloads itself until the job ends. */
export const REFRESHING_PARAM = "refreshing";
/** URL parameter of the no-JavaScript delete confirmation: `?confirm=<account id>`. */
export const CONFIRM_PARAM = "confirm";
/** URL parameter of the no-JavaScript category delete confirmation: `?dialog=category&confirmCategory=<id>`. */
export const CONFIRM_CATEGORY_PARAM = "confirmCategory";
/** Parameters only the screen reads (the loader's data does not depend on them). */
export const URL_ONLY_PARAMS = [DIALOG_PARAM, CONFIRM_PARAM, CONFIRM_CATEGORY_PARAM] as const;

/**
 * The delete questions (issue 19 items 9, 10): a stalker is mentioned only when one runs; the
 * delete can be undone for 2 minutes (the Undo bar), so it does not say it cannot.
 * The category wording follows spec 2's "Delete Planet" confirmation ("Are you sure you want to delete “{name}”?").
 */
export const DELETE_TEXTS = {
  userTitle: "Delete user",
  user: (r: { nick: string; account_id: string; active: boolean }) =>
    `Delete ${r.nick} (${r.account_id})?${r.active ? " Its stalker stops." : ""} You can undo this for 2 minutes.`,
  categoryTitle: "Delete Category",
  category: (value: string) => `Are you sure you want to delete “${value}”? Users in it keep their group. You can undo this for 2 minutes.`,
} as const;

/** The dialog a URL opens, if any (`?dialog=gift-rates` belongs to the Summary panel). */
export function dialogOf(params: URLSearchParams): CharactersDialog | null {
  const raw = params.get(DIALOG_PARAM);
  return (DIALOGS as readonly string[]).includes(raw ?? "") ? (raw as CharactersDialog) : null;
}

/** The selected gift types of a URL (numbers, deduplicated, in URL order). */
export function giftSelection(params: URLSearchParams): number[] {
  const out: number[] = [];
  for (const raw of params.getAll(GIFT_PARAM)) {
    if (!/^\d{1,6}$/.test(raw.trim())) continue;
    const n = Number(raw.trim());
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** The search string with `type` toggled in the gift selection (other parameters kept; a new order starts at page 1). */
export function toggleGiftSearch(params: URLSearchParams, type: number): string {
  const selected = giftSelection(params);
  const next = selected.includes(type) ? selected.filter((t) => t !== type) : [...selected, type];
  const out = new URLSearchParams(params);
  out.delete(GIFT_PARAM);
  out.delete(PAGE_PARAM);
  for (const t of next) out.append(GIFT_PARAM, String(t));
  const s = out.toString();
  return s ? `?${s}` : "";
}

function amountOf(gifts: GiftCell[] | null | undefined, type: number): number {
  return (gifts ?? []).filter((g) => g.type === type).reduce((s, g) => s + g.amount, 0);
}

/**
 * Spec 2 §4 "Gift filter": users with every selected gift type above zero come first, then
 * by the summed amount of the selected types, descending. Stable: ties keep their order.
 * No selection keeps the order as given.
 */
export function sortByGiftFilter<T>(items: T[], giftsOf: (item: T) => GiftCell[] | null | undefined, selected: number[]): T[] {
  if (selected.length === 0) return [...items];
  const keyed = items.map((item, index) => {
    const gifts = giftsOf(item);
    const amounts = selected.map((t) => amountOf(gifts, t));
    return { item, index, all: amounts.every((a) => a > 0), sum: amounts.reduce((s, a) => s + a, 0) };
  });
  keyed.sort((a, b) => Number(b.all) - Number(a.all) || b.sum - a.sum || a.index - b.index);
  return keyed.map((k) => k.item);
}

export type StalkerCardState = "inactive" | "connecting" | "active";
export const STALKER_TEXTS: Record<StalkerCardState, string> = {
  inactive: "Stalker Inactive",
  connecting: "Connecting Stalker",
  active: "Stalker Active",
};
/** Issue 29: the card's words when it is neither of the spec's states (the reason is beside it). */
export const STALKER_PHASE_TEXTS = {
  waiting: "Stalker waiting for a worker",
  retrying: "Stalker retrying",
} as const;

/** What a character row says about its stalker (the loader and, from live events, the page: one rule). */
export type StalkerRowFields = {
  /** The stalker runs for this user (connecting or active). */
  active: boolean;
  stalkerState: StalkerCardState;
  /** Issue 29: the one state of its stalker session (the badge), and its words ("Worker lost · waiting for a worker"). */
  stalkerPhase: SessionPhase | null;
  stalkerStatus: string | null;
  /** Its stalker ended by itself: the platform's words (the row says so; the card has the details). */
  stalkerError: string | null;
  /**
   * Issue 30 A4: a stalker that runs but is not up (retrying after 452, reconnecting, waiting
   * for a worker) carries its session, so the row tells its state and reason like the card.
   * null otherwise (an up or stopped stalker needs no more than its badge).
   */
  stalkerSession: SessionView | null;
  /** When its session's state last changed (a live event newer than this replaces the fields). */
  stalkerSince: string | null;
};

export function stalkerRowFields(s: SessionView | undefined): StalkerRowFields {
  const state = s ? stalkerSessionState(s) : "inactive";
  const card: StalkerCardState = state === "error" ? "inactive" : state;
  const { state: _state, ...view } = (s ?? {}) as SessionView & { state?: unknown };
  return {
    active: card !== "inactive",
    stalkerState: card,
    stalkerPhase: s?.phase ?? null,
    stalkerStatus: s?.status ?? null,
    stalkerError: state === "error" ? (s?.error ?? "Stopped after an error") : null,
    stalkerSession: s && card !== "inactive" && s.phase !== "active" ? (view as SessionView) : null,
    stalkerSince: s?.since ?? null,
  };
}

/** While a refresh runs and the live stream is down, the page re-reads every 2 s (with JavaScript). */
export const REFRESH_POLL_MS = 2000;
/**
 * What the page follows on the live-events bus (one useLive per page): both bulk refreshes
 * write character details (a Bowling Bots refresh changes the bowling rows here), and the
 * 5-minute status refresh publishes as `refresh:characters` too.
 */
export const LIVE_PATTERNS = ["refresh:characters", "refresh:bowling", "characters"] as const;
