import { data, redirect } from "@remix-run/node";
import { logEvent } from "~/models/log.server";
import { reportDbUnreachable } from "~/db/reachability.server";
import { AppError } from "../utils/app-error";
import { findDependencyDown } from "../utils/dependency-down.server";
import { requireOperator, safeRedirect } from "./auth.server";
import { errorText } from "../utils/errors";
import { readFormData } from "../utils/forms.server";
import { TYPE_SECRET_AGAIN } from "../utils/kept-fields";
import { dispatchIntent } from "../utils/intent.server";
import { jsonWithError, jsonWithSuccess, redirectWithError, redirectWithSuccess } from "../utils/toast.server";

/**
 * One page-action helper for every section (issue 19 B.2, docs/decisions/0023). A section's
 * action is a table of intents; this does the rest, the same way on every page:
 *
 *   export const action = pageAction({
 *     section: "All Characters", home: "/characters",
 *     failure: FALLBACK,                       // each intent's text for an unexpected failure
 *     intents: { "add-category": async ({ form }) => { await createCategory(form.string("value")); return "Category created"; } },
 *   });
 *
 * - an unknown intent is a 400 `{ ok: false, intent: null, message: "Unknown intent: …" }`
 *   (CONVENTIONS rule 1, `dispatchIntent`);
 * - a handler answers a message (success), a `PageOutcome`, or a ready Response;
 * - with JavaScript (no `redirectTo` field) the fetcher gets `{ ok, intent, message, ...data }`
 *   with a flash toast, the failure with its status;
 * - without JavaScript (the form posts `redirectTo`) it is a redirect back with the flash
 *   toast (an outcome may name another target, or ask to render the posted form again);
 * - a page whose forms all navigate (GalaCord: plain Forms, and fetchers that follow the
 *   redirect) names `defaultRedirectTo`: a post without `redirectTo` is redirected there, so
 *   every answer is a redirect with its flash toast, with or without JavaScript. It may be a
 *   function of the intent and the URL posted to (Trading Planets: back to that URL, its list
 *   pages and open panel in it; null keeps an intent's fetcher JSON, e.g. a drag's reorder);
 * - an `AppError` thrown anywhere below (models, the jobs layer, the field readers) is the same
 *   failure with its text and status; anything else is logged to System Logs and answered 500
 *   with the intent's `failure` text (a table, or a function of the form where the text depends
 *   on it: saving a sequence with an id is an update). `onError` lets a section answer some
 *   errors its own way (the take-over question, fixed spec texts, a model's refusal shown in the
 *   form) before that, or dress that default answer (`byDefault()`: Exchange Rates' §8 wording
 *   around the AppError's text, the form's fields again). A page whose forms navigate may still
 *   `render` a form with errors (Settings' conform replies) instead of redirecting.
 */
export type PageOutcome = {
  ok: boolean;
  message: string;
  /** The failure's status (default 400), or a success's (default 200). */
  status?: number;
  /** Extra fields of the fetcher answer (and of a rendered no-JS answer). */
  data?: Record<string, unknown>;
  /** Without JavaScript: where to go instead of `redirectTo`. */
  redirectTo?: string;
  /** Without JavaScript: answer the data (the page renders the posted form again) instead of redirecting. */
  render?: boolean;
  /** No toast (the page shows the outcome itself). */
  toast?: false;
  headers?: HeadersInit;
  /** The posted field a refusal is about (an AppError's `field`), for `keepOnRefusal`. */
  field?: string;
};

/**
 * What a kept form's refusal answers besides `ok`, `intent` and `message` (`keepOnRefusal`;
 * read by the kit's `useKeptForm`): the posted fields (secrets left out) and the refusal's
 * text next to its field, or for the form as a whole.
 */
export type KeptForm = { kept: { fields: Record<string, string>; fieldErrors: Record<string, string[]>; formErrors: string[] } };

export type IntentContext<I extends string> = {
  intent: I;
  form: FormFields;
  operatorId: string;
  /** The no-JS return address (`redirectTo`, checked, else `defaultRedirectTo`), or null for a fetcher. */
  redirectTo: string | null;
};

export type IntentHandler<I extends string> = (ctx: IntentContext<I>) => Promise<string | PageOutcome | PageAnswer> | string | PageOutcome | PageAnswer;

