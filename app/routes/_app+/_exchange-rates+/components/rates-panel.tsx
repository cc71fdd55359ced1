import { PlusIcon, UploadIcon } from "~/components/ui/icons";
import { Flex, Text } from "@radix-ui/themes";
import { useFetcher, useFetchers, useNavigation } from "@remix-run/react";
import { useMemo, useRef } from "react";
import { RATE_MESSAGES, type RatesMap } from "#api/rates";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { EmptyState } from "~/components/ui/empty-state";
import { SectionHeader } from "~/components/ui/section-header";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { useOptimisticUpdates } from "~/utils/preferences";
import { ExportButton } from "./export-button";
import { LoadFailurePanel } from "~/components/ui/load-failure";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { UndoBar } from "~/components/ui/undo-bar";
import { ViewButton } from "~/components/ui/view-button";
import { addFormId, RowActionForms, type ActionResult } from "./form-helpers";
import { AddOutputDialog, AddRatesDialog, ConfirmDialog, ImportDialog } from "./lazy-dialogs";
import { RatesSkeleton, useRatesLoadRetry } from "./rates-loading";
import { ViewSettings } from "./optimistic-setting";
import { RateFilters } from "./rate-filters";
import { RateGroupCard } from "./rate-group";
import { RowIconSprite } from "./row-icons";
import { applyRateChange, changeFromSubmission, filterGroups, sortedInputs, viewHref, viewToParams, type RatesView } from "./rates-view";
import { useViewState } from "./use-view-state";

export const SECTION_PATH = "/exchange-rates";
const DELETE_INPUT_FETCHER = "rates:delete-input";
/** Submissions that dim the panel while they run (spec 1 §2). */
const BLOCKING_INTENTS = new Set(["add", "add-output", "delete-input", "import"]);

type Props = {
  /** The loader's answer: the rates, or null with the reason when the load failed. */
  loaded: { rates: RatesMap | null; loadError: string | null; undo?: { id: string; label: string } | null };
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

  // A failed reload keeps the rates already on screen (spec 1 §2: the error panel is for
  // "loading failed and there are no rates").
  const lastGood = useRef(loaded.rates);
  if (loaded.rates) lastGood.current = loaded.rates;
  const saved = loaded.rates ?? lastGood.current;
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

  const groups = rates ? filterGroups(rates, view) : [];
  const inputs = rates ? sortedInputs(rates) : [];
  const addView: RatesView = { ...view, dialog: { type: "add" } };
  const importView: RatesView = { ...view, dialog: { type: "import" } };
  const clearedView: RatesView = { ...view, incoming: "", outgoing: "", item: "" };

  let content: React.ReactNode;
  if (!rates) {
    content =
      hydrated && retrying ? (
        <RatesSkeleton />
      ) : (
        <LoadFailurePanel title={RATE_MESSAGES.loadFailed} message={loaded.loadError ?? "Unknown error"} onRetry={hydrated ? retry : undefined} />
      );
  } else if (Object.keys(rates).length === 0) {
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
  } else if (groups.length === 0) {
    content = (
      <EmptyState
        title="No exchange rates match the filters"
        description="Try another gift name or nick, or show every item."
        action={
          <ViewButton params={(base) => viewToParams(clearedView, base)} onActivate={() => update({ incoming: "", outgoing: "", item: "" })} variant="soft">
            Clear filters
          </ViewButton>
        }
      />
    );
  } else {
    content = (
      <Flex direction="column" gap="3">
        <RowIconSprite />
        {canWrite ? <RowActionForms action={SECTION_PATH} /> : null}
        {groups.map((group) => (
          <RateGroupCard key={group.input} group={group} saved={saved ?? {}} view={view} onView={(next) => update(next)} lastResult={actionData} />
        ))}
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
            <ExportButton rates={rates} disabled={!rates} />
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
        usedOutputs={(input) => Object.keys(saved?.[input] ?? {})}
        onClose={closeDialog}
        closeHref={closeHref}
        lastResult={lastFor(addFormId())}
      />
      <AddOutputDialog
        input={dialog?.type === "add-output" ? dialog.input : null}
        used={dialog?.type === "add-output" ? Object.keys(saved?.[dialog.input] ?? {}) : []}
        onClose={closeDialog}
        closeHref={closeHref}
        lastResult={dialog?.type === "add-output" ? lastFor(addFormId(dialog.input)) : undefined}
      />
      <ImportDialog
        open={dialog?.type === "import"}
        onClose={closeDialog}
        closeHref={closeHref}
        failedText={noJsFailure?.intent === "import" ? noJsFailure.importText : undefined}
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
        <RateFilters view={view} inputs={inputs} onChange={(change, options) => update(change, options)} />
      </Flex>

      <div
        className="gt-rates-panel"
        data-busy={busy || undefined}
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
