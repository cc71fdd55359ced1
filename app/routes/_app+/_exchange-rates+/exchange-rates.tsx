import { parseWithZod } from "@conform-to/zod/v4";
import { refusalReason } from "~/utils/refusal";
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  useActionData,
  useLoaderData,
  useRouteError,
  type ClientLoaderFunctionArgs,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { RATE_MESSAGES, sortTiers, tiersToPayload } from "#api/rates";
import { parseImportText, type ImportProblems } from "#api/rates-schemas";
import styles from "~/routes/_app+/_exchange-rates+/components/exchange-rates.css?url";
import { addFormId, rowFormId, withPairFields, type ActionResult } from "~/routes/_app+/_exchange-rates+/components/form-helpers";
import { ADD_MESSAGES, composeRate, failureMessage, isIntent, type Intent } from "~/routes/_app+/_exchange-rates+/components/form-rules";
import {
  addEntriesSchema,
  addOutputSchema,
  deleteInputSchema,
  deleteSchema,
  importSchema,
  saveRateSchema,
  statusSchema,
} from "~/routes/_app+/_exchange-rates+/components/forms";
import { RatesSkeleton, useRatesLoadRetry } from "~/routes/_app+/_exchange-rates+/components/rates-loading";
import { RatesPanel } from "~/routes/_app+/_exchange-rates+/components/rates-panel";
import { parseView, VIEW_PARAMS } from "~/routes/_app+/_exchange-rates+/components/rates-view";
import { LoadFailurePanel } from "~/components/ui/load-failure";
import { SectionHeader } from "~/components/ui/section-header";
import { keepInputOnFailure } from "~/components/ui/submit-failure";
import { useHydrated } from "~/components/ui/use-hydrated";
import { logEvent } from "~/models/log.server";
import { ratesPage, type RatesPage } from "~/models/rate-page.server";
import {
  batchUpsert,
  deleteRatePairUndoable,
  deleteRatesForInputUndoable,
  getRatePair,
  isKnownGift,
  latestRateUndo,
  RatePairExistsError,
  RateValidationError,
  setRateStatus,
  undoRateDeletion,
  upsertRate,
} from "~/models/rate.server";
import { AppError } from "~/utils/app-error";
import { requireOperator } from "~/http/auth.server";
import { errorText } from "~/utils/errors";
import { isUnreachable } from "~/utils/unreachable";
import { readFormData } from "~/utils/forms.server";
import { runPageAction, type FormFields, type PageActionOptions, type PageOutcome } from "~/http/page-action.server";
import { keepDataForUrlOnlyParams } from "~/utils/search-params";

/**
 * The Exchange Rates section (spec 1 §2 "Exchange Rates section", §4, §5, §8).
 *
 * loader  one page of the rates list (`ratesPage`: the filters and `page` of the URL, run in
 *         the database; at most RATE_PAGE_SIZE pairs); a failed load answers 503 with the
 *         reason instead of throwing, so the panel can keep rates it already shows and retry (§4).
 * action  one `intent` per form: save, status, delete, delete-input, undo-delete, add,
 *         add-output, import (`pageAction`, docs/decisions/0023). Each form's zod schema
 *         (components/forms.ts) runs in the browser through conform and again here; the rate
 *         model checks the /api contract. Fetchers get data plus a toast; plain posts (no
 *         JavaScript, `redirectTo`) are redirected with the flash toast, or get the page
 *         again when a form has errors.
 */

