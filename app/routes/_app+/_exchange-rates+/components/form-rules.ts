/**
 * The Exchange Rates section's form rules and texts that need no zod: intents, the add
 * dialogs' messages, the row's message order, the §8 failure texts. Split from forms.ts
 * (the zod schemas) so the page can import them without zod; the schemas reach the browser
 * after the page through `lazyValidation` (bench/README.md "First-load weight",
 * /exchange-rates: zod with conform's adapter was ~30 kB gzip of the first load).
 */
import { RATE_MESSAGES } from "#api/rates";

export const INTENTS = ["save", "status", "delete", "delete-input", "undo-delete", "add", "add-output", "import"] as const;
export type Intent = (typeof INTENTS)[number];

export function isIntent(value: unknown): value is Intent {
  return typeof value === "string" && (INTENTS as readonly string[]).includes(value);
}

/** Spec 1 §2 "Add dialog (new entries)" and §5 "Add dialog". */
export const ADD_MESSAGES = {
  inputRequired: "Choose an input gift",
  outputRequired: "Choose an output gift",
  rateRequired: "Enter a rate",
  sameGift: RATE_MESSAGES.sameGift,
  repeatedOutput: "Each output gift can be added once",
  alreadyUsed: "This output gift already has a rate for this input",
  numeratorRequired: "Enter the numerator",
  denominatorRequired: "Enter the denominator",
  numeratorWhole: "The numerator must be a whole number",
  denominatorWhole: "The denominator must be a whole number",
  denominatorZero: "The denominator cannot be 0",
} as const;

/** The row's messages in the order §5 lists them: per tier (rate, then quantity), then the list's. */
export function tierMessages(errors: Record<string, string[] | undefined> | undefined, tierCount: number): string[] {
  if (!errors) return [];
  const out: string[] = [];
  for (let i = 0; i < tierCount; i++) {
    out.push(...(errors[`tiers[${i}].rate`] ?? []), ...(errors[`tiers[${i}].quantity`] ?? []));
  }
  out.push(...(errors.tiers ?? []), ...(errors[""] ?? []));
  return [...new Set(out)];
}

/** "A row is complete" (spec 1 §2): it has a gift and a rate. */
export function isCompleteRow(row: { outputItem?: unknown; rate?: unknown } | undefined): boolean {
  return !!row && typeof row.outputItem === "string" && row.outputItem.trim() !== "" && typeof row.rate === "string" && row.rate.trim() !== "";
}

/** Numerator and denominator → the rate text the API stores ("3" and "4" → "3/4"). */
export function composeRate(numerator: string, denominator: string): string {
  return `${numerator.trim()}/${denominator.trim()}`;
}

// ---------------------------------------------------------------------------------------
// Failure toasts (spec 1 §8), per intent

/** The §8 failure text of a submission; `message` is the server's reason, if it gave one. */
export function failureMessage(intent: Intent | null, formData: FormData | null, message?: string): string {
  switch (intent) {
    case "save":
      return RATE_MESSAGES.saveFailed(message);
    case "status":
      return RATE_MESSAGES.statusFailed(formData?.get("status") === "true", message);
    case "delete":
      return RATE_MESSAGES.deleteFailed(message);
    case "delete-input":
      return RATE_MESSAGES.deleteAllFailed(message);
    case "add":
      return RATE_MESSAGES.newEntriesFailed(message);
    case "add-output":
      return RATE_MESSAGES.addFailed(message);
    case "import":
      return RATE_MESSAGES.importFailed;
    case "undo-delete":
      return message ?? RATE_MESSAGES.undoGone;
    default:
      return message ?? "Unknown intent";
  }
}
