import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Cross2Icon, PlusIcon, ResetIcon } from "~/components/ui/icons";
import { Badge, Button, Flex, IconButton, Text, TextField } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { rateDataToTiers, RATE_LIMITS, RATE_MESSAGES, tierQuantity, tiersDiffer, validateTiers, type RateData, type TierDraft } from "#api/rates";
import { GiftImage } from "~/components/gift-image";
import { toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";
import { findGift } from "~/data/gifts";
import { useOptimisticUpdates } from "~/utils/preferences";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { ViewButton } from "~/components/ui/view-button";
import { encodePair, PAIR_FIELD, ROW_ACTION_FORMS, rowFormId, useRatesValidation, type ActionResult } from "./form-helpers";
import { tierMessages } from "./form-rules";
import { rateKindLabel, rateSummary, viewToParams, type RatesView } from "./rates-view";
import { RowIcon } from "./row-icons";
import { RowBadge, RowFlex, RowText } from "./row-markup";
import { SwipeRow } from "./swipe";

/** Fetcher keys per pair: shared by the row, its swipe and the panel's optimistic view. */
export const rowFetcherKey = (kind: "save" | "status" | "delete", input: string, output: string) =>
  `rates:${kind}:${JSON.stringify([input, output])}`;

type RowProps = {
  input: string;
  output: string;
  /** What to show: the saved data with pending changes applied (when optimistic). */
  data: RateData;
  /** The data as last loaded; the tier editor starts from (and reverts to) it. */
  saved: RateData;
  expanded: boolean;
  /** The view with this row's expansion toggled, and the callback doing it in place. */
  toggleView: RatesView;
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
  const mountEditor = wantEditor || keepEditor;

  const renderRow = (editor: EditorState) => (
    <>
      <div className="gt-rate-summary">
        <ViewButton
          params={(base) => viewToParams(props.toggleView, base)}
          onActivate={props.onToggle}
          variant="ghost"
          color="gray"
          size="1"
          className="gt-touch gt-rate-expand"
          aria-expanded={props.expanded}
          aria-controls={props.expanded ? editorId : undefined}
          aria-label={`${props.expanded ? "Hide" : "Show"} tiers of ${output}`}
        >
          <RowIcon name={props.expanded ? "chevron-down" : "chevron-right"} />
        </ViewButton>
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
        <RowText size="2" className="gt-rate-value" title={rateSummary(data)}>
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
        <RowFlex className="gt-rate-actions">
          {/* No form per row: without JavaScript each button submits one of the panel's
              shared forms (RowActionForms) naming its pair; with JavaScript it goes
              through the row's fetcher. */}
          <Button
            type="submit"
            form={ROW_ACTION_FORMS[data.status ? "disable" : "enable"]}
            name={PAIR_FIELD}
            value={pairValue}
            onClick={(event) => {
              event.preventDefault();
              submitStatus();
            }}
            size="1"
            variant="soft"
            color={data.status ? "gray" : "green"}
            className="gt-touch"
            loading={toggling}
            aria-label={`${toggleLabel} ${input} → ${output}`}
          >
            {toggleLabel}
          </Button>
          <Button
            type="submit"
            form={ROW_ACTION_FORMS.delete}
            name={PAIR_FIELD}
            value={pairValue}
            onClick={(event) => {
              event.preventDefault();
              submitDelete();
            }}
            size="1"
            variant="soft"
            color="red"
            className="gt-touch"
            loading={deleting}
            aria-label={`Delete ${input} → ${output}`}
          >
            <RowIcon name="trash" />
            <span className="gt-hide-narrow">Delete</span>
          </Button>
        </RowFlex>
      </div>
      {editor.body}
    </>
  );

  return (
    <li className="gt-rate-row" data-status={data.status ? "enabled" : "disabled"} data-deleting={deleting || undefined}>
      <SwipeRow
        enabled={data.status}
        toggleLabel={toggleLabel}
        disabled={deleting}
        onDelete={submitDelete}
        onToggle={submitStatus}
      >
        {mountEditor ? (
          <RowEditor key={editorKey(props.saved)} {...props} editorId={editorId}>
            {renderRow}
          </RowEditor>
        ) : (
          <div className="gt-rate-body">{renderRow(IDLE_EDITOR)}</div>
        )}
      </SwipeRow>
    </li>
  );
}

/** The editor restarts from the server's values whenever they change (spec 1 §4). */
function editorKey(saved: RateData): string {
  return JSON.stringify([saved.rate ?? null, saved.rates ?? null]);
}

type EditorState = { edited: boolean; invalid: boolean; body: React.ReactNode };

const IDLE_EDITOR: EditorState = { edited: false, invalid: false, body: null };

/**
 * The tier editor: T1, T2, … with "≥ quantity" and a rate each, add / remove tier, Revert
 * and Save. conform keeps the list, so add/remove/revert also work without JavaScript
 * (they post and the server answers the changed list).
 */
function RowEditor({
  input,
  output,
  saved,
  expanded,
  lastResult,
  editorId,
  children,
}: RowProps & { editorId: string; children: (state: EditorState) => React.ReactNode }) {
  const hydrated = useHydrated();
  const validation = useRatesValidation();
  const save = useFetcher<ActionResult>({ key: rowFetcherKey("save", input, output) });
  useFetcherOutcome(save);
  const formId = rowFormId(input, output);
  const serverTiers = rateDataToTiers(saved).map((t) => ({ quantity: String(t.quantity), rate: String(t.rate) }));
  const fetcherResult = save.data?.formId === formId ? save.data.result : undefined;

  const [form, fields] = useForm({
    id: formId,
    lastResult: hydrated ? fetcherResult : lastResult,
    // Only the tiers are conform's; the pair and intent are hidden fields outside its state
    // (in its defaultValue they would count as edits, having no field of their own).
    defaultValue: { tiers: serverTiers },
    shouldValidate: "onInput",
    shouldRevalidate: "onInput",
    // Live: a freshly added blank tier is not an error yet; on submit every rate must be set.
    onValidate:
      validation &&
      (({ formData }) => validation.parseWithZod(formData, { schema: (intent) => validation.saveRateSchema({ requireRate: intent === null }) })),
  });

  const tiers = fields.tiers.getFieldList();
  // conform shows an error only for fields the operator has touched, so a clash between two
  // tiers (duplicate quantities) would wait for Save. The live check of the tiers as they
  // stand shows every error as soon as it exists, and Save stays disabled (spec 1 §4).
  const live = validateTiers(normaliseDrafts(form.value?.tiers));
  const messages = [...new Set([...tierMessages(form.allErrors, tiers.length), ...live.messages])];
  const invalid = messages.length > 0;
  // Edited = the tiers differ from the saved ones as values: a 0 cleared on focus is still
  // the default tier's 0 (a blank quantity counts as 0), so it is no edit.
  const edited = tiersDiffer(normaliseTiers(form.value?.tiers), normaliseTiers(serverTiers));
  const saving = save.state !== "idle";
  const showEditor = expanded || !!lastResult;

  // A collapsed row keeps its editor (hidden) only while it holds edits, so folding a row
  // does not throw them away, and a long list does not carry a form per row.
  const body =
    showEditor || edited ? (
      <div id={editorId} className="gt-tier-editor" hidden={!showEditor}>
        <save.Form
          method="post"
          {...getFormProps(form)}
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            const isSave = !submitter || submitter.name !== "__intent__";
            if (isSave && validation) {
              const check = validation.parseWithZod(new FormData(event.currentTarget), { schema: validation.saveRateSchema() });
              if (check.status !== "success") toast.error(RATE_MESSAGES.fixErrors);
            }
            form.onSubmit(event);
          }}
        >
          {/* The default button: Enter in a field saves (and is checked) rather than
              triggering the first tier's Remove. */}
          <button type="submit" hidden tabIndex={-1} aria-hidden />
          <HiddenFields fields={{ intent: "save", inputItem: input, outputItem: output }} />
          <NoJsRedirect />
          <ol className="gt-tiers" aria-label={`Tiers of ${input} → ${output}`}>
            {tiers.map((tier, index) => {
              const f = tier.getFieldset();
              const n = index + 1;
              const quantityProps = getInputProps(f.quantity, { type: "number" });
              const rateProps = getInputProps(f.rate, { type: "text" });
              return (
                <li key={tier.key} className="gt-tier" data-invalid={tier.errors?.length || f.rate.errors?.length || f.quantity.errors?.length ? true : undefined}>
                  <Badge variant="surface" color="gray" className="gt-tier-label">
                    T{n}
                  </Badge>
                  <Text as="span" size="2" color="gray" className="gt-tier-ge" title="greater or equal to quantity">
                    ≥
                  </Text>
                  <TextField.Root
                    {...quantityProps}
                    key={quantityProps.key}
                    min={0}
                    max={RATE_LIMITS.maxQuantity}
                    step={1}
                    inputMode="numeric"
                    size="2"
                    className="gt-tier-quantity"
                    placeholder="0"
                    aria-label={`T${n} quantity (greater or equal to)`}
                    onFocus={clearZero}
                  />
                  <TextField.Root
                    {...rateProps}
                    key={rateProps.key}
                    size="2"
                    className="gt-tier-rate"
                    placeholder="1/2 or 1.5"
                    autoComplete="off"
                    aria-label={`T${n} rate`}
                    onFocus={clearZero}
                  />
                  <IconButton
                    {...form.remove.getButtonProps({ name: fields.tiers.name, index })}
                    type="submit"
                    size="2"
                    variant="ghost"
                    color="gray"
                    className="gt-touch"
                    disabled={tiers.length <= 1}
                    aria-label={`Remove T${n}`}
                    title={tiers.length <= 1 ? "A rate needs at least one tier" : `Remove T${n}`}
                  >
                    <Cross2Icon />
                  </IconButton>
                </li>
              );
            })}
          </ol>
          {messages.length ? (
            <ul className="gt-tier-errors" role="alert" id={`${formId}-errors`}>
              {messages.map((m) => (
                <li key={m}>
                  <Text size="1" color="red">
                    {m}
                  </Text>
                </li>
              ))}
            </ul>
          ) : null}
          <Flex gap="2" wrap="wrap" mt="2" justify="end" className="gt-tier-buttons">
            <Button
              {...form.insert.getButtonProps({ name: fields.tiers.name, defaultValue: { quantity: "", rate: "" } })}
              type="submit"
              size="2"
              variant="soft"
              color="gray"
            >
              <PlusIcon /> Add tier
            </Button>
            <Button {...form.reset.getButtonProps()} type="submit" size="2" variant="soft" color="gray" disabled={hydrated && !edited}>
              <ResetIcon /> Revert
            </Button>
            <Button type="submit" size="2" disabled={hydrated && (invalid || saving)} loading={saving} aria-describedby={messages.length ? `${formId}-errors` : undefined}>
              Save
            </Button>
          </Flex>
        </save.Form>
      </div>
    ) : null;

  return <div className="gt-rate-body" data-edited={edited || undefined} data-invalid={invalid || undefined}>{children({ edited, invalid, body })}</div>;
}

