/**
 * The Exchange Rates panel's view of the data, as pure functions (client-safe, unit-tested):
 * the URL state (CONVENTIONS rule 6: filters, expanded rows and the open dialog are search
 * params), the filtering of spec 1 §2, and the optimistic changes of spec 1 §4.
 */
import { RATE_LIMITS, sortTiers, type RateData, type RatesMap, type RateValue, type Tier } from "#api/rates";
import { giftMatches } from "~/data/gifts";
import { buildSearchParams, oneOf, parseSearchParams, repeated, text } from "~/utils/search-params";

// ---------------------------------------------------------------------------------------
// URL state

export type DialogState = { type: "add" } | { type: "import" } | { type: "add-output"; input: string } | { type: "delete-input"; input: string };

export type RatesView = {
  /** Incoming-gift search (`in`). */
  incoming: string;
  /** Outgoing-gift search (`out`). */
  outgoing: string;
  /** The item dropdown (`item`): one input gift, or "" for 'All Items'. */
  item: string;
  /** The page of the list (`page`, 1-based; 1 is written as nothing). */
  page: number;
  /** Expanded rows (`open`, repeated), as pair keys. */
  open: string[];
  /** The open dialog (`dialog`, and `for` naming its input). */
  dialog: DialogState | null;
};

/**
 * The params the panel owns, through the shared list-state helper (app/utils/search-params.ts):
 * `in`, `out`, `item`, `page`, `open` (repeated pair keys), `dialog` and `for` (the input a
 * dialog is about), in this order when written.
 */
const DIALOGS = ["add", "import", "add-output", "delete-input"] as const;

const VIEW_SCHEMA = { in: text(), out: text(), item: text(), page: text(), open: repeated(), dialog: oneOf(DIALOGS), for: text() };

/**
 * The params only the browser reads (expanded rows, the open dialog): changing them keeps
 * the loaded page. The filters and `page` choose which pairs the loader reads (issue 20:
 * the page holds one page of the list, the search runs in the database).
 */
export const VIEW_PARAMS = ["open", "dialog", "for"] as const;

const PAIR_SEPARATOR = "|";

export function pairKey(input: string, output: string): string {
  return `${input}${PAIR_SEPARATOR}${output}`;
}

export function parseView(params: URLSearchParams): RatesView {
  const p = parseSearchParams(VIEW_SCHEMA, params);
  let dialog: DialogState | null = null;
  if (p.dialog === "add" || p.dialog === "import") dialog = { type: p.dialog };
  else if (p.dialog && p.for) dialog = { type: p.dialog, input: p.for };
  return { incoming: p.in, outgoing: p.out, item: p.item, page: pageNumber(p.page), open: p.open, dialog };
}

/** `page` as a page number: a positive integer, else 1. */
export function pageNumber(value: string | null | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 1 ? n : 1;
}

/** The view as search params; params this view does not own are kept as they were. */
export function viewToParams(view: RatesView, base?: URLSearchParams): URLSearchParams {
  return buildSearchParams(
    VIEW_SCHEMA,
    {
      in: view.incoming,
      out: view.outgoing,
      item: view.item,
      page: view.page > 1 ? String(view.page) : "",
      open: view.open,
      dialog: view.dialog?.type,
      for: view.dialog && "input" in view.dialog ? view.dialog.input : "",
    },
    base,
  );
}

export function viewHref(view: RatesView, base?: URLSearchParams): string {
  const search = viewToParams(view, base).toString();
  return search ? `?${search}` : "?";
}

export function hasFilters(view: RatesView): boolean {
  return !!(view.incoming.trim() || view.outgoing.trim() || view.item);
}

// ---------------------------------------------------------------------------------------
// Filtering (spec 1 §2 "Filters")

export type RateGroup = {
  input: string;
  outputs: Array<{ output: string; data: RateData }>;
  /** Every output the input has (the header's count). */
  total: number;
  /** Outputs matching the outgoing search, and the index of the first one shown (a group may
   * go on from the previous page). */
  matching: number;
  from: number;
};

/** The inputs for the item dropdown, sorted (the loader sorts the same way). */
export function sortedInputs(map: RatesMap): string[] {
  return Object.keys(map).sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }));
}

/** What the loader says about each group on the page (app/models/rate-page.server.ts). */
export type PageGroup = { input: string; total: number; matching: number; from: number };

/**
 * The page's groups, in the loader's order, with the outputs the (possibly optimistically
 * changed) map still holds; a group left without outputs is dropped (spec 1 §4 "drop the
 * input when it has no outputs").
 */
export function pageGroups(map: RatesMap, groups: readonly PageGroup[]): RateGroup[] {
  const out: RateGroup[] = [];
  for (const g of groups) {
    const outputs = Object.entries(map[g.input] ?? {}).map(([output, data]) => ({ output, data }));
    if (outputs.length) out.push({ ...g, outputs });
  }
  return out;
}

