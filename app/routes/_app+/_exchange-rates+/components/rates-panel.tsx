import { PlusIcon, UploadIcon } from "~/components/ui/icons";
import { Flex, Text } from "@radix-ui/themes";
import { Link, useFetcher, useFetchers, useLocation, useNavigation } from "@remix-run/react";
import { useMemo, useRef } from "react";
import { RATE_MESSAGES, type RatesMap } from "#api/rates";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { EmptyState } from "~/components/ui/empty-state";
import { SectionHeader } from "~/components/ui/section-header";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { useOptimisticUpdates } from "~/utils/preferences";
import { useLive } from "~/components/live/live";
import { ExportButton } from "./export-button";
import { LoadFailurePanel } from "~/components/ui/load-failure";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { UndoBar } from "~/components/ui/undo-bar";
import { ViewButton } from "~/components/ui/view-button";
import { addFormId, RowActionForms, RowToggleForm, type ActionResult } from "./form-helpers";
import { AddOutputDialog, AddRatesDialog, ConfirmDialog, ImportDialog } from "./lazy-dialogs";
import { RatesSkeleton, useRatesLoadRetry } from "./rates-loading";
import { ViewSettings } from "./optimistic-setting";
import { RateFilters } from "./rate-filters";
import { RateGroupCard } from "./rate-group";
import { RowIconSprite } from "./row-icons";
import { applyRateChange, changeFromSubmission, pageGroups, viewHref, viewToParams, type RatesView } from "./rates-view";
import { useViewState } from "./use-view-state";
import type { RatesList } from "../exchange-rates";

export const SECTION_PATH = "/exchange-rates";
const DELETE_INPUT_FETCHER = "rates:delete-input";
/** Submissions that dim the panel while they run (spec 1 §2). */
const BLOCKING_INTENTS = new Set(["add", "add-output", "delete-input", "import"]);

type Props = {
  /**
   * The loader's answer: one page of the rates (and what it says about the whole list), or
   * null with the reason when the load failed.
   */
  loaded: { rates: RatesMap | null; list: RatesList | null; loadError: string | null; undo?: { id: string; label: string } | null };
  actionData?: ActionResult;
};

/**
 * The Exchange Rates section (spec 1 §2): header buttons, filters, and the panel grouped
 * by input gift, with its dialogs. Rates come from the route's loader; row changes
 * (status, delete, save) are fetcher posts whose pending form data is applied to the list
 * at once unless the browser's optimistic-updates preference is off (spec 1 §4).
 */
