import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Cross2Icon, PlusIcon, ResetIcon } from "~/components/ui/icons";
import { Badge, Button, Flex, IconButton, Text, TextField } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { rateDataToTiers, RATE_LIMITS, RATE_MESSAGES, tierQuantity, tiersDiffer, validateTiers, type RateData, type TierDraft } from "#api/rates";
import { toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { rowFetcherKey, rowFormId, useRatesValidation, type ActionResult } from "./form-helpers";
import { checkWith } from "~/components/ui/lazy-validation";
import { tierMessages } from "./form-rules";
import type { RowProps } from "./rate-row";

export type EditorState = { edited: boolean; invalid: boolean; body: React.ReactNode };

/**
 * The tier editor: T1, T2, … with "≥ quantity" and a rate each, add / remove tier, Revert
 * and Save. conform keeps the list, so add/remove/revert also work without JavaScript
 * (they post and the server answers the changed list).
 */
export function RowEditor({
  input,
  output,
  saved,
  expanded,
  lastResult,
  editorId,
  latest,
  onAdopt,
  children,
}: RowProps & {
  editorId: string;
  /** The rate as the server has it now: `saved` is what this editor started from. */
  latest?: RateData;
  /** Start again from `latest` (a new editor: the row's key changes). */
  onAdopt?: () => void;
  children: (state: EditorState) => React.ReactNode;
}) {
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
    onValidate: ({ formData }) =>
      checkWith(validation, formData, (v) => v.parseWithZod(formData, { schema: (intent) => v.saveRateSchema({ requireRate: intent === null }) })),
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

  // Issue 30 A1: the rate changed elsewhere (another tab, /api) while this editor was open.
  // Nothing typed, or typed just what the server now has (this editor's own save, stored in
  // quantity order): follow the server. Otherwise keep the edit and say so.
  const latestTiers = latest ? rateDataToTiers(latest).map((t) => ({ quantity: String(t.quantity), rate: String(t.rate) })) : serverTiers;
  const changedMeanwhile = tiersDiffer(normaliseTiers(latestTiers), normaliseTiers(serverTiers));
  const followsLatest = !edited || !tiersDiffer(sortedTiers(form.value?.tiers), sortedTiers(latestTiers));
  const adoptNow = changedMeanwhile && followsLatest && !saving && !!onAdopt;
  useEffect(() => {
    if (adoptNow) onAdopt?.();
  }, [adoptNow, onAdopt]);
  const conflict = changedMeanwhile && !followsLatest;

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
          {conflict ? (
            <Flex className="gt-tier-conflict" role="status" gap="2" align="center" wrap="wrap" mb="2" data-testid="rate-changed-meanwhile">
              <Text size="1" color="amber">
                {RATE_CHANGED_MEANWHILE(rateTiersText(latestTiers))}
              </Text>
              <Button type="button" size="1" variant="soft" color="amber" onClick={onAdopt}>
                Show the new values
              </Button>
            </Flex>
          ) : null}
          <ol className="gt-tiers" aria-label={`Tiers of ${input} → ${output}`}>
            {tiers.map((tier, index) => {
              const f = tier.getFieldset();
              const n = index + 1;
              const quantityProps = getInputProps(f.quantity, { type: "number" });
              const rateProps = getInputProps(f.rate, { type: "text" });
              return (
                <li
                  key={tier.key}
                  className="gt-tier"
                  data-invalid={tier.errors?.length || f.rate.errors?.length || f.quantity.errors?.length ? true : undefined}
                >
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
                    onBlur={restoreZero}
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
                    onBlur={restoreZero}
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
            <Button
              {...(changedMeanwhile && onAdopt ? { type: "button" as const, onClick: onAdopt } : { ...form.reset.getButtonProps(), type: "submit" as const })}
              size="2"
              variant="soft"
              color="gray"
              disabled={hydrated && !edited}
            >
              <ResetIcon /> Revert
            </Button>
            <Button
              type="submit"
              size="2"
              disabled={hydrated && (invalid || saving)}
              loading={saving}
              aria-describedby={messages.length ? `${formId}-errors` : undefined}
            >
              Save
            </Button>
          </Flex>
        </save.Form>
      </div>
    ) : null;

  return (
    <div className="gt-rate-body" data-edited={edited || undefined} data-invalid={invalid || undefined}>
      {children({ edited, invalid, body })}
    </div>
  );
}

/** Spec 1 §4 is silent on a rate changed elsewhere during an edit: ours. */
export const RATE_CHANGED_MEANWHILE = (now: string) => `This rate changed meanwhile; it is now ${now}. Save keeps your edit.`;

/** "≥ 0: 1/2, ≥ 10: 1/3" */
function rateTiersText(tiers: readonly { quantity: string; rate: string }[]): string {
  return tiers.map((t) => `≥ ${t.quantity}: ${t.rate}`).join(", ");
}

/** Tiers compared as values whatever order they were typed in (the server stores them by quantity). */
function sortedTiers(tiers: unknown): TierDraft[] {
  return normaliseTiers(tiers).sort((a, b) => Number(a.quantity) - Number(b.quantity) || String(a.rate).localeCompare(String(b.rate)));
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
  setValue(el, "");
  el.dataset.clearedZero = "true";
}

/**
 * Issue 30 B3: a field left without typing gets its 0 back. Tabbing through a tier's
 * quantity emptied it, so every keyboard edit of a flat rate failed on Save.
 */
function restoreZero(event: React.FocusEvent<HTMLInputElement>) {
  const el = event.currentTarget;
  if (el.dataset.clearedZero !== "true") return;
  delete el.dataset.clearedZero;
  if (el.value.trim() === "") setValue(el, "0");
}

function setValue(el: HTMLInputElement, value: string) {
  el.value = value;
  // conform follows the form through input events, so it sees the changed value too.
  el.dispatchEvent(new Event("input", { bubbles: true }));
}