export const meta: MetaFunction = () => [{ title: "Exchange Rates · Galaxy Toolbox" }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * E2E journeys force a failed load by sending this header (only when the server runs
 * with E2E=1; the header means nothing otherwise), since a real database failure cannot
 * be arranged from a browser.
 */
export const E2E_FAULT_HEADER = "x-e2e-fault";

/** What the loader says about the page besides its pairs (groups, counts, dropdown, pages). */
export type RatesList = Omit<RatesPage, "rates">;

function injectedFault(request: Request) {
  if (process.env.E2E === "1" && request.headers.get(E2E_FAULT_HEADER) === "rates-load") {
    throw new Error("Exchange rates are unavailable (injected by the E2E fault switch)");
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireOperator(request);
  const url = new URL(request.url);
  // A search box's clear button without JavaScript submits `clear=<param>`; a row's
  // expand button (one shared GET form, see RowToggleForm) submits `toggle=<pair key>`.
  const clear = url.searchParams.getAll("clear");
  const toggle = url.searchParams.get("toggle");
  if (clear.length || toggle !== null) {
    for (const name of [...clear, "clear", "toggle"]) url.searchParams.delete(name);
    for (const name of ["in", "out", "item", "page"]) if (url.searchParams.get(name) === "") url.searchParams.delete(name);
    if (clear.length) url.searchParams.delete("page");
    if (toggle) {
      const open = url.searchParams.getAll("open");
      url.searchParams.delete("open");
      for (const key of open.includes(toggle) ? open.filter((k) => k !== toggle) : [...open, toggle]) url.searchParams.append("open", key);
    }
    const search = url.searchParams.toString();
    throw redirect(`${url.pathname}${search ? `?${search}` : ""}`);
  }
  const view = parseView(url.searchParams);
  try {
    injectedFault(request);
    // One page of the list, filtered in the database (issue 20; rate-page.server.ts).
    const [page, undo] = await Promise.all([
      ratesPage({ incoming: view.incoming, outgoing: view.outgoing, item: view.item, page: view.page }),
      latestRateUndo(operator.id),
    ]);
    const { rates, ...list } = page;
    return data({ rates, list: list as RatesList | null, loadError: null as string | null, undo });
  } catch (err) {
    const message = errorText(err);
    await logEvent({ type: "error", source: "system", message: `${RATE_MESSAGES.loadFailed}: ${message}` });
    return data({ rates: null, list: null, loadError: message, undo: null }, { status: 503 });
  }
}

/**
 * A reload that cannot reach the server at all (network down, server restarting) is a
 * failed load like any other (spec 1 §4): the panel keeps what it shows — unsaved edits
 * included — and runs the retry flow, instead of the route error page replacing the screen.
 * The first render still uses the server's data (no `hydrate`): this runs on revalidations
 * and client navigations only. Responses (redirects to /login, thrown errors) pass through.
 */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  try {
    return await serverLoader<typeof loader>();
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    return { rates: null, list: null, loadError: RATE_MESSAGES.unreachable, undo: null };
  }
}

/** Expanded rows and dialogs are URL state the loader does not read: no refetch (filters and `page` refetch). */
/**
 * Unlike other sections, a post that failed to reach the app is followed by a reload here
 * (no `reloadUnlessSubmitFailed`): the clientLoader above answers an unreachable server with
 * the spec 1 §4 retry flow, so the reload is safe, and it tells the operator the truth.
 */
export const shouldRevalidate: ShouldRevalidateFunction = keepDataForUrlOnlyParams(VIEW_PARAMS);

// ---------------------------------------------------------------------------------------
// Action

/** The fields a rates answer carries besides `ok`, `intent` and `message` (ActionResult). */
type RatesFields = Pick<ActionResult, "formId" | "result" | "importText" | "importProblems">;

/**
 * A rates outcome. A form with errors (conform's `result`: also a tier list changed without
 * JavaScript) and a refused import (its `importText`) are shown again as posted; the rest
 * go back with the flash toast.
 */
function outcome(ok: boolean, message: string, fields: RatesFields = {}, status?: number): PageOutcome {
  return { ok, message, status, data: fields, render: fields.result !== undefined || fields.importText !== undefined };
}

const parseAdd = (formData: FormData) => parseWithZod(formData, { schema: addEntriesSchema });
type AddValues = Extract<ReturnType<typeof parseAdd>, { status: "success" }>;

const RATES_ACTION: PageActionOptions<Intent> = {
  section: "Exchange rates",
  home: "/exchange-rates",
  // A failure that is ours: the §8 text of the form (status: "Failed to enable…" or "…disable…").
  failure: (intent, form) => failureMessage(intent, form.formData),
  intents: {
    save: async ({ intent, form }) => {
      const formId = rowFormId(form.string("inputItem"), form.string("outputItem"));
      const submission = parseWithZod(form.formData, { schema: saveRateSchema() });
      // conform's add/remove tier and revert, posted without JavaScript.
      if (submission.status === undefined) return outcome(true, "", { formId, result: submission.reply() });
      // Spec 1 §5: saving with errors is blocked with the one toast, the errors beside the
      // tiers. The browser says so before posting once its check has loaded; a Save pressed
      // before that (a slow phone) gets the same toast from here, not a different text.
      if (submission.status !== "success") return outcome(false, RATE_MESSAGES.fixErrors, { formId, result: submission.reply() });
      const { inputItem, outputItem, tiers } = submission.value;
      if (!(await getRatePair(inputItem, outputItem))) return notFound(intent, form.formData);
      // Stored (and so shown) in quantity order, whatever order they were typed in.
      const rates = tiersToPayload(sortTiers(tiers.map((t) => ({ quantity: t.quantity ?? "", rate: t.rate ?? "" }))));
      await upsertRate({ inputItem, outputItem, rates });
      return outcome(true, RATE_MESSAGES.saved, { formId });
    },
    status: async ({ intent, form }) => {
      const submission = parseWithZod(form.formData, { schema: statusSchema });
      if (submission.status !== "success") return invalid(intent, form.formData, submission.error);
      const saved = await setRateStatus(submission.value);
      if (!saved) return notFound(intent, form.formData);
      return RATE_MESSAGES.statusSaved(saved.status);
    },
    delete: async ({ intent, form, operatorId }) => {
      const submission = parseWithZod(form.formData, { schema: deleteSchema });
      if (submission.status !== "success") return invalid(intent, form.formData, submission.error);
      // Kept for Undo (the loader offers it, with and without JavaScript).
      if (!(await deleteRatePairUndoable(operatorId, submission.value.inputItem, submission.value.outputItem))) return notFound(intent, form.formData);
      return RATE_MESSAGES.deleted;
    },
    "delete-input": async ({ intent, form, operatorId }) => {
      const submission = parseWithZod(form.formData, { schema: deleteInputSchema });
      if (submission.status !== "success") return invalid(intent, form.formData, submission.error);
      if (!(await deleteRatesForInputUndoable(operatorId, submission.value.inputItem))) return notFound(intent, form.formData);
      return RATE_MESSAGES.deletedAll;
    },
    add: async ({ intent, form }) => {
      const formId = addFormId();
      const submission = parseAdd(form.formData);
      if (submission.status === undefined) return outcome(true, "", { formId, result: submission.reply() });
      if (submission.status !== "success") {
        return outcome(false, failureMessage(intent, form.formData, firstError(submission.error)), { formId, result: submission.reply() });
      }
      const { inputItem, outputs } = submission.value;
      const used = new Set<string>();
      for (const o of outputs) if (await getRatePair(inputItem, o.outputItem)) used.add(o.outputItem);
      if (used.size) return refuseUsed(form.formData, submission, used);
      // The model refuses a pair added meanwhile (RatePairExistsError, answered by onError).
      await batchUpsert(
        outputs.map((o) => ({ inputItem, outputItem: o.outputItem, rates: o.rate, status: true })),
        { existing: "refuse" },
      );
      return outcome(true, RATE_MESSAGES.newEntriesAdded, { formId });
    },
    "add-output": async ({ intent, form }) => {
      const inputItem = form.string("inputItem");
      const formId = addFormId(inputItem);
      const submission = parseWithZod(form.formData, { schema: addOutputSchema });
      if (submission.status !== "success") {
        return outcome(false, failureMessage(intent, form.formData, firstError(submission.error)), { formId, result: submission.reply() });
      }
      const { outputItem, numerator, denominator } = submission.value;
      if (await getRatePair(inputItem, outputItem)) {
        const message = failureMessage(intent, form.formData, ADD_MESSAGES.alreadyUsed);
        return outcome(false, message, { formId, result: submission.reply({ fieldErrors: { outputItem: [ADD_MESSAGES.alreadyUsed] } }) }, 409);
      }
      await upsertRate({ inputItem, outputItem, rates: composeRate(numerator, denominator), status: true });
      return outcome(true, RATE_MESSAGES.added, { formId });
    },
    "undo-delete": async ({ form, operatorId }) => {
      const restored = await undoRateDeletion(operatorId, form.string("undoId"));
      if (restored === null) return outcome(false, RATE_MESSAGES.undoGone, {}, 404);
      return RATE_MESSAGES.undone(restored);
    },
    import: async ({ form }) => {
      const submission = parseWithZod(form.formData, { schema: importSchema });
      if (submission.status !== "success") {
        return refusedImport(form, { detail: "empty import text", problems: { shown: [RATE_MESSAGES.importEmpty], count: 1 } });
      }
      const parsed = parseImportText(submission.value.data, { knownGift: isKnownGift });
      if (!parsed.ok) return refusedImport(form, parsed);
      // A rule the model refuses (RateValidationError) is a refused import too (onError).
      await batchUpsert(parsed.updates);
      return RATE_MESSAGES.imported;
    },
  },
  onError: async (err, { intent, form }, byDefault) => {
    if (intent === "add" && err instanceof RatePairExistsError) {
      const submission = parseAdd(form.formData);
      if (submission.status === "success") return refuseUsed(form.formData, submission, new Set(err.pairs.map((p) => p.outputItem)));
    }
    if (intent === "import" && err instanceof RateValidationError) {
      return refusedImport(form, { detail: err.message, problems: { shown: [err.message], count: 1 } });
    }
    // A rule the model refused (an AppError) is the operator's to fix: its status, its text in
    // the §8 wording. Anything else is ours: logged, 500, the §8 text alone (`failure`).
    const fallback = await byDefault();
    const message = failureMessage(intent, form.formData, err instanceof AppError ? err.message || undefined : undefined);
    const shown = failureFields(intent, form, message);
    return { ...fallback, message, data: shown.data, render: shown.render };
  },
};

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  // A row's Enable/Disable/Delete posted without JavaScript names its pair in one field.
  return runPageAction(withPairFields(await readFormData(request)), operator.id, RATES_ACTION);
}

