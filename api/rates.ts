/**
 * The /api/rates contract (spec 1 §3 "Exchange rates", "Rate entry payload", §5, §7 "Rates",
 * §8 rate toasts): types, texts, limits and the rules of §5, without zod, so the browser
 * can import them freely. The zod schemas that apply these rules to payloads are in
 * api/rates-schemas.ts (the same objects run in the routes and, loaded after the page, in
 * the browser).
 *
 * Wire shapes
 *   GET    /api/rates                          → RatesMap  { [input]: { [output]: RateData } }
 *   POST   /api/rates/update                   { inputItem, outputItem, rates }      → { success, data }
 *   POST   /api/rates/status                   { inputItem, outputItem, status }     → { success, data }
 *   POST   /api/rates/batch                    { updates: RateEntry[] }              → { success, count }
 *   DELETE /api/rates/{id}                                                           → { success }
 *   DELETE /api/rates/{inputItem}/{outputItem}  (URL-encoded names)                  → { success }
 *   DELETE /api/rates/input/{inputItem}         (all outputs of one input)           → { success, count }
 * Errors: `{ error }` with a 4xx status (docs/decisions/0005-rates-api.md).
 *
 * `rates` in a payload is either one flat rate (string "1/2" or number 1.5) or a list of
 * tiers `{ quantity, rate }`. A flat rate is one tier of quantity 0 (the default tier), so a
 * list holding exactly one tier of quantity 0 is stored and answered as a flat `rate`.
 */
// ---------------------------------------------------------------------------------------
// Types

export type RateValue = string | number;

/** One quantity tier: applies from `quantity` gifts upwards ("greater or equal to"). */
export type Tier = { quantity: number; rate: RateValue };

/** A tier as the editor holds it while the operator types (blank fields are ""). */
export type TierDraft = { quantity: number | string; rate: RateValue };

/** Rate data of one input/output pair: a flat `rate` or tiered `rates`, never both. */
export type RateData = {
  _id: string;
  rate?: RateValue;
  rates?: Tier[];
  /** true = enabled. */
  status: boolean;
  /** Client-side only: the row holds unsaved edits. Never stored. */
  hasChanges?: boolean;
};

/** input gift name → output gift name → rate data, in first-creation order. */
export type RatesMap = Record<string, Record<string, RateData>>;

// ---------------------------------------------------------------------------------------
// Texts (exactly as spec 1 §4, §5 and §8 word them)

const orRetry = (message: string | undefined, fallback = "Please try again") => (message && message.trim() ? message : fallback);