export type PageActionOptions<I extends string> = {
  /** The section's name in System Logs ("All Characters: refresh failed"). */
  section: string;
  /** The page: the fallback of `redirectTo`. */
  home: string;
  intents: Record<I, IntentHandler<I>>;
  /** Each intent's text for a failure that is ours (500, logged), and for an AppError without text. */
  failure: Record<I, string> | ((intent: I, form: FormFields) => string);
  /**
   * A section's own answer to some errors; undefined lets the default answer. `byDefault()` is
   * that default (an AppError's text and status; anything else logged, 500), to dress it.
   */
  onError?: (
    err: unknown,
    ctx: IntentContext<I>,
    byDefault: () => Promise<PageOutcome>,
  ) => Promise<PageOutcome | Response | undefined> | PageOutcome | Response | undefined;
  /**
   * Where a post without `redirectTo` goes: every answer of the page is then a redirect (its forms
   * navigate). A function answers per intent from the path and search posted to (`postedTo`);
   * its null keeps that intent's fetcher JSON.
   */
  defaultRedirectTo?: string | ((intent: I, postedTo: string) => string | null);
  /** The no-JS failure's target when it is not `redirectTo` (e.g. the Add User form stays open). */
  errorRedirectTo?: (form: FormFields, redirectTo: string) => string;
  /**
   * Forms that keep what was typed on a refusal (issue 30 A6): instead of a redirect that
   * would draw the form from saved values, the page renders again (400, no toast) with the
   * posted fields and the reason next to its field (`KeptForm`). `secret` fields (a recovery
   * code) are never sent back. `toast: true` keeps the fetcher's error toast too, where the
   * spec names one (All Characters, spec 2 §8 "the message field of the body is shown in a toast").
   * `only` keeps just the posts of the form with typed text, where another form posts the same
   * intent without any (Collections' floating panel, from every page: its redirect and toast stay).
   */
  keepOnRefusal?: Partial<Record<I, { secret?: readonly string[]; toast?: true; only?: (form: FormFields) => boolean }>>;
};

export type PageActionResult<I extends string> = { ok: boolean; intent: I | null; message: string };

/** What a page action answers: a Response (redirects, toasts) or Remix `data()` (the fetcher's JSON, a rendered form). */
export type PageAnswer = Response | ReturnType<typeof data<unknown>>;

export function pageAction<I extends string>(options: PageActionOptions<I>) {
  return async ({ request }: { request: Request }): Promise<PageAnswer> => {
    const operator = await requireOperator(request);
    const url = new URL(request.url);
    return runPageAction(await readFormData(request), operator.id, options, `${url.pathname}${url.search}`);
  };
}

/** The body of `pageAction` for an action that needs its form before (e.g. to normalise fields); `postedTo` is for `defaultRedirectTo`. */
export async function runPageAction<I extends string>(
  formData: FormData,
  operatorId: string,
  options: PageActionOptions<I>,
  postedTo?: string,
): Promise<PageAnswer> {
  const form = formFields(formData);
  const rawRedirect = formData.get("redirectTo");
  const redirectOf = (intent: I): string | null => {
    if (rawRedirect) return safeRedirect(rawRedirect, options.home);
    const fallback = options.defaultRedirectTo;
    if (typeof fallback !== "function") return fallback ?? null;
    const back = postedTo !== undefined ? fallback(intent, postedTo) : null;
    return back ? safeRedirect(back, options.home) : null;
  };
  const handlers = Object.fromEntries(
    (Object.keys(options.intents) as I[]).map((intent) => [
      intent,
      async () => {
        const redirectTo = redirectOf(intent);
        const ctx: IntentContext<I> = { intent, form, operatorId, redirectTo };
        let outcome: PageOutcome;
        try {
          const done = await options.intents[intent](ctx);
          if (typeof done === "string") outcome = { ok: true, message: done };
          else if (isOutcome(done)) outcome = done;
          else return done;
        } catch (err) {
          const own = await options.onError?.(err, ctx, () => failureOf(err, ctx, options));
          if (own instanceof Response) return own;
          outcome = own ?? (await failureOf(err, ctx, options));
        }
        const keep = options.keepOnRefusal?.[intent];
        if (keep && !outcome.ok && !outcome.redirectTo && (keep.only?.(form) ?? true))
          outcome = keptForm(outcome, formData, keep.secret ?? [], keep.toast === true, redirectTo !== null);
        const errorTo = redirectTo && options.errorRedirectTo ? options.errorRedirectTo(form, redirectTo) : redirectTo;
        return answer(intent, outcome, redirectTo, errorTo);
      },
    ]),
  ) as Record<I, () => Promise<PageAnswer>>;
  return dispatchIntent(formData, handlers);
}

/** A refusal answered as the posted form again, the reason next to its field (`keepOnRefusal`). */
function keptForm(outcome: PageOutcome, formData: FormData, secret: readonly string[], toast: boolean, plain: boolean): PageOutcome {
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (typeof value === "string" && !secret.includes(name) && name !== "redirectTo") fields[name] = value;
  }
  const onField = outcome.field !== undefined && (outcome.field in fields || secret.includes(outcome.field));
  const fieldErrors: Record<string, string[]> = onField ? { [outcome.field!]: [outcome.message] } : {};
  // A typed secret comes back empty to a plain post (a page drawn again): say so under it, so
  // the operator types it again. A fetcher's form still holds what was typed.
  for (const name of plain ? secret : []) {
    const typed = formData.get(name);
    if (typeof typed === "string" && typed.trim()) fieldErrors[name] = [...(fieldErrors[name] ?? []), TYPE_SECRET_AGAIN];
  }
  const kept: KeptForm["kept"] = { fields, fieldErrors, formErrors: onField ? [] : [outcome.message] };
  return { ...outcome, data: { ...outcome.data, kept }, render: true, toast: toast ? outcome.toast : false };
}