/**
 * What a failed intent's answer carries besides its text: the form it belongs to, shown again
 * where it has a reply. The add forms are parsed again for conform's reply (the failure came
 * after they parsed; a failure path only, and it keeps the handlers free of catch blocks).
 */
function failureFields(intent: Intent, form: FormFields, message: string): PageOutcome {
  const { formData } = form;
  switch (intent) {
    case "save":
      return outcome(false, message, { formId: rowFormId(form.string("inputItem"), form.string("outputItem")) });
    case "add":
      return outcome(false, message, { formId: addFormId(), result: parseAdd(formData).reply({ formErrors: [message] }) });
    case "add-output": {
      const result = parseWithZod(formData, { schema: addOutputSchema }).reply({ formErrors: [message] });
      return outcome(false, message, { formId: addFormId(form.string("inputItem")), result });
    }
    case "import":
      return outcome(false, message, { importText: form.string("data") });
    default:
      return outcome(false, message);
  }
}

/**
 * New entries never overwrite (spec 1 §2: used outputs are '(already used)'): a pair that
 * exists is refused with its row marked; edits go through the row's editor.
 */
function refuseUsed(formData: FormData, submission: AddValues, used: ReadonlySet<string>): PageOutcome {
  const { inputItem, outputs } = submission.value;
  const fieldErrors = Object.fromEntries(outputs.flatMap((o, i) => (used.has(o.outputItem) ? [[`outputs[${i}].outputItem`, [ADD_MESSAGES.alreadyUsed]]] : [])));
  const first = outputs.find((o) => used.has(o.outputItem))!;
  const message = failureMessage("add", formData, RATE_MESSAGES.pairExists(inputItem, first.outputItem));
  return outcome(false, message, { formId: addFormId(), result: submission.reply({ fieldErrors }) }, 409);
}

