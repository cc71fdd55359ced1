import type { SubmissionResult } from "@conform-to/react";
import { Button } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { rateDataToTiers, type RateData } from "#api/rates";
import { GiftImage } from "~/components/gift-image";
import { lazyComponent } from "~/components/ui/lazy-component";
import { findGift } from "~/data/gifts";
import { useOptimisticUpdates } from "~/utils/preferences";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { useCanWrite } from "~/components/ui/write-only";
import { encodePair, PAIR_FIELD, ROW_ACTION_FORMS, ROW_TOGGLE_FORM, rowFetcherKey, rowFormId, type ActionResult } from "./form-helpers";
import { RowEditor as RowEditorNow, type EditorState } from "./row-editor";
import { pairKey, rateKindLabel, rateSummary } from "./rates-view";
import { RowIcon } from "./row-icons";
import { RowBadge, RowButton, RowFlex, RowText } from "./row-markup";
import { SwipeRow } from "./swipe";

export type RowProps = {
  input: string;
  output: string;
  /** What to show: the saved data with pending changes applied (when optimistic). */
  data: RateData;
  /** The data as last loaded; the tier editor starts from (and reverts to) it. */
  saved: RateData;
  expanded: boolean;
  /** Expands or folds the row in place (with JavaScript). */
  onToggle: () => void;
  /** A no-JavaScript post of this row that came back with errors or a changed tier list. */
  lastResult?: SubmissionResult<string[]>;
};

/**
 * One input/output pair (spec 1 §2 "Exchange-rate row"): collapsed, the output gift, its
 * 'flat' / 'N tiers' label and rate(s), enable/disable and delete; expanded, the tier editor.
 * Swiping the row on a touch screen deletes it (left) or toggles it (right).
 */
export function RateRow(props: RowProps) {
  const { input, output, data } = props;
  // Viewers (issue 21): no enable/disable/delete, no swipe, and the tiers read-only.
  const canWrite = useCanWrite();
  const status = useFetcher<ActionResult>({ key: rowFetcherKey("status", input, output) });
  const remove = useFetcher<ActionResult>({ key: rowFetcherKey("delete", input, output) });
  useFetcherOutcome(status);
  useFetcherOutcome(remove);

  const pair = { inputItem: input, outputItem: output };
  const toggleTo = !data.status;
  const toggleLabel = data.status ? "Disable" : "Enable";
  const [optimistic] = useOptimisticUpdates();
  const deleting = remove.state !== "idle";
  // Without optimistic updates the pressed button shows the wait instead.
  const toggling = !optimistic && status.state !== "idle";
  const gift = findGift(output);
  const editorId = `${rowFormId(input, output)}-editor`;
  const pairValue = encodePair(input, output);
  const submitStatus = () => status.submit({ intent: "status", ...pair, status: String(toggleTo) }, { method: "post" });
  const submitDelete = () => remove.submit({ intent: "delete", ...pair }, { method: "post" });

  // The tier editor (a conform form per row) exists once the row has been expanded (or
  // came back from a no-JavaScript post) and then stays, so folding a row keeps its
  // edits; a long list of collapsed rows renders no editor state at all.
  const wantEditor = props.expanded || !!props.lastResult;
  const [keepEditor, setKeepEditor] = useState(wantEditor);
  if (wantEditor && !keepEditor) setKeepEditor(true);
  const mountEditor = canWrite && (wantEditor || keepEditor);
  // Issue 30 A1: the editor starts from the values it was opened with (`base`) and moves to
  // the server's new ones only when that loses no edit (the editor calls `adopt`); an edit in
  // progress stays, with a note that the rate changed meanwhile.
  const [base, setBase] = useState(props.saved);
  const adopt = () => setBase(props.saved);
  if (!mountEditor && editorKey(base) !== editorKey(props.saved)) setBase(props.saved);

  const renderRow = (editor: EditorState) => (
    <>
      <div className="gt-rate-summary">
        {/* Without JavaScript the button submits the panel's one GET form (RowToggleForm)
            with this row's pair key; the loader answers with the row toggled in `open`. */}
        <RowButton
          form={ROW_TOGGLE_FORM}
          name="toggle"
          value={pairKey(input, output)}
          onClick={(event) => {
            event.preventDefault();
            props.onToggle();
          }}
          variant="ghost"
          color="gray"
          className="gt-touch gt-rate-expand"
          aria-expanded={props.expanded}
          aria-controls={props.expanded ? editorId : undefined}
          aria-label={`${props.expanded ? "Hide" : "Show"} tiers of ${output}`}
        >
          <RowIcon name={props.expanded ? "chevron-down" : "chevron-right"} />
        </RowButton>
        <GiftImage name={output} size={32} />
        <div className="gt-rate-gift">
          <RowText size="2" weight="medium" className="gt-rate-name">
            {output}
          </RowText>
          {gift && gift.nick !== output ? (
            <RowText size="1" color="gray">
              {gift.nick}
            </RowText>
          ) : null}
        </div>
        {/* On a phone the kind and the rates move to a second line from here. */}
        <span className="gt-rate-break" aria-hidden />
        <RowBadge color={data.rates ? "indigo" : "gray"} variant="soft" className="gt-rate-kind">
          {rateKindLabel(data)}
        </RowBadge>
        <RowText size="2" className="gt-rate-value">
          {rateSummary(data)}
        </RowText>
        {!data.status ? (
          <RowBadge color="gray" variant="outline" className="gt-rate-disabled-badge">
            Disabled
          </RowBadge>
        ) : null}
        {editor.edited ? (
          <RowBadge color={editor.invalid ? "red" : "orange"} variant="soft" className="gt-rate-edited-badge">
            {editor.invalid ? "Invalid" : "Edited"}
          </RowBadge>
        ) : null}
        {canWrite ? (
          <RowFlex className="gt-rate-actions">
            {/* No form per row: without JavaScript each button submits one of the panel's
              shared forms (RowActionForms) naming its pair; with JavaScript it goes
              through the row's fetcher. */}
            <ActionButton
              form={ROW_ACTION_FORMS[data.status ? "disable" : "enable"]}
              name={PAIR_FIELD}
              value={pairValue}
              onClick={(event) => {
                event.preventDefault();
                submitStatus();
              }}
              color={data.status ? "gray" : "green"}
              loading={toggling}
              aria-label={`${toggleLabel} ${input} → ${output}`}
            >
              {toggleLabel}
            </ActionButton>
            <ActionButton
              form={ROW_ACTION_FORMS.delete}
              name={PAIR_FIELD}
              value={pairValue}
              onClick={(event) => {
                event.preventDefault();
                submitDelete();
              }}
              color="red"
              loading={deleting}
              aria-label={`Delete ${input} → ${output}`}
            >
              <RowIcon name="trash" />
              <span className="gt-hide-narrow">Delete</span>
            </ActionButton>
          </RowFlex>
        ) : null}
      </div>
      {editor.body}
    </>
  );

  return (
    <li className="gt-rate-row" data-status={data.status ? "enabled" : "disabled"} data-deleting={deleting || undefined}>
      <SwipeRow enabled={data.status} toggleLabel={toggleLabel} disabled={deleting || !canWrite} onDelete={submitDelete} onToggle={submitStatus}>
        {mountEditor ? (
          <RowEditor key={editorKey(base)} {...props} saved={base} latest={props.saved} onAdopt={adopt} editorId={editorId}>
            {renderRow}
          </RowEditor>
        ) : (
          <div className="gt-rate-body">
            {renderRow(
              canWrite || !props.expanded
                ? IDLE_EDITOR
                : { ...IDLE_EDITOR, body: <ReadOnlyTiers input={input} output={output} data={props.saved} id={editorId} /> },
            )}
          </div>
        )}
      </SwipeRow>
    </li>
  );
}

