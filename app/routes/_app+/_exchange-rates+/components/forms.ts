/**
 * The Exchange Rates section's forms (CONVENTIONS rule 3: one zod schema per form, used on
 * both sides). The route's action parses these with `parseWithZod` and then hands the result
 * to the rate model, which checks it once more against the /api contract (api/rates.ts).
 * The browser loads this module after the page (`lazyValidation`, see rate-row.tsx and the
 * dialogs) and validates with the same schemas through conform; until then the forms post
 * and the server answers with the errors. Zod-free rules and texts: form-rules.ts.
 *
 * Every form posts an `intent`; the texts of every rule come from RATE_MESSAGES (spec 1 §5).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { isValidRate, RATE_LIMITS, RATE_MESSAGES, validateTiers, type TierDraft } from "#api/rates";
import { ADD_MESSAGES, composeRate } from "./form-rules";

/** For the browser, which gets zod and conform's adapter with this module, after the page. */
export { parseWithZod };
import { parseImportText as parseImport } from "#api/rates-schemas";
import { findGift } from "~/data/gifts";

/** The import parser with the catalogue, so an unknown gift is named before the post (issue 30 A2). */
export const parseImportText = (text: string) => parseImport(text, { knownGift: (name) => findGift(name) !== undefined });

const giftName = (message: string) => z.string({ error: message }).trim().min(1, message).max(RATE_LIMITS.maxNameLength, "Gift name is too long");

const pair = {
  inputItem: giftName("inputItem is required"),
  outputItem: giftName("outputItem is required"),
};

// ---------------------------------------------------------------------------------------
// Row: save the tier editor (spec 1 §2 "Exchange-rate row", §4 "On save", §5)

/**
 * `requireRate` is false while the operator types (a freshly added blank tier is not an
 * error yet) and true for a submission, on both sides.
 */
export function saveRateSchema({ requireRate = true }: { requireRate?: boolean } = {}) {
  return z
    .object({
      intent: z.literal("save"),
      ...pair,
      tiers: z
        .array(
          z.object({
            // The text as typed: validateTiers wants digits ("1e2" and "1.5" are refused,
            // a blank is an error on submit), with the spec's own texts.
            quantity: z.string().max(RATE_LIMITS.maxRateLength).optional(),
            rate: z.string().max(RATE_LIMITS.maxRateLength).optional(),
          }),
        )
        .min(1, RATE_MESSAGES.noRates)
        .max(RATE_LIMITS.maxTiers, `At most ${RATE_LIMITS.maxTiers} tiers`),
    })
    .superRefine((value, ctx) => {
      const drafts: TierDraft[] = value.tiers.map((t) => ({ quantity: t.quantity ?? "", rate: t.rate ?? "" }));
      const result = validateTiers(drafts, { requireRate });
      for (const [index, errors] of Object.entries(result.tierErrors)) {
        if (errors.rate) ctx.addIssue({ code: "custom", message: errors.rate, path: ["tiers", Number(index), "rate"] });
        if (errors.quantity) ctx.addIssue({ code: "custom", message: errors.quantity, path: ["tiers", Number(index), "quantity"] });
      }
      for (const message of result.globalErrors) ctx.addIssue({ code: "custom", message, path: ["tiers"] });
    });
}

// ---------------------------------------------------------------------------------------
// Row: enable/disable, delete; group: delete all outputs of an input

export const statusSchema = z.object({
  intent: z.literal("status"),
  ...pair,
  status: z.enum(["true", "false"], { error: "status must be true or false" }).transform((s) => s === "true"),
});

export const deleteSchema = z.object({ intent: z.literal("delete"), ...pair });

export const deleteInputSchema = z.object({ intent: z.literal("delete-input"), inputItem: pair.inputItem });

// ---------------------------------------------------------------------------------------
// Add Exchange Rate dialog, new entries (spec 1 §2, §5 "Add dialog")

export const addEntriesSchema = z
  .object({
    intent: z.literal("add"),
    inputItem: giftName(ADD_MESSAGES.inputRequired),
    outputs: z
      .array(
        z.object({
          outputItem: giftName(ADD_MESSAGES.outputRequired),
          rate: z.string({ error: ADD_MESSAGES.rateRequired }).trim().min(1, ADD_MESSAGES.rateRequired).max(RATE_LIMITS.maxRateLength),
        }),
      )
      .min(1, ADD_MESSAGES.outputRequired)
      .max(RATE_LIMITS.maxBatch),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.outputs.forEach((row, index) => {
      if (!isValidRate(row.rate)) {
        ctx.addIssue({ code: "custom", message: RATE_MESSAGES.invalidFormat(index + 1), path: ["outputs", index, "rate"] });
      }
      if (row.outputItem === value.inputItem) {
        ctx.addIssue({ code: "custom", message: ADD_MESSAGES.sameGift, path: ["outputs", index, "outputItem"] });
      } else if (seen.has(row.outputItem)) {
        ctx.addIssue({ code: "custom", message: ADD_MESSAGES.repeatedOutput, path: ["outputs", index, "outputItem"] });
      }
      seen.add(row.outputItem);
    });
  });

// ---------------------------------------------------------------------------------------
// Add dialog for an existing input (spec 1 §2): one output and a numerator/denominator rate

const ratePart = (required: string, whole: string) => z.string({ error: required }).trim().min(1, required).regex(/^\d+$/, whole);

export const addOutputSchema = z
  .object({
    intent: z.literal("add-output"),
    inputItem: giftName(ADD_MESSAGES.inputRequired),
    outputItem: giftName(ADD_MESSAGES.outputRequired),
    numerator: ratePart(ADD_MESSAGES.numeratorRequired, ADD_MESSAGES.numeratorWhole),
    denominator: ratePart(ADD_MESSAGES.denominatorRequired, ADD_MESSAGES.denominatorWhole).refine((d) => Number(d) !== 0, ADD_MESSAGES.denominatorZero),
  })
  .superRefine((value, ctx) => {
    if (value.outputItem === value.inputItem) {
      ctx.addIssue({ code: "custom", message: ADD_MESSAGES.sameGift, path: ["outputItem"] });
    }
    // Whole numbers over a non-zero denominator always make a valid rate; this only guards
    // a rate text too long for the contract, with the contract's own words.
    const parts = [value.numerator, value.denominator].map((p) => p.trim());
    if (parts.every((p) => /^\d+$/.test(p)) && Number(parts[1]) !== 0 && !isValidRate(composeRate(value.numerator, value.denominator))) {
      ctx.addIssue({ code: "custom", message: RATE_MESSAGES.invalidFormat(1), path: ["numerator"] });
    }
  });

// ---------------------------------------------------------------------------------------
// Import Exchange Rates dialog (spec 1 §2, §5 "Import"); the JSON itself is checked by
// parseImportText from the contract, so the browser and the server reject the same texts.

export const importSchema = z.object({
  intent: z.literal("import"),
  data: z.string({ error: RATE_MESSAGES.importFailed }).trim().min(1, RATE_MESSAGES.importFailed),
});
