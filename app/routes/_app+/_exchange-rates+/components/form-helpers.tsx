import type { SubmissionResult } from "@conform-to/react";
import { useLocation } from "@remix-run/react";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { lazyValidation } from "~/components/ui/lazy-validation";
import type { ImportProblems } from "#api/rates-schemas";
import type { Intent } from "./form-rules";

/** What the route's action answers to every intent (see ../exchange-rates.tsx). */
export type ActionResult = {
  ok: boolean;
  intent: Intent | null;
  /** The toast text (spec 1 §8); the same text travels as a flash toast. */
  message: string;
  /** conform's reply for forms that show field errors (and list changes without JavaScript). */
  result?: SubmissionResult<string[]>;
  /** Which form `result` belongs to. */
  formId?: string;
  /** A refused import's text, handed back so a page without JavaScript can show it again. */
  importText?: string;
  /** Why that import was refused: the failed entries (first 20) and their count (issue 30 A2). */
  importProblems?: ImportProblems;
};

/** Fetcher keys per pair: shared by the row, its swipe and the panel's optimistic view. */
export const rowFetcherKey = (kind: "save" | "status" | "delete", input: string, output: string) => `rates:${kind}:${JSON.stringify([input, output])}`;

/** The `formId` carried by a rate row's form: one per input/output pair. */
export function rowFormId(input: string, output: string): string {
  return `rate-${hashKey(`${input}\u0000${output}`)}`;
}

export function addFormId(input?: string): string {
  return input ? `add-output-${hashKey(input)}` : "add-rates";
}

/** A short stable id from any text (DOM ids cannot hold arbitrary gift names). */
function hashKey(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = (Math.imul(h2, 31) + c) >>> 0;
  }
  return `${h1.toString(36)}${h2.toString(36)}`;
}

/**
 * The rows' Enable / Disable / Delete without JavaScript: one form per action for the whole
 * panel (RowActionForms) instead of one per row. Each row's button submits it with
 * `form=…` and names its pair in its own value (`pair`, see encodePair); the action turns
 * that back into `inputItem` / `outputItem` (withPairFields).
 */
export const ROW_ACTION_FORMS = {
  enable: "rates-row-enable",
  disable: "rates-row-disable",
  delete: "rates-row-delete",
} as const;

export const PAIR_FIELD = "pair";

export function encodePair(input: string, output: string): string {
  return JSON.stringify([input, output]);
}

export function decodePair(value: unknown): { inputItem: string; outputItem: string } | null {
  if (typeof value !== "string") return null;
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((p) => typeof p === "string")) {
      return {
        inputItem: parsed[0] as string,
        outputItem: parsed[1] as string,
      };
    }
  } catch {
    // not a pair: the schemas report the missing fields
  }
  return null;
}

/** A posted `pair` (a row button of a shared form) filled in as the pair's own fields. */
export function withPairFields(formData: FormData): FormData {
  const pair = decodePair(formData.get(PAIR_FIELD));
  if (pair) {
    if (!formData.has("inputItem")) formData.set("inputItem", pair.inputItem);
    if (!formData.has("outputItem")) formData.set("outputItem", pair.outputItem);
  }
  formData.delete(PAIR_FIELD);
  return formData;
}

/** The shared forms the rows' action buttons submit (rendered once, above the rows). */
export function RowActionForms({ action }: { action: string }) {
  const forms: Array<[string, Record<string, string>]> = [
    [ROW_ACTION_FORMS.enable, { intent: "status", status: "true" }],
    [ROW_ACTION_FORMS.disable, { intent: "status", status: "false" }],
    [ROW_ACTION_FORMS.delete, { intent: "delete" }],
  ];
  return (
    <>
      {forms.map(([id, fields]) => (
        <form key={id} id={id} method="post" action={action} hidden>
          <HiddenFields fields={fields} />
          <NoJsRedirect />
        </form>
      ))}
    </>
  );
}

/**
 * The rows' Show/Hide tiers without JavaScript: one GET form for the panel carrying the
 * page's current params; each row's button submits it as `toggle=<pair key>` and the loader
 * redirects to the same URL with that key added to or removed from `open`.
 */
export const ROW_TOGGLE_FORM = "rates-row-toggle";

export function RowToggleForm() {
  const location = useLocation();
  const params = [...new URLSearchParams(location.search).entries()].filter(([name]) => name !== "toggle");
  return (
    <form id={ROW_TOGGLE_FORM} method="get" action={location.pathname} hidden>
      {params.map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
    </form>
  );
}

/**
 * The section's zod schemas (forms.ts, with zod and conform's adapter) for the browser,
 * loaded after the page; undefined until then, when the forms check nothing in the browser and
 * the server checks what they post (`checkWith`, ~/components/ui/lazy-validation).
 * Performance trick (CONVENTIONS rule 15): bench/README.md "First-load weight",
 * /exchange-rates (zod with conform's adapter, ~30 kB gzip of the first load).
 */
export const useRatesValidation = lazyValidation(() => import("./forms"));