export function RatesPanel({ loaded, actionData }: Props) {
  const hydrated = useHydrated();
  // A viewer reads the rates and filters them; adding, importing, deleting and editing are
  // not offered (issue 21; the server refuses them anyway).
  const canWrite = useCanWrite();
  const { view, update } = useViewState();
  const [optimistic] = useOptimisticUpdates();
  const fetchers = useFetchers();
  const navigation = useNavigation();
  // Issue 30 A1: a rate changed anywhere (another tab, /api, an import) shows here within a
  // second; a row being edited keeps the edit and says the rate changed (row-editor.tsx).
  useLive(["rates"]);

  // A failed reload keeps the rates already on screen (spec 1 §2: the error panel is for
  // "loading failed and there are no rates").
  const lastGood = useRef({ rates: loaded.rates, list: loaded.list });
  if (loaded.rates && loaded.list) lastGood.current = { rates: loaded.rates, list: loaded.list };
  const saved = loaded.rates ?? lastGood.current.rates;
  const list = loaded.list ?? lastGood.current.list;
  const { retrying, retry } = useRatesLoadRetry(loaded.loadError ? loaded : null);

  const ours = fetchers.filter((f) => f.formData && (f.formAction ?? "").split("?")[0] === SECTION_PATH);
  const rates = useMemo(() => {
    if (!saved || !optimistic) return saved;
    let map = saved;
    for (const f of ours) {
      const change = changeFromSubmission(f.formData!);
      if (change) map = applyRateChange(map, change);
    }
    return map;
  }, [saved, optimistic, ours]);

  const pendingIntents = [...ours.map((f) => f.formData!.get("intent")), navigation.formData?.get("intent")];
  const busy = pendingIntents.some((i) => typeof i === "string" && (BLOCKING_INTENTS.has(i) || (i === "delete" && !optimistic)));

  const deleteInput = useFetcher<ActionResult>({ key: DELETE_INPUT_FETCHER });
  useFetcherOutcome(deleteInput);

  const closed: RatesView = { ...view, dialog: null };
  const closeHref = viewHref(closed);
  const closeDialog = () => update({ dialog: null });
  const dialog = canWrite ? view.dialog : null;
  const lastFor = (formId: string) => (actionData?.formId === formId ? actionData.result : undefined);

  const groups = rates && list ? pageGroups(rates, list.groups) : [];
  const inputs = list?.inputs ?? [];
  // Pairs the page was loaded with: when all of them are gone (optimistic deletes) and they
  // were the whole list, or all that matched, the empty states show at once.
  const onPage = saved ? Object.values(saved).reduce((n, outputs) => n + Object.keys(outputs).length, 0) : 0;
  const addView: RatesView = { ...view, dialog: { type: "add" } };
  const importView: RatesView = { ...view, dialog: { type: "import" } };
  const clearedView: RatesView = { ...view, incoming: "", outgoing: "", item: "", page: 1 };

  let content: React.ReactNode;
  if (!rates || !list) {
    content =
      hydrated && retrying ? (
        <RatesSkeleton />
      ) : (
        <LoadFailurePanel title={RATE_MESSAGES.loadFailed} message={loaded.loadError ?? "Unknown error"} onRetry={hydrated ? retry : undefined} />
      );
  } else if (list.total === 0 || (groups.length === 0 && list.total <= onPage)) {
    content = (
      <EmptyState
        title="No exchange rates yet"
        description={canWrite ? "Add rates one input gift at a time, or import a JSON export." : undefined}
        action={
          canWrite && (
            <>
              <ViewButton params={(base) => viewToParams(addView, base)} onActivate={() => update({ dialog: { type: "add" } })}>
                <PlusIcon /> Add exchange rates
              </ViewButton>
              <ViewButton params={(base) => viewToParams(importView, base)} onActivate={() => update({ dialog: { type: "import" } })} variant="soft">
                <UploadIcon /> Import JSON
              </ViewButton>
            </>
          )
        }
      />
    );
  } else if (groups.length === 0 && list.matching <= onPage) {
    content = (
      <EmptyState
        title="No exchange rates match the filters"
        description="Try another gift name or nick, or show every item."
        action={
          <ViewButton
            params={(base) => viewToParams(clearedView, base)}
            onActivate={() => update({ incoming: "", outgoing: "", item: "", page: 1 })}
            variant="soft"
          >
            Clear filters
          </ViewButton>
        }
      />
    );
  } else {
    content = (
      <Flex direction="column" gap="3">
        <RowIconSprite />
        <RowToggleForm />
        {canWrite ? <RowActionForms action={SECTION_PATH} /> : null}
        {groups.map((group) => (
          <RateGroupCard key={group.input} group={group} saved={saved ?? {}} view={view} onView={(next) => update(next)} lastResult={actionData} />
        ))}
        <RatesPager list={list} />
      </Flex>
    );
  }

  const deleteTarget = dialog?.type === "delete-input" ? dialog.input : null;
  const noJsFailure = !hydrated && actionData && !actionData.ok ? actionData : undefined;

  return (
    <>
      <SectionHeader
        title="Exchange Rates"
        actions={
          <>
            {canWrite ? (
              <ViewButton params={(base) => viewToParams(addView, base)} onActivate={() => update({ dialog: { type: "add" } })} className="gt-touch">
                <PlusIcon /> Add
              </ViewButton>
            ) : null}
            <ExportButton disabled={!rates} />
            {canWrite ? (
              <ViewButton
                params={(base) => viewToParams(importView, base)}
                onActivate={() => update({ dialog: { type: "import" } })}
                variant="soft"
                className="gt-touch"
              >
                <UploadIcon /> Import
              </ViewButton>
            ) : null}
            <ViewSettings />
          </>
        }
      />

      {noJsFailure && !noJsFailure.result ? (
        <Text as="p" color="red" size="2" role="alert" mb="3">
          {noJsFailure.message}
        </Text>
      ) : null}

      <AddRatesDialog
        open={dialog?.type === "add"}
        usedOutputs={(input) => list?.used[input] ?? []}
        onClose={closeDialog}
        closeHref={closeHref}
        lastResult={lastFor(addFormId())}
      />
      <AddOutputDialog
        input={dialog?.type === "add-output" ? dialog.input : null}
        used={dialog?.type === "add-output" ? (list?.used[dialog.input] ?? []) : []}
        onClose={closeDialog}
        closeHref={closeHref}
        lastResult={dialog?.type === "add-output" ? lastFor(addFormId(dialog.input)) : undefined}
      />
      <ImportDialog
        open={dialog?.type === "import"}
        onClose={closeDialog}
        closeHref={closeHref}
        failedText={noJsFailure?.intent === "import" ? noJsFailure.importText : undefined}
        failedProblems={noJsFailure?.intent === "import" ? noJsFailure.importProblems : undefined}
      />
      {deleteTarget !== null && !hydrated ? (
        <ConfirmPanel
          title={RATE_MESSAGES.deleteAllTitle}
          description={RATE_MESSAGES.deleteAllText(deleteTarget)}
          confirmLabel="Delete"
          cancelTo={closeHref}
          form={{ fields: { intent: "delete-input", inputItem: deleteTarget, redirectTo: `${SECTION_PATH}${closeHref}` } }}
        />
      ) : null}
      {hydrated ? (
        <ConfirmDialog
          open={deleteTarget !== null}
          onOpenChange={(open) => !open && closeDialog()}
          title={RATE_MESSAGES.deleteAllTitle}
          description={deleteTarget ? RATE_MESSAGES.deleteAllText(deleteTarget) : ""}
          confirmLabel="Delete"
          onConfirm={() => {
            if (deleteTarget) deleteInput.submit({ intent: "delete-input", inputItem: deleteTarget }, { method: "post", action: SECTION_PATH });
            closeDialog();
          }}
        />
      ) : null}

      <Flex justify="between" align="center" gap="3" wrap="wrap" mb="3">
        {/* A new filter starts again at the first page. */}
        <RateFilters view={view} inputs={inputs} onChange={(change, options) => update({ ...change, page: 1 }, options)} />
      </Flex>

      <div
        className="gt-rates-panel"
        data-busy={busy || undefined}
        data-loading={(navigation.state === "loading" && navigation.location.pathname === SECTION_PATH && !busy) || undefined}
        aria-busy={busy || undefined}
        // React 18 does not know `inert` yet; the attribute is passed through as written.
        {...(busy ? { inert: "" } : {})}
      >
        {/* A reload failed while rates are on screen: they stay (with any unsaved edits)
            and, once the retries have given up, the failure and Retry show above them. */}
        {loaded.loadError && rates && hydrated && !retrying ? (
          <div className="gt-rates-stale">
            <LoadFailurePanel title={RATE_MESSAGES.loadFailed} message={loaded.loadError} onRetry={retry} />
          </div>
        ) : null}
        {loaded.undo && rates && canWrite ? (
          <UndoBar
            key={loaded.undo.id}
            message={RATE_MESSAGES.undoOffer(loaded.undo.label)}
            action={SECTION_PATH}
            fields={{ intent: "undo-delete", undoId: loaded.undo.id }}
          />
        ) : null}
        {content}
      </div>
    </>
  );
}