export const RATE_MESSAGES = {
  // §5 validation
  invalidFormat: (n: number) => `Rate ${n}: Invalid format. Use "1/2" or "1.5"`,
  negativeQuantity: (n: number) => `Rate ${n}: Quantity cannot be negative`,
  // Our own quantity rules (the spec says only "quantity as number"): whole gifts, a sane cap,
  // and never a blank read as 0.
  quantityRequired: (n: number) => `Rate ${n}: Enter a quantity (0 for the default tier)`,
  quantityWhole: (n: number) => `Rate ${n}: Quantity must be a whole number`,
  quantityTooLarge: (n: number) => `Rate ${n}: Quantity cannot be more than ${RATE_LIMITS.maxQuantity.toLocaleString("en-US")}`,
  duplicateQuantities: "Duplicate quantities found. Each tier must have a unique quantity.",
  // Our words (issue 30 A7): §3 "a flat rate is one tier with quantity 0, the default tier" —
  // a second "≥ 0" tier would make which rate applies from 0 gifts a guess.
  duplicateDefaultTier: "Only one default tier (≥ 0) is allowed. Give the other tiers a quantity above 0.",
  fixErrors: "Please fix validation errors before saving",
  // §8 rates
  saved: "Exchange rate saved successfully",
  saveFailed: (message?: string) => `Failed to save exchange rate: ${orRetry(message)}`,
  statusSaved: (enabled: boolean) => `Exchange rate ${enabled ? "enabled" : "disabled"} successfully`,
  statusFailed: (enabled: boolean, message?: string) => `Failed to ${enabled ? "enable" : "disable"} exchange rate: ${orRetry(message)}`,
  deleted: "Exchange rate deleted successfully",
  deleteFailed: (message?: string) => `Failed to delete exchange rate: ${orRetry(message)}`,
  added: "Exchange rate added successfully",
  addFailed: (message?: string) => `Failed to add exchange rate: ${orRetry(message, "Please try again.")}`,
  deletedAll: "Exchange rates deleted successfully",
  deleteAllFailed: (message?: string) => `Failed to delete exchange rates: ${orRetry(message)}`,
  newEntriesAdded: "New exchange rates added successfully",
  newEntriesFailed: (message?: string) => `Failed to add new entries: ${orRetry(message)}`,
  imported: "Exchange rates imported successfully",
  importFailed: "Failed to import exchange rates: Invalid data format",
  // Why, listed under the headline (issue 30 A2; our words, the spec names only the headline).
  importEmpty: "Paste the exchange rates JSON first",
  importNotJson: (reason: string) => `The text is not valid JSON (${reason})`,
  importNotMap: 'The data must map each input gift to its output gifts, e.g. {"Gold Ring": {"Clay": {"rate": "1/2"}}}',
  importNotOutputs: "must map output gifts to their rate data",
  importNothing: "Nothing to import",
  importFailedCount: (count: number, shown: number) =>
    count > shown ? `${count} entries failed; the first ${shown}:` : count === 1 ? "1 entry failed:" : `${count} entries failed:`,
  copied: "Exchange rates copied to clipboard",
  copyFailed: "Failed to copy exchange rates",
  // §4 loading
  loadFailed: "Failed to load exchange rates",
  loadRetrying: (attempt: number) => `Failed to load exchange rates. Retrying... (${attempt}/${RATE_LIMITS.loadAttempts})`,
  loadGaveUp: "Failed to load exchange rates after multiple attempts. Please refresh the page.",
  /** The panel's reason when the server could not be reached at all (our words). */
  unreachable: "The server could not be reached. Check the connection.",
  // §2 dialogs
  deleteAllTitle: "Delete Exchange Rates",
  deleteAllText: (input: string) => `Are you sure you want to delete all exchange rates for "${input}"? This action cannot be undone.`,
  importPlaceholder: "Paste JSON data here...",
  importing: "Importing...",
  alreadyUsed: "(already used)",
  // API-only answers (not toasts; the spec does not word them)
  unknownGift: (name: string) => `Unknown gift: ${name}`,
  sameGift: "Input and output gift must be different",
  noRates: "At least one rate is required",
  notFound: "Exchange rate not found",
  // Undo of a delete (CONVENTIONS rule 7; our words, the spec has none)
  undoPairLabel: (input: string, output: string) => `${input} → ${output}`,
  undoInputLabel: (input: string) => `every exchange rate for "${input}"`,
  undone: (count: number) => (count === 1 ? "Exchange rate restored" : "Exchange rates restored"),
  undoOffer: (label: string) => `Deleted ${label}.`,
  undoGone: "Nothing to undo: deleted rates can be restored for 2 minutes",
  pairExists: (input: string, output: string) => `${input} → ${output} already has a rate; edit it in its row`,
  invalidEntry: (input: unknown, output: unknown, index: number, message: string) =>
    typeof input === "string" && typeof output === "string" ? `Invalid entry "${input}" → "${output}": ${message}` : `Invalid entry #${index + 1}: ${message}`,
} as const;

/** Business constants of spec 1 §4 and §9 that concern rates. */
export const RATE_LIMITS = {
  /** Rates load: at most 3 attempts, waiting 1 s then 2 s. */
  loadAttempts: 3,
  loadRetryDelaysMs: [1000, 2000] as readonly number[],
  retryToastMs: 2000,
  gaveUpToastMs: 5000,
  /** Swipe: release beyond 80 px triggers, range ±100 px. */
  swipeThresholdPx: 80,
  swipeRangePx: 100,
  defaultTierQuantity: 0,
  /** How long a delete can be undone (our choice; the spec offers no Undo). */
  undoWindowMs: 120_000,
  /** Tier quantities are whole gift counts from 0 to this (our cap; the spec names none). */
  maxQuantity: 1_000_000,
  // Our own caps (the spec names none): keep one request and one row sane.
  maxNameLength: 100,
  maxRateLength: 32,
  maxTiers: 100,
  maxBatch: 20_000,
} as const;

// ---------------------------------------------------------------------------------------
// Rate text and tier validation (spec 1 §5)

/** 'integer/integer' (non-zero denominator) or an integer or decimal number ("2", "1.5", ".5"). */
const FRACTION = /^(\d+)\/(\d+)$/;
const DECIMAL = /^(\d+(\.\d+)?|\.\d+)$/;

export function isBlankRate(rate: RateValue | null | undefined): boolean {
  return rate === undefined || rate === null || (typeof rate === "string" && rate.trim() === "");
}

