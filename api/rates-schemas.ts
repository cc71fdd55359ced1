/**
 * The zod schemas of the /api/rates contract (api/rates.ts: shapes, texts, limits and the
 * zod-free rules they apply). Split from api/rates.ts so that client code needing only the
 * texts and helpers does not load zod: bench/README.md "First-load weight", /exchange-rates
 * (zod with conform's adapter was ~30 kB gzip of its first load). Server importers: the rate
 * model, the /api/rates resource routes and the section's action; the browser gets these
 * through the section's lazily loaded validation (components/forms.ts).
 */
import { z } from "zod";
import { RATE_LIMITS, RATE_MESSAGES, ratesProblem, type RateEntry, type RateValue, type Tier } from "./rates";

// ---------------------------------------------------------------------------------------
// Zod schemas (one per payload; the same objects run in the browser and in the routes)

const giftName = (field: string) =>
  z
    .string({ error: `${field} must be a gift name` })
    .min(1, `${field} is required`)
    .max(RATE_LIMITS.maxNameLength, `${field} is too long`);

const rateValue = z.union([z.string().max(RATE_LIMITS.maxRateLength), z.number()], {
  error: 'rate must be a string like "1/2" or a number like 1.5',
});

export const tierSchema = z.object({
  // Whole, 0…maxQuantity: checked with the §5 texts by validateTiers (via checkPair).
  quantity: z.number({ error: "quantity must be a number" }).finite(),
  rate: rateValue,
});

/** Flat rate or tier list. */
export const ratesSchema = z.union(
  [rateValue, z.array(tierSchema).min(1, RATE_MESSAGES.noRates).max(RATE_LIMITS.maxTiers, `At most ${RATE_LIMITS.maxTiers} tiers`)],
  { error: 'rates must be a rate ("1/2", 1.5) or a list of { quantity, rate } tiers' },
);

type PairFields = { inputItem: string; outputItem: string; rates: RateValue | Tier[] };

function checkPair(value: PairFields, ctx: z.RefinementCtx) {
  if (value.inputItem === value.outputItem) {
    ctx.addIssue({ code: "custom", message: RATE_MESSAGES.sameGift, path: [] });
    return;
  }
  const problem = ratesProblem(value.rates);
  if (problem) ctx.addIssue({ code: "custom", message: problem, path: [] });
}

/** Accepts `rate` as an alias of `rates` (the shape GET answers), `rates` winning. */
function withRatesAlias(input: unknown) {
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const o = input as Record<string, unknown>;
    if (o.rates === undefined && o.rate !== undefined) return { ...o, rates: o.rate };
  }
  return input;
}

const pairObject = {
  inputItem: giftName("inputItem"),
  outputItem: giftName("outputItem"),
  rates: ratesSchema,
};

/** POST /api/rates/update: `{ inputItem, outputItem, rates }`. */
export const rateUpdateSchema = z.preprocess(withRatesAlias, z.object(pairObject).superRefine(checkPair));

/** One entry of a batch / an added rate: `{ inputItem, outputItem, rates, status? }`. */
export const rateEntrySchema = z.preprocess(
  withRatesAlias,
  z.object({ ...pairObject, status: z.boolean({ error: "status must be true or false" }).optional() }).superRefine(checkPair),
);

/** POST /api/rates/status: `{ inputItem, outputItem, status }`. */
export const rateStatusSchema = z.object({
  inputItem: giftName("inputItem"),
  outputItem: giftName("outputItem"),
  status: z.boolean({ error: "status must be true or false" }),
});

/**
 * POST /api/rates/batch: `{ updates }`. `rateBatchEnvelopeSchema` checks the envelope only
 * (the route reads with it and leaves the entries to the model, which validates them all
 * with `rateBatchSchema` before writing). All or nothing: the first bad entry is named in the
 * error ('Invalid entry "Gold Ring" → "Clay": Rate 1: Invalid format. Use "1/2" or "1.5"').
 */
export const rateBatchEnvelopeSchema = z.object({
  updates: z
    .array(z.unknown(), { error: "updates must be a list of { inputItem, outputItem, rates, status }" })
    .max(RATE_LIMITS.maxBatch, `At most ${RATE_LIMITS.maxBatch} updates per batch`),
});

export const rateBatchSchema = rateBatchEnvelopeSchema.transform((value, ctx) => {
  const updates: RateEntry[] = [];
  for (const [index, raw] of value.updates.entries()) {
    const parsed = rateEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
      const o = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
      ctx.addIssue({
        code: "custom",
        message: RATE_MESSAGES.invalidEntry(o.inputItem, o.outputItem, index, `${where}${issue.message}`),
        path: [],
      });
      return z.NEVER;
    }
    updates.push(parsed.data);
  }
  return { updates };
});

export type RateUpdate = z.output<typeof rateUpdateSchema>;
export type RateStatusUpdate = z.output<typeof rateStatusSchema>;
export type RateBatch = z.output<typeof rateBatchSchema>;