/**
 * Where the page is in the list, and plain links to the pages around it (issue 20: the page
 * holds RATE_PAGE_SIZE pairs; links work without JavaScript and keep the filters).
 */
function RatesPager({ list }: { list: RatesList }) {
  const location = useLocation();
  if (list.pages <= 1) return null;
  const first = (list.page - 1) * list.size + 1;
  const last = Math.min(list.matching, list.page * list.size);
  const href = (page: number) => {
    const params = new URLSearchParams(location.search);
    params.delete("page");
    params.delete("open");
    if (page > 1) params.set("page", String(page));
    const search = params.toString();
    return `${location.pathname}${search ? `?${search}` : ""}`;
  };
  const link = (page: number, label: string, rel: string) => (
    <Link to={href(page)} rel={rel} className="rt-reset rt-BaseButton rt-r-size-2 rt-variant-soft rt-Button" data-accent-color="gray">
      {label}
    </Link>
  );
  return (
    <nav aria-label="Exchange rate pages" className="gt-rates-pager">
      {list.page > 1 ? link(1, "First", "first") : null}
      {list.page > 1 ? link(list.page - 1, "← Previous", "prev") : null}
      <Text size="2" color="gray">
        {`Page ${list.page} of ${list.pages} · pairs ${first}–${last} of ${list.matching.toLocaleString("en")}`}
      </Text>
      {list.page < list.pages ? link(list.page + 1, "Next →", "next") : null}
      {list.page < list.pages ? link(list.pages, "Last", "last") : null}
    </nav>
  );
}
