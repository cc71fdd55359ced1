import { parseWithZod } from "@conform-to/zod/v4";
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
import { parseImportText } from "#api/rates-schemas";
import styles from "~/routes/_app+/_exchange-rates+/components/exchange-rates.css?url";
import { addFormId, rowFormId, withPairFields, type ActionResult } from "~/routes/_app+/_exchange-rates+/components/form-helpers";
import { ADD_MESSAGES, composeRate, failureMessage, INTENTS, isIntent, type Intent } from "~/routes/_app+/_exchange-rates+/components/form-rules";
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
  latestRateUndo,
  RatePairExistsError,
  RateValidationError,
  setRateStatus,
  undoRateDeletion,
  upsertRate,
} from "~/models/rate.server";
import { requireOperator, safeRedirect } from "~/utils/auth.server";
import { errorText } from "~/utils/errors";
import { dispatchIntent } from "~/utils/intent.server";
import { isUnreachable } from "~/utils/unreachable";
import { jsonWithError, jsonWithSuccess, redirectWithError, redirectWithSuccess } from "~/utils/toast.server";
import { readFormData } from "~/utils/forms.server";
import { keepDataForUrlOnlyParams } from "~/utils/search-params";

/**
 * The Exchange Rates section (spec 1 §2 "Exchange Rates section", §4, §5, §8).
 *
 * loader  one page of the rates list (`ratesPage`: the filters and `page` of the URL, run in
 *         the database; at most RATE_PAGE_SIZE pairs); a failed load answers 503 with the
 *         reason instead of throwing, so the panel can keep rates it already shows and retry (§4).
 * action  one `intent` per form: save, status, delete, delete-input, add, add-output,
 *         import. Each form's zod schema (components/exchange-rates/forms.ts) runs in the
 *         browser through conform and again here; the rate model checks the /api contract.
 *         Fetchers get data plus a flash toast; plain posts (no JavaScript, `redirectTo`)
 *         are redirected with the toast, or get the page again when a form has errors.
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

type Outcome = ActionResult & { status?: number };

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  // A row's Enable/Disable/Delete posted without JavaScript names its pair in one field.
  const formData = withPairFields(await readFormData(request));
  const rawRedirect = formData.get("redirectTo");
  const redirectTo = rawRedirect ? safeRedirect(rawRedirect, "/exchange-rates") : null;

  const handlers = Object.fromEntries(INTENTS.map((i) => [i, async () => respond(await handle(i, formData, operator.id), redirectTo)]));
  return dispatchIntent(formData, handlers as Record<Intent, () => ReturnType<typeof respond>>);
}

async function respond(outcome: Outcome, redirectTo: string | null) {
  const { status = outcome.ok ? 200 : 400, ...result } = outcome;
  if (redirectTo) {
    if (outcome.ok && !result.result) return redirectWithSuccess(redirectTo, result.message);
    // A form with errors (or a tier list changed without JavaScript) is shown again as posted.
    if (result.result || result.intent === "import") return data(result, { status });
    return redirectWithError(redirectTo, result.message);
  }
  if (outcome.ok) return result.message ? jsonWithSuccess(result, result.message) : data(result, { status });
  return jsonWithError(result, result.message, { status });
}

async function handle(intent: Intent, formData: FormData, operatorId: string): Promise<Outcome> {
  const fail = (err: unknown): Outcome => failed(intent, formData, err);
  switch (intent) {
    case "save": {
      const formId = rowFormId(String(formData.get("inputItem") ?? ""), String(formData.get("outputItem") ?? ""));
      const submission = parseWithZod(formData, { schema: saveRateSchema() });
      if (submission.status === undefined) {
        // conform's add/remove tier and revert, posted without JavaScript.
        return { ok: true, intent, message: "", formId, result: submission.reply() };
      }
      if (submission.status !== "success") {
        const first = firstError(submission.error) ?? RATE_MESSAGES.fixErrors;
        return { ok: false, intent, message: failureMessage(intent, formData, first), formId, result: submission.reply() };
      }
      const { inputItem, outputItem, tiers } = submission.value;
      try {
        if (!(await getRatePair(inputItem, outputItem))) return notFound(intent, formData);
        // Stored (and so shown) in quantity order, whatever order they were typed in.
        const rates = tiersToPayload(sortTiers(tiers.map((t) => ({ quantity: t.quantity ?? "", rate: t.rate ?? "" }))));
        await upsertRate({ inputItem, outputItem, rates });
        return { ok: true, intent, message: RATE_MESSAGES.saved, formId };
      } catch (err) {
        return { ...fail(err), formId };
      }
    }
    case "status": {
      const submission = parseWithZod(formData, { schema: statusSchema });
      if (submission.status !== "success") return invalid(intent, formData, submission.error);
      try {
        const saved = await setRateStatus(submission.value);
        if (!saved) return notFound(intent, formData);
        return { ok: true, intent, message: RATE_MESSAGES.statusSaved(saved.status) };
      } catch (err) {
        return fail(err);
      }
    }
    case "delete": {
      const submission = parseWithZod(formData, { schema: deleteSchema });
      if (submission.status !== "success") return invalid(intent, formData, submission.error);
      try {
        // Kept for Undo (the loader offers it, with and without JavaScript).
        if (!(await deleteRatePairUndoable(operatorId, submission.value.inputItem, submission.value.outputItem))) return notFound(intent, formData);
        return { ok: true, intent, message: RATE_MESSAGES.deleted };
      } catch (err) {
        return fail(err);
      }
    }
    case "delete-input": {
      const submission = parseWithZod(formData, { schema: deleteInputSchema });
      if (submission.status !== "success") return invalid(intent, formData, submission.error);
      try {
        if (!(await deleteRatesForInputUndoable(operatorId, submission.value.inputItem))) return notFound(intent, formData);
        return { ok: true, intent, message: RATE_MESSAGES.deletedAll };
      } catch (err) {
        return fail(err);
      }
    }
    case "add": {
      const formId = addFormId();
      const submission = parseWithZod(formData, { schema: addEntriesSchema });
      if (submission.status === undefined) return { ok: true, intent, message: "", formId, result: submission.reply() };
      if (submission.status !== "success") {
        const first = firstError(submission.error);
        return { ok: false, intent, message: failureMessage(intent, formData, first), formId, result: submission.reply() };
      }
      const { inputItem, outputs } = submission.value;
      // New entries never overwrite (spec 1 §2: used outputs are '(already used)'): a pair
      // that exists is refused with its row marked; edits go through the row's editor.
      const refuse = (used: ReadonlySet<string>): Outcome => {
        const fieldErrors = Object.fromEntries(
          outputs.flatMap((o, i) => (used.has(o.outputItem) ? [[`outputs[${i}].outputItem`, [ADD_MESSAGES.alreadyUsed]]] : [])),
        );
        const first = outputs.find((o) => used.has(o.outputItem))!;
        const message = failureMessage(intent, formData, RATE_MESSAGES.pairExists(inputItem, first.outputItem));
        return { ok: false, intent, message, formId, status: 409, result: submission.reply({ fieldErrors }) };
      };
      try {
        const used = new Set<string>();
        for (const o of outputs) if (await getRatePair(inputItem, o.outputItem)) used.add(o.outputItem);
        if (used.size) return refuse(used);
        await batchUpsert(
          outputs.map((o) => ({ inputItem, outputItem: o.outputItem, rates: o.rate, status: true })),
          { existing: "refuse" },
        );
        return { ok: true, intent, message: RATE_MESSAGES.newEntriesAdded, formId };
      } catch (err) {
        if (err instanceof RatePairExistsError) return refuse(new Set(err.pairs.map((p) => p.outputItem)));
        const f = fail(err);
        return { ...f, formId, result: submission.reply({ formErrors: [f.message] }) };
      }
    }
    case "add-output": {
      const inputItem = String(formData.get("inputItem") ?? "");
      const formId = addFormId(inputItem);
      const submission = parseWithZod(formData, { schema: addOutputSchema });
      if (submission.status !== "success") {
        const first = firstError(submission.error);
        return { ok: false, intent, message: failureMessage(intent, formData, first), formId, result: submission.reply() };
      }
      const { outputItem, numerator, denominator } = submission.value;
      try {
        if (await getRatePair(inputItem, outputItem)) {
          const message = failureMessage(intent, formData, ADD_MESSAGES.alreadyUsed);
          return { ok: false, intent, message, formId, status: 409, result: submission.reply({ fieldErrors: { outputItem: [ADD_MESSAGES.alreadyUsed] } }) };
        }
        await upsertRate({ inputItem, outputItem, rates: composeRate(numerator, denominator), status: true });
        return { ok: true, intent, message: RATE_MESSAGES.added, formId };
      } catch (err) {
        const f = fail(err);
        return { ...f, formId, result: submission.reply({ formErrors: [f.message] }) };
      }
    }
    case "undo-delete": {
      const undoId = String(formData.get("undoId") ?? "");
      try {
        const restored = await undoRateDeletion(operatorId, undoId);
        if (restored === null) return { ok: false, intent, message: RATE_MESSAGES.undoGone, status: 404 };
        return { ok: true, intent, message: RATE_MESSAGES.undone(restored) };
      } catch (err) {
        return fail(err);
      }
    }
    case "import": {
      const submission = parseWithZod(formData, { schema: importSchema });
      const text = typeof formData.get("data") === "string" ? String(formData.get("data")) : "";
      const refused = (detail: string): Outcome => {
        void logEvent({ type: "info", source: "system", message: `Exchange rate import refused: ${detail}` });
        return { ok: false, intent, message: RATE_MESSAGES.importFailed, importText: text };
      };
      if (submission.status !== "success") return refused("empty import text");
      const parsed = parseImportText(submission.value.data);
      if (!parsed.ok) return refused(parsed.detail);
      try {
        await batchUpsert(parsed.updates);
        return { ok: true, intent, message: RATE_MESSAGES.imported };
      } catch (err) {
        if (err instanceof RateValidationError) return refused(err.message);
        return { ...fail(err), importText: text };
      }
    }
  }
}

function firstError(error: Record<string, string[] | null> | null | undefined): string | undefined {
  return Object.values(error ?? {})
    .flat()
    .find((m): m is string => !!m);
}

function invalid(intent: Intent, formData: FormData, error: Record<string, string[] | null> | null | undefined): Outcome {
  return { ok: false, intent, message: failureMessage(intent, formData, firstError(error)) };
}

function notFound(intent: Intent, formData: FormData): Outcome {
  return { ok: false, intent, message: failureMessage(intent, formData, RATE_MESSAGES.notFound), status: 404 };
}

/** A rule the model refused is the operator's to fix (400, its text); anything else is ours (500, logged). */
function failed(intent: Intent, formData: FormData, err: unknown): Outcome {
  if (err instanceof RateValidationError) return { ok: false, intent, message: failureMessage(intent, formData, err.message) };
  void logEvent({ type: "error", source: "system", message: `Exchange rates: ${intent} failed`, details: err });
  return { ok: false, intent, message: failureMessage(intent, formData), status: 500 };
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
    ? `The server answered ${error.status}${error.statusText ? ` ${error.statusText}` : ""}`
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