/**
 * An import that is not a valid rates map: the §8 headline 'Invalid data format' (spec 1 §5),
 * its text kept, and under the headline which entries failed and why (issue 30 A2), also in
 * System Logs.
 */
function refusedImport(form: FormFields, { detail, problems }: { detail: string; problems: ImportProblems }): PageOutcome {
  void logEvent({ type: "info", source: "system", message: `Exchange rate import refused: ${detail}` });
  return outcome(false, RATE_MESSAGES.importFailed, { importText: form.string("data"), importProblems: problems });
}

function firstError(error: Record<string, string[] | null> | null | undefined): string | undefined {
  return Object.values(error ?? {})
    .flat()
    .find((m): m is string => !!m);
}

function invalid(intent: Intent, formData: FormData, error: Record<string, string[] | null> | null | undefined): PageOutcome {
  return outcome(false, failureMessage(intent, formData, firstError(error)));
}

function notFound(intent: Intent, formData: FormData): PageOutcome {
  return outcome(false, failureMessage(intent, formData, RATE_MESSAGES.notFound), {}, 404);
}

/**
 * With JavaScript, fetcher posts come through the form kit: when the server cannot be
 * reached (or answers something that is not the app), the failure becomes a toast titled
 * as the intent's own failure and a result the row can react to (its optimistic change
 * falls away), instead of the route error page.
 */
export const clientAction = keepInputOnFailure((formData) => {
  const raw = formData?.get("intent");
  return failureMessage(isIntent(raw) ? raw : null, formData);
});

// ---------------------------------------------------------------------------------------
// Screen

export default function ExchangeRatesRoute() {
  const loaded = useLoaderData<typeof clientLoader>();
  const actionData = useActionData<typeof action>() as ActionResult | undefined;
  return <RatesPanel loaded={loaded} actionData={actionData} />;
}

/**
 * Reached when the page's data could not be fetched at all (network down, server
 * restarting). Same panel and retry policy as a failed load.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const hydrated = useHydrated();
  const { retrying, retry } = useRatesLoadRetry(error);
  const message = isRouteErrorResponse(error)
    ? // A refusal says its reason (issue 28); otherwise the status, never a status text like "Unexpected Server Error".
      ((error.status < 500 ? refusalReason(error.data) : null) ?? `The server answered ${error.status}`)
    : error instanceof Error
      ? error.message
      : "The server could not be reached";
  return (
    <>
      <SectionHeader title="Exchange Rates" />
      {hydrated && retrying ? (
        <RatesSkeleton />
      ) : (
        <LoadFailurePanel title={RATE_MESSAGES.loadFailed} message={message} onRetry={hydrated ? retry : undefined} />
      )}
    </>
  );
}