function isOutcome(value: PageOutcome | PageAnswer): value is PageOutcome {
  return !(value instanceof Response) && typeof (value as PageOutcome).ok === "boolean" && typeof (value as PageOutcome).message === "string";
}

/** The intent's `failure` text (the table's, or the function's answer for this form). */
function failureText<I extends string>(options: Pick<PageActionOptions<I>, "failure">, intent: I, form: FormFields): string {
  return typeof options.failure === "function" ? options.failure(intent, form) : options.failure[intent];
}

async function failureOf<I extends string>(err: unknown, { intent, form }: IntentContext<I>, options: PageActionOptions<I>): Promise<PageOutcome> {
  // The database or Redis unreachable: its 503 text, not the intent's "failed" (decision 0029).
  err = findDependencyDown(err, reportDbUnreachable) ?? err;
  if (err instanceof AppError) return { ok: false, message: err.message || failureText(options, intent, form), status: err.status, field: err.field };
  if (err instanceof Response) throw err; // a redirect (the session ended) or a ready answer
  await logEvent({ type: "error", source: "system", message: `${options.section}: ${intent} failed`, details: { error: errorText(err) } }).catch(() => {});
  return { ok: false, message: failureText(options, intent, form), status: 500 };
}

function answer<I extends string>(intent: I, outcome: PageOutcome, redirectTo: string | null, errorTo: string | null): Promise<PageAnswer> | PageAnswer {
  const result = { ...outcome.data, ok: outcome.ok, intent, message: outcome.message };
  const status = outcome.status ?? (outcome.ok ? 200 : 400);
  const init = outcome.headers ? { headers: outcome.headers } : undefined;
  if (redirectTo && !outcome.render) {
    const to = outcome.redirectTo ?? (outcome.ok ? redirectTo : (errorTo ?? redirectTo));
    if (outcome.toast === false || !outcome.message) return redirect(to, init);
    return outcome.ok ? redirectWithSuccess(to, outcome.message, init) : redirectWithError(to, outcome.message, init);
  }
  if (outcome.toast === false || !outcome.message || (redirectTo && outcome.render)) return data(result, { status, headers: outcome.headers });
  return outcome.ok ? jsonWithSuccess(result, outcome.message, init) : jsonWithError(result, outcome.message, { status, headers: outcome.headers });
}

/** `path` with one search parameter set: a no-JS outcome's `redirectTo` (e.g. a Refresh the page then follows). */
export function withSearchParam(path: string, name: string, value: string): string {
  const to = new URL(path, "http://x");
  to.searchParams.set(name, value);
  return `${to.pathname}${to.search}`;
}

// --- form fields -----------------------------------------------------------------------------

/** Reading a posted form's fields: a missing or file field is "", a bad one an AppError 400 with a readable text. */
export type FormFields = {
  formData: FormData;
  /** The field's text ("" when missing). */
  string(name: string): string;
  /** The field's text, trimmed; an AppError 400 `message` when empty. */
  required(name: string, message: string): string;
  /** A whole number in [min, max]; an AppError 400 `message` otherwise. Empty gives `fallback` when there is one. */
  int(name: string, message: string, opts?: { min?: number; max?: number; fallback?: number }): number;
  /** A checkbox or a "1"/"true" hidden field. */
  checked(name: string): boolean;
  /** Every value of a repeated field, as text. */
  all(name: string): string[];
};

export function formFields(formData: FormData): FormFields {
  const string = (name: string) => {
    const v = formData.get(name);
    return typeof v === "string" ? v : "";
  };
  return {
    formData,
    string,
    // Their refusals name the field, so a kept form shows the text next to it (issue 30 A6).
    required(name, message) {
      const v = string(name).trim();
      if (!v) throw new AppError(400, message, { field: name });
      return v;
    },
    int(name, message, opts = {}) {
      const raw = string(name).trim();
      if (!raw && opts.fallback !== undefined) return opts.fallback;
      if (!/^-?\d{1,15}$/.test(raw)) throw new AppError(400, message, { field: name });
      const n = Number(raw);
      if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) throw new AppError(400, message, { field: name });
      return n;
    },
    checked: (name) => ["1", "on", "true"].includes(string(name)),
    all: (name) => formData.getAll(name).filter((v): v is string => typeof v === "string"),
  };
}