/**
 * A row's Enable/Disable or Delete: the plain button (row-markup.tsx); while its post runs
 * without optimistic updates, Radix's Button with its spinner.
 */
function ActionButton({
  loading,
  color,
  children,
  ...rest
}: { loading: boolean; color: string; children: React.ReactNode } & Pick<
  React.ButtonHTMLAttributes<HTMLButtonElement>,
  "form" | "name" | "value" | "onClick" | "aria-label"
>) {
  if (loading) {
    return (
      <Button type="submit" size="1" variant="soft" color={color as "gray"} className="gt-touch" loading {...rest}>
        {children}
      </Button>
    );
  }
  return (
    <RowButton variant="soft" color={color} className="gt-touch" {...rest}>
      {children}
    </RowButton>
  );
}

/** The values an editor starts from (spec 1 §4): a new key starts a new editor. */
function editorKey(saved: RateData): string {
  return JSON.stringify([saved.rate ?? null, saved.rates ?? null]);
}

const IDLE_EDITOR: EditorState = { edited: false, invalid: false, body: null };

/** A viewer's expanded row: the tiers as text, no editor (issue 21: viewers change nothing). */
function ReadOnlyTiers({ input, output, data, id }: { input: string; output: string; data: RateData; id: string }) {
  return (
    <div id={id} className="gt-tier-editor">
      <ol className="gt-tiers" aria-label={`Tiers of ${input} → ${output}`}>
        {rateDataToTiers(data).map((tier, index) => (
          <li key={index} className="gt-tier">
            <RowBadge color="gray" variant="outline" className="gt-tier-label">
              T{index + 1}
            </RowBadge>
            <RowText size="2" color="gray">
              ≥ {tier.quantity}
            </RowText>
            <RowText size="2">{String(tier.rate)}</RowText>
          </li>
        ))}
      </ol>
    </div>
  );
}

/**
 * The tier editor (row-editor.tsx, with conform's form code) loads when a row is first
 * expanded. Performance trick (CONVENTIONS rule 15): bench/README.md "First-load weight",
 * /exchange-rates (conform's hooks alone are ~9 kB gzip). On the server it renders eagerly,
 * so a row the URL expands has its editor in the HTML (no JavaScript; `lazyComponent`);
 * in the browser the row shows without its editor until the code arrives.
 */
const RowEditor = lazyComponent(() => import("./row-editor").then((m) => m.RowEditor), {
  server: import.meta.env.SSR ? RowEditorNow : undefined,
  fallback: (props) => <div className="gt-rate-body">{props.children(IDLE_EDITOR)}</div>,
});