/**
 * Groups of a whole map with the filters applied in the browser (spec 1 §2 "Filters"):
 * inputs matching the incoming search and the item dropdown, with their outputs matching the
 * outgoing search. The page itself is filtered by the loader (app/models/rate-page.server.ts
 * does the same in the database); this is the reference the tests hold it to.
 */
export function filterGroups(map: RatesMap, view: Pick<RatesView, "incoming" | "outgoing" | "item">): RateGroup[] {
  const groups: RateGroup[] = [];
  for (const [input, outputs] of Object.entries(map)) {
    if (view.item && input !== view.item) continue;
    if (!giftMatches(input, view.incoming)) continue;
    const all = Object.entries(outputs);
    const shown = all.filter(([output]) => giftMatches(output, view.outgoing)).map(([output, data]) => ({ output, data }));
    if (shown.length === 0) continue;
    groups.push({ input, outputs: shown, total: all.length, matching: shown.length, from: 0 });
  }
  return groups;
}

// ---------------------------------------------------------------------------------------
// Display of rate data

/** Spec 1 §2 "a 'flat' or 'N tiers' label". */
export function rateKindLabel(data: Pick<RateData, "rate" | "rates">): string {
  if (!data.rates) return "flat";
  return `${data.rates.length} ${data.rates.length === 1 ? "tier" : "tiers"}`;
}

/** The rate(s) in one line: "1/2", or "≥0: 1/2 · ≥10: 3/4". */
export function rateSummary(data: Pick<RateData, "rate" | "rates">): string {
  if (!data.rates) return String(data.rate ?? "");
  return data.rates.map((t) => `≥${t.quantity}: ${t.rate}`).join(" · ");
}

// ---------------------------------------------------------------------------------------
// Optimistic changes (spec 1 §4: "merge fields, set status, delete an output and drop the
// input when it has no outputs")

export type RateChange =
  | { type: "merge"; input: string; output: string; fields: { rate?: RateValue; rates?: Tier[]; status?: boolean } }
  | { type: "status"; input: string; output: string; status: boolean }
  | { type: "delete"; input: string; output: string };

export function applyRateChange(map: RatesMap, change: RateChange): RatesMap {
  const outputs = map[change.input];
  const current = outputs?.[change.output];
  if (!outputs || !current) return map;
  if (change.type === "delete") {
    const { [change.output]: _gone, ...rest } = outputs;
    const next = { ...map };
    if (Object.keys(rest).length === 0) delete next[change.input];
    else next[change.input] = rest;
    return next;
  }
  let data: RateData;
  if (change.type === "status") {
    data = { ...current, status: change.status };
  } else {
    // A flat rate and a tier list are exclusive: merging one drops the other.
    const { rate: _rate, rates: _rates, ...base } = current;
    const shape = change.fields.rates
      ? { rates: change.fields.rates }
      : change.fields.rate !== undefined
        ? { rate: change.fields.rate }
        : { rate: current.rate, rates: current.rates };
    data = { ...base, ...stripUndefined(shape), ...(change.fields.status === undefined ? {} : { status: change.fields.status }) };
  }
  return { ...map, [change.input]: { ...outputs, [change.output]: data } };
}

function stripUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The change a pending row submission (status, delete, save) will make, read from its form
 * data (CONVENTIONS rule 5), or null for submissions that are not applied optimistically
 * (add, import, delete-all: the panel is dimmed while they run). A save changes the row's
 * summary at once; its editor keeps the operator's values until the server has them.
 */
export function changeFromSubmission(formData: FormData): RateChange | null {
  const intent = formData.get("intent");
  const input = formData.get("inputItem");
  const output = formData.get("outputItem");
  if (typeof input !== "string" || typeof output !== "string") return null;
  if (intent === "status") {
    const status = formData.get("status");
    if (status !== "true" && status !== "false") return null;
    return { type: "status", input, output, status: status === "true" };
  }
  if (intent === "delete") return { type: "delete", input, output };
  if (intent === "save") {
    const unsorted = tiersFromFormData(formData);
    if (!unsorted) return null;
    const tiers = sortTiers(unsorted); // as the action stores them
    const flat = tiers.length === 1 && tiers[0].quantity === RATE_LIMITS.defaultTierQuantity;
    return { type: "merge", input, output, fields: flat ? { rate: tiers[0].rate } : { rates: tiers } };
  }
  return null;
}

/** `tiers[0].quantity`, `tiers[0].rate`, … → tiers (blank quantity = 0), or null if malformed. */
export function tiersFromFormData(formData: FormData): Tier[] | null {
  const tiers: Tier[] = [];
  for (let i = 0; formData.has(`tiers[${i}].rate`) || formData.has(`tiers[${i}].quantity`); i++) {
    const q = String(formData.get(`tiers[${i}].quantity`) ?? "").trim();
    const quantity = q === "" ? RATE_LIMITS.defaultTierQuantity : Number(q);
    if (!Number.isFinite(quantity)) return null;
    tiers.push({ quantity, rate: String(formData.get(`tiers[${i}].rate`) ?? "").trim() });
  }
  return tiers.length ? tiers : null;
}