export function isValidRate(rate: RateValue | null | undefined): boolean {
  if (typeof rate === "number") return Number.isFinite(rate) && rate >= 0 && DECIMAL.test(String(rate));
  if (typeof rate !== "string") return false;
  const text = rate.trim();
  if (text.length > RATE_LIMITS.maxRateLength) return false;
  const fraction = FRACTION.exec(text);
  if (fraction) return Number(fraction[2]) !== 0;
  return DECIMAL.test(text);
}

/** The numeric value of a rate text ("1/2" → 0.5), NaN when invalid. */
export function rateToNumber(rate: RateValue): number {
  if (!isValidRate(rate)) return Number.NaN;
  if (typeof rate === "number") return rate;
  const fraction = FRACTION.exec(rate.trim());
  return fraction ? Number(fraction[1]) / Number(fraction[2]) : Number(rate.trim());
}

/**
 * A quantity as a number (a blank one reads as 0 for display and comparison only: saving a
 * blank quantity is refused by `quantityProblem`, never turned into 0).
 */
export function tierQuantity(quantity: number | string | null | undefined): number {
  if (quantity === undefined || quantity === null) return 0;
  if (typeof quantity === "string") return quantity.trim() === "" ? 0 : Number(quantity);
  return quantity;
}

const WHOLE = /^\d+$/;
const NEGATIVE = /^-\s*(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/**
 * The problem with tier N's quantity, or undefined: a whole number from 0 to
 * RATE_LIMITS.maxQuantity, typed as digits ("1.5", "1e2" and "" are refused; the browser's
 * number field would otherwise let them through as 1.5, 100 and 0).
 */
export function quantityProblem(quantity: number | string | null | undefined, n: number, options: { requireQuantity?: boolean } = {}): string | undefined {
  if (quantity === undefined || quantity === null || (typeof quantity === "string" && quantity.trim() === "")) {
    return options.requireQuantity ? RATE_MESSAGES.quantityRequired(n) : undefined;
  }
  if (typeof quantity === "number") {
    if (Number.isFinite(quantity) && quantity < 0) return RATE_MESSAGES.negativeQuantity(n);
    if (!Number.isInteger(quantity)) return RATE_MESSAGES.quantityWhole(n);
    return quantity > RATE_LIMITS.maxQuantity ? RATE_MESSAGES.quantityTooLarge(n) : undefined;
  }
  const text = quantity.trim();
  if (NEGATIVE.test(text)) return RATE_MESSAGES.negativeQuantity(n);
  if (!WHOLE.test(text)) return RATE_MESSAGES.quantityWhole(n);
  return Number(text) > RATE_LIMITS.maxQuantity ? RATE_MESSAGES.quantityTooLarge(n) : undefined;
}

export type TierValidation = {
  valid: boolean;
  /** Field-level errors keyed by tier index (0-based; the texts say "Rate N", 1-based). */
  tierErrors: Record<number, { rate?: string; quantity?: string }>;
  /** Errors about the tier list as a whole (duplicate quantities, a second default tier). */
  globalErrors: string[];
  /** Indexes of the tiers sharing a quantity (a positive one, or a second 0), for highlighting. */
  duplicateIndexes: number[];
  /** Every message in display order: per tier (rate, then quantity), then global. */
  messages: string[];
};

/**
 * Spec 1 §5 "Per tier". With `requireRate` (saving, and always on the server) a blank rate
 * is an invalid format and a blank quantity an error too; while editing, a freshly added
 * blank tier is not an error yet.
 */
export function validateTiers(tiers: readonly TierDraft[], options: { requireRate?: boolean } = {}): TierValidation {
  const tierErrors: TierValidation["tierErrors"] = {};
  const messages: string[] = [];
  const seen = new Map<number, number[]>();
  // Tiers typed as 0 (a blank one being typed is not a default tier yet).
  const defaults: number[] = [];
  tiers.forEach((tier, index) => {
    const n = index + 1;
    const errors: { rate?: string; quantity?: string } = {};
    const blank = isBlankRate(tier.rate);
    if ((!blank || options.requireRate) && !isValidRate(tier.rate)) errors.rate = RATE_MESSAGES.invalidFormat(n);
    const problem = quantityProblem(tier.quantity, n, { requireQuantity: options.requireRate });
    const quantity = tierQuantity(tier.quantity);
    if (problem) errors.quantity = problem;
    else if (quantity > 0) seen.set(quantity, [...(seen.get(quantity) ?? []), index]);
    else if (!(typeof tier.quantity === "string" && tier.quantity.trim() === "")) defaults.push(index);
    if (errors.rate || errors.quantity) {
      tierErrors[index] = errors;
      if (errors.rate) messages.push(errors.rate);
      if (errors.quantity) messages.push(errors.quantity);
    }
  });
  const duplicatePositive = [...seen.values()].filter((ix) => ix.length > 1).flat();
  const duplicateDefaults = defaults.length > 1 ? defaults : [];
  const duplicateIndexes = [...duplicatePositive, ...duplicateDefaults].sort((a, b) => a - b);
  const globalErrors = [
    ...(duplicatePositive.length ? [RATE_MESSAGES.duplicateQuantities] : []),
    ...(duplicateDefaults.length ? [RATE_MESSAGES.duplicateDefaultTier] : []),
  ];
  messages.push(...globalErrors);
  return { valid: messages.length === 0, tierErrors, globalErrors, duplicateIndexes, messages };
}

// ---------------------------------------------------------------------------------------
// Conversions between the editor's tiers, payloads and stored rate data

/** Cleans a rate as the operator typed it: strings are trimmed, numbers kept as numbers. */
export function normaliseRate(rate: RateValue): RateValue {
  return typeof rate === "string" ? rate.trim() : rate;
}

/** True when the tiers are exactly one default tier (quantity 0): a flat rate. */
export function isFlat(tiers: readonly TierDraft[]): boolean {
  return tiers.length === 1 && tierQuantity(tiers[0].quantity) === 0;
}

/**
 * Spec 1 §4 "On save": a single tier with quantity 0 is sent as a flat rate, otherwise the
 * tier array is sent. The result is the `rates` field of a payload.
 */
export function tiersToPayload(tiers: readonly TierDraft[]): RateValue | Tier[] {
  if (isFlat(tiers)) return normaliseRate(tiers[0].rate);
  return tiers.map((t) => ({ quantity: tierQuantity(t.quantity), rate: normaliseRate(t.rate) }));
}

/** Tiers in quantity order (stable: equal quantities keep their order). */
export function sortTiers<T extends TierDraft>(tiers: readonly T[]): T[] {
  return [...tiers].sort((a, b) => tierQuantity(a.quantity) - tierQuantity(b.quantity));
}

/** Payload `rates` (flat or list) → tier list. */
export function payloadToTiers(rates: RateValue | readonly Tier[]): Tier[] {
  if (Array.isArray(rates)) return rates.map((t) => ({ quantity: t.quantity, rate: normaliseRate(t.rate) }));
  return [{ quantity: RATE_LIMITS.defaultTierQuantity, rate: normaliseRate(rates as RateValue) }];
}

/** Stored / loaded rate data → the editor's tiers (flat → one tier of quantity 0). */
export function rateDataToTiers(data: Pick<RateData, "rate" | "rates">): Tier[] {
  if (data.rates) return data.rates.map((t) => ({ ...t }));
  return [{ quantity: RATE_LIMITS.defaultTierQuantity, rate: data.rate ?? "" }];
}

/** Tiers → the `rate` / `rates` fields of rate data (the shape GET /api/rates answers). */
export function tiersToRateFields(tiers: readonly Tier[]): { rate: RateValue } | { rates: Tier[] } {
  const payload = tiersToPayload(tiers);
  return Array.isArray(payload) ? { rates: payload } : { rate: payload };
}

/** Whether the editor's tiers differ from the saved ones ("edited" rows, spec 1 §4). */
export function tiersDiffer(a: readonly TierDraft[], b: readonly TierDraft[]): boolean {
  if (a.length !== b.length) return true;
  return a.some((t, i) => String(t.quantity) !== String(b[i].quantity) || String(t.rate) !== String(b[i].rate));
}

// ---------------------------------------------------------------------------------------
// Payload checks without zod (the zod schemas live in api/rates-schemas.ts)

export type RateEntry = { inputItem: string; outputItem: string; rates: RateValue | Tier[]; status?: boolean };

/** First §5 message for a payload's rates, or undefined when they are fine. */
export function ratesProblem(rates: RateValue | readonly Tier[]): string | undefined {
  return validateTiers(payloadToTiers(rates), { requireRate: true }).messages[0];
}

// ---------------------------------------------------------------------------------------
// Export (spec 1 §7 "Other"); import is parsed by parseImportText in api/rates-schemas.ts

/** Export: the rates map as pretty JSON, without client-only flags (importable as is). */
export function exportRatesJson(map: RatesMap): string {
  const out: RatesMap = {};
  for (const [input, outputs] of Object.entries(map)) {
    out[input] = {};
    for (const [output, { hasChanges: _ignored, ...data }] of Object.entries(outputs)) out[input][output] = data;
  }
  return JSON.stringify(out, null, 2);
}