// ---------------------------------------------------------------------------------------
// Import (spec 1 §5 "Import") and export (§7 "Other")

/** Rate data as pasted: a rates list, or a single rate with no quantity; status optional. */
const importRateDataSchema = z
  .object({
    rates: z.array(tierSchema).optional(),
    rate: rateValue.optional(),
    status: z.boolean().optional(),
  })
  // Keys it does not name (Export's `_id`) are kept so the quantity check below sees them.
  .loose()
  .refine((d) => d.rates !== undefined || d.rate !== undefined, { message: "rate or rates is required" })
  // Spec 1 §5: "a single rate with no quantity"; one carrying a quantity is not dropped silently.
  .refine((d) => !("quantity" in d), { message: "a single rate has no quantity (use a rates list)" });

/** input gift → output gift → rate data (the same shape Export writes). */
export const importDataSchema = z
  .record(z.string().min(1), z.record(z.string().min(1), importRateDataSchema))
  .refine((map) => Object.values(map).some((outputs) => Object.keys(outputs).length > 0), {
    message: "Nothing to import",
  });

export type ImportData = z.output<typeof importDataSchema>;

/** Import map → batch updates (the UI posts them to /api/rates/batch). */
export function importToUpdates(data: ImportData): RateEntry[] {
  const updates: RateEntry[] = [];
  for (const [inputItem, outputs] of Object.entries(data)) {
    for (const [outputItem, d] of Object.entries(outputs)) {
      const rates = d.rates ?? (d.rate as RateValue);
      updates.push({ inputItem, outputItem, rates, ...(d.status === undefined ? {} : { status: d.status }) });
    }
  }
  return updates;
}

/** How many failed entries an import refusal lists (issue 30 A2: "first 20, with the count"). */
export const IMPORT_PROBLEMS_SHOWN = 20;

/** Why an import was refused: the failed entries (at most IMPORT_PROBLEMS_SHOWN) and how many failed. */
export type ImportProblems = { shown: string[]; count: number };

export type ImportParse = { ok: true; updates: RateEntry[] } | { ok: false; error: string; detail: string; problems: ImportProblems };

/**
 * Parses pasted import text. Any failure (not JSON, wrong shape, a §5 rule broken by some
 * entry, a gift `knownGift` does not know) yields the §8 headline 'Failed to import exchange
 * rates: Invalid data format' and, under it, every entry that failed and why (`problems`, the
 * first 20 with the count); `detail` is the same in one line, for System Logs.
 */
export function parseImportText(text: string, options: { knownGift?: (name: string) => boolean } = {}): ImportParse {
  const problems: string[] = [];
  const fail = (): ImportParse => ({
    ok: false,
    error: RATE_MESSAGES.importFailed,
    detail: `${problems.length} failed: ${problems.slice(0, IMPORT_PROBLEMS_SHOWN).join("; ")}`,
    problems: { shown: problems.slice(0, IMPORT_PROBLEMS_SHOWN), count: problems.length },
  });
  if (!text.trim()) {
    problems.push(RATE_MESSAGES.importEmpty);
    return fail();
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    problems.push(RATE_MESSAGES.importNotJson((err as Error).message));
    return fail();
  }
  if (!isPlainObject(json)) {
    problems.push(RATE_MESSAGES.importNotMap);
    return fail();
  }
  const updates: RateEntry[] = [];
  for (const [inputItem, outputs] of Object.entries(json)) {
    if (!isPlainObject(outputs)) {
      problems.push(`"${inputItem}": ${RATE_MESSAGES.importNotOutputs}`);
      continue;
    }
    for (const [outputItem, raw] of Object.entries(outputs)) {
      const reason = importEntryProblem(inputItem, outputItem, raw, options.knownGift, updates);
      if (reason) problems.push(`"${inputItem}" → "${outputItem}": ${reason}`);
    }
  }
  if (!problems.length && !updates.length) problems.push(RATE_MESSAGES.importNothing);
  if (!problems.length && updates.length > RATE_LIMITS.maxBatch) problems.push(`At most ${RATE_LIMITS.maxBatch} updates per batch`);
  return problems.length ? fail() : { ok: true, updates };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What is wrong with one pasted entry, or undefined (then it is added to `updates`). */
function importEntryProblem(
  inputItem: string,
  outputItem: string,
  raw: unknown,
  knownGift: ((name: string) => boolean) | undefined,
  updates: RateEntry[],
): string | undefined {
  const data = importRateDataSchema.safeParse(raw);
  if (!data.success) return issueText(data.error.issues[0]);
  const [entry] = importToUpdates({ [inputItem]: { [outputItem]: data.data } });
  const checked = rateEntrySchema.safeParse(entry);
  if (!checked.success) return issueText(checked.error.issues[0]);
  if (knownGift) for (const name of [inputItem, outputItem]) if (!knownGift(name)) return RATE_MESSAGES.unknownGift(name);
  updates.push(checked.data);
  return undefined;
}

function issueText(issue: z.core.$ZodIssue): string {
  return `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`;
}