/** The editor's tiers exactly as typed (blank stays blank), for validation. */
function normaliseDrafts(tiers: unknown): TierDraft[] {
  if (!Array.isArray(tiers)) return [];
  return tiers.map((t: { quantity?: unknown; rate?: unknown } | undefined) => ({
    quantity: typeof t?.quantity === "string" ? t.quantity : "",
    rate: typeof t?.rate === "string" ? t.rate : "",
  }));
}

function normaliseTiers(tiers: unknown): TierDraft[] {
  if (!Array.isArray(tiers)) return [];
  return tiers.map((t: { quantity?: unknown; rate?: unknown } | undefined) => {
    const q = typeof t?.quantity === "string" ? t.quantity : "";
    const quantity = tierQuantity(q);
    return { quantity: Number.isNaN(quantity) ? q : quantity, rate: typeof t?.rate === "string" ? t.rate.trim() : "" };
  });
}

/** Spec 1 §4: "Focusing a field holding 0 clears it." */
function clearZero(event: React.FocusEvent<HTMLInputElement>) {
  const el = event.currentTarget;
  if (el.value.trim() !== "0") return;
  el.value = "";
  // conform follows the form through input events, so it sees the cleared value too.
  el.dispatchEvent(new Event("input", { bubbles: true }));
}
