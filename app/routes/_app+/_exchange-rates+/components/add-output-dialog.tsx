import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Button, Flex, Text, TextField } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { RATE_MESSAGES } from "#api/rates";
import { GiftImage } from "~/components/gift-image";
import { useHydrated } from "~/components/ui/use-hydrated";
import { GIFTS } from "~/data/gifts";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { addFormId, useRatesValidation, type ActionResult } from "./form-helpers";
import { checkWith } from "~/components/ui/lazy-validation";

type Props = {
  input: string | null;
  /** Outputs this input already has (disabled, '(already used)', sorted last). */
  used: readonly string[];
  onClose: () => void;
  closeHref: string;
  lastResult?: SubmissionResult<string[]>;
};

/**
 * The add dialog for an existing input (spec 1 §2): a 200 px scrollable grid of output
 * gifts without the input itself; outputs already used with this input are disabled,
 * labelled '(already used)' and sorted last. Choosing an output reveals the
 * numerator/denominator rate; 'Add Exchange Rate' needs both. Max width 600 px.
 */
export function AddOutputDialog({ input, used, onClose, closeHref, lastResult }: Props) {
  return (
    <DialogFrame
      open={input !== null}
      onClose={onClose}
      closeHref={closeHref}
      title={input ? `Add Exchange Rate for ${input}` : "Add Exchange Rate"}
      description="Choose an output gift, then its rate as numerator / denominator."
      maxWidth="600px"
    >
      {input !== null ? <AddOutputForm key={input} input={input} used={used} onClose={onClose} closeHref={closeHref} lastResult={lastResult} /> : null}
    </DialogFrame>
  );
}

function AddOutputForm({ input, used, onClose, closeHref, lastResult }: Omit<Props, "input"> & { input: string }) {
  const hydrated = useHydrated();
  const validation = useRatesValidation();
  const fetcher = useFetcher<ActionResult>();
  useFetcherOutcome(fetcher, { onSuccess: onClose });
  const formId = addFormId(input);

  const [form, fields] = useForm({
    id: formId,
    lastResult: hydrated ? (fetcher.data?.formId === formId ? fetcher.data.result : undefined) : lastResult,
    defaultValue: { intent: "add-output", inputItem: input, outputItem: "", numerator: "", denominator: "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => checkWith(validation, formData, (v) => v.parseWithZod(formData, { schema: v.addOutputSchema })),
  });

  const usedSet = new Set(used);
  const choices = GIFTS.filter((g) => g.name !== input)
    .map((g) => ({ ...g, used: usedSet.has(g.name) }))
    // Stable sort: catalogue order, with the used ones moved to the end.
    .sort((a, b) => Number(a.used) - Number(b.used));
  const output = fields.outputItem.value ?? "";
  const numerator = fields.numerator.value ?? "";
  const denominator = fields.denominator.value ?? "";
  const ready = output !== "" && numerator.trim() !== "" && denominator.trim() !== "";
  const pending = fetcher.state !== "idle";
  const numeratorProps = getInputProps(fields.numerator, { type: "number" });
  const denominatorProps = getInputProps(fields.denominator, { type: "number" });

  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="gt-dialog-form">
      <HiddenFields fields={{ intent: "add-output", inputItem: input }} />
      <NoJsRedirect to={closeHref} />
      <fieldset className="gt-gift-grid-fieldset">
        <legend>
          <Text size="2" weight="medium">
            Output gift
          </Text>
        </legend>
        <div className="gt-gift-grid" role="radiogroup" aria-label="Output gift">
          {choices.map((g) => (
            <label key={g.name} className="gt-gift-choice" data-used={g.used || undefined}>
              <input
                type="radio"
                name={fields.outputItem.name}
                value={g.name}
                disabled={g.used}
                defaultChecked={fields.outputItem.initialValue === g.name}
                aria-describedby={fields.outputItem.errors ? fields.outputItem.errorId : undefined}
              />
              <GiftImage name={g.name} size={28} />
              <span className="gt-gift-choice-text">
                <Text size="2">{g.name}</Text>
                {g.used ? (
                  <Text size="1" color="gray">
                    {" "}
                    {RATE_MESSAGES.alreadyUsed}
                  </Text>
                ) : null}
              </span>
            </label>
          ))}
        </div>
        <FieldError errors={fields.outputItem.errors} id={fields.outputItem.errorId} />
      </fieldset>

      {/* Appears once an output is chosen; without JavaScript it is always there. */}
      {!hydrated || output ? (
        <fieldset className="gt-fraction">
          <legend>
            <Text size="2" weight="medium">
              Rate{output ? ` (${input} → ${output})` : ""}
            </Text>
          </legend>
          <Flex align="center" gap="2">
            <TextField.Root {...numeratorProps} key={numeratorProps.key} min={0} step={1} inputMode="numeric" placeholder="1" aria-label="Numerator" />
            <Text size="4" color="gray" aria-hidden>
              /
            </Text>
            <TextField.Root {...denominatorProps} key={denominatorProps.key} min={1} step={1} inputMode="numeric" placeholder="2" aria-label="Denominator" />
          </Flex>
          <FieldError errors={fields.numerator.errors} id={fields.numerator.errorId} />
          <FieldError errors={fields.denominator.errors} id={fields.denominator.errorId} />
        </fieldset>
      ) : null}
      <FieldError errors={form.errors} id={form.errorId} />
      <DialogButtons>
        <DialogCancel disabled={pending} />
        <Button type="submit" disabled={(hydrated && !ready) || pending} loading={pending}>
          Add Exchange Rate
        </Button>
      </DialogButtons>
    </fetcher.Form>
  );
}
