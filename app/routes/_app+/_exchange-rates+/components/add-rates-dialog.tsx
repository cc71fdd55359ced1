import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Cross2Icon, PlusIcon } from "~/components/ui/icons";
import { Button, Flex, IconButton, Text, TextField } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { RATE_MESSAGES } from "#api/rates";
import { useHydrated } from "~/components/ui/use-hydrated";
import { GIFTS } from "~/data/gifts";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { addFormId, useRatesValidation, type ActionResult } from "./form-helpers";
import { checkWith } from "~/components/ui/lazy-validation";
import { isCompleteRow } from "./form-rules";

type Props = {
  open: boolean;
  /** The outputs each input already has: shown '(already used)', disabled, sorted last. */
  usedOutputs: (input: string) => readonly string[];
  onClose: () => void;
  closeHref: string;
  lastResult?: SubmissionResult<string[]>;
};

/**
 * Add Exchange Rate, new entries (spec 1 §2): one input gift and a list of output gift +
 * rate rows. The output selectors leave out the chosen input (and outputs other rows
 * already took). Removing the only row resets it; 'Add Output Gift' needs the last row
 * complete; Add needs an input and every row complete. Saved as one batch.
 */
export function AddRatesDialog({ open, usedOutputs, onClose, closeHref, lastResult }: Props) {
  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      closeHref={closeHref}
      title="Add Exchange Rate"
      description="Choose an input gift, then one or more output gifts with their rates."
    >
      {/* Mounted only while open, so every opening starts from empty fields. */}
      {open ? <AddRatesForm usedOutputs={usedOutputs} onClose={onClose} closeHref={closeHref} lastResult={lastResult} /> : null}
    </DialogFrame>
  );
}

function AddRatesForm({ usedOutputs, onClose, closeHref, lastResult }: Omit<Props, "open">) {
  const hydrated = useHydrated();
  const validation = useRatesValidation();
  const fetcher = useFetcher<ActionResult>();
  // Success: the dialog closes (its fields go with it). Failure: it stays open as it is.
  useFetcherOutcome(fetcher, { onSuccess: onClose });
  const formId = addFormId();

  const [form, fields] = useForm({
    id: formId,
    lastResult: hydrated ? (fetcher.data?.formId === formId ? fetcher.data.result : undefined) : lastResult,
    defaultValue: { intent: "add", inputItem: "", outputs: [{ outputItem: "", rate: "" }] },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => checkWith(validation, formData, (v) => v.parseWithZod(formData, { schema: v.addEntriesSchema })),
  });

  const rows = fields.outputs.getFieldList();
  const input = fields.inputItem.value ?? "";
  const values = rows.map((row) => {
    const f = row.getFieldset();
    return { outputItem: f.outputItem.value ?? "", rate: f.rate.value ?? "" };
  });
  const lastComplete = isCompleteRow(values[values.length - 1]);
  const canAdd = input !== "" && values.length > 0 && values.every(isCompleteRow);
  const pending = fetcher.state !== "idle";
  const used = new Set(input ? usedOutputs(input) : []);

  // The output selectors exclude the chosen input: a row holding it is cleared, and the
  // dialog says so (a row emptying itself without a word looks like lost input).
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    const cleared: number[] = [];
    rows.forEach((row, index) => {
      const f = row.getFieldset();
      if (input && f.outputItem.value === input) {
        form.update({ name: f.outputItem.name, value: "" });
        cleared.push(index + 1);
      }
    });
    setNotice(
      cleared.length
        ? `${input} is now the input gift, so it was removed from output gift ${cleared.join(", ")}: a gift cannot be exchanged for itself.`
        : null,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of input can create the clash.
  }, [input]);

  const inputProps = getSelectProps(fields.inputItem);
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="gt-dialog-form">
      <HiddenFields fields={{ intent: "add" }} />
      <NoJsRedirect to={closeHref} />
      <Flex direction="column" gap="3">
        <label className="gt-field">
          <Text size="2" weight="medium">
            Input gift
          </Text>
          <select {...inputProps} key={inputProps.key} className="gt-select">
            <option value="">Select input gift…</option>
            {GIFTS.map((g) => (
              <option key={g.name} value={g.name}>
                {g.name} ({g.nick})
              </option>
            ))}
          </select>
          <FieldError errors={fields.inputItem.errors} id={fields.inputItem.errorId} />
        </label>

        {notice ? (
          <Text as="p" size="2" color="amber" role="status" className="gt-add-notice">
            {notice}
          </Text>
        ) : null}
        <fieldset className="gt-add-rows">
          <legend>
            <Text size="2" weight="medium">
              Output gifts and rates
            </Text>
          </legend>
          <ol className="gt-add-rows-list">
            {rows.map((row, index) => {
              const f = row.getFieldset();
              const n = index + 1;
              const takenElsewhere = new Set(
                values
                  .filter((_, i) => i !== index)
                  .map((v) => v.outputItem)
                  .filter(Boolean),
              );
              const choices = GIFTS.filter((g) => g.name !== input && (!hydrated || !takenElsewhere.has(g.name) || g.name === values[index]?.outputItem))
                .map((g) => ({ ...g, used: used.has(g.name) }))
                // Stable sort: catalogue order, outputs the input already has last.
                .sort((a, b) => Number(a.used) - Number(b.used));
              const selectProps = getSelectProps(f.outputItem);
              const rateProps = getInputProps(f.rate, { type: "text" });
              const only = rows.length === 1;
              return (
                <li key={row.key} className="gt-add-row">
                  <Flex gap="2" align="start" wrap="wrap">
                    <div className="gt-add-row-gift">
                      <select {...selectProps} key={selectProps.key} className="gt-select" aria-label={`Output gift ${n}`}>
                        <option value="">Select output gift…</option>
                        {choices.map((g) => (
                          <option key={g.name} value={g.name} disabled={g.used}>
                            {g.name} ({g.nick}){g.used ? ` ${RATE_MESSAGES.alreadyUsed}` : ""}
                          </option>
                        ))}
                      </select>
                      <FieldError errors={f.outputItem.errors} id={f.outputItem.errorId} />
                    </div>
                    <div className="gt-add-row-rate">
                      <TextField.Root {...rateProps} key={rateProps.key} placeholder="1/2 or 1.5" autoComplete="off" aria-label={`Rate ${n}`} />
                      <FieldError errors={f.rate.errors} id={f.rate.errorId} />
                    </div>
                    <IconButton
                      {...(only ? form.reset.getButtonProps({ name: row.name }) : form.remove.getButtonProps({ name: fields.outputs.name, index }))}
                      type="submit"
                      variant="ghost"
                      color="gray"
                      className="gt-touch"
                      aria-label={only ? `Clear output gift ${n}` : `Remove output gift ${n}`}
                    >
                      <Cross2Icon />
                    </IconButton>
                  </Flex>
                </li>
              );
            })}
          </ol>
          <Button
            {...form.insert.getButtonProps({ name: fields.outputs.name, defaultValue: { outputItem: "", rate: "" } })}
            type="submit"
            variant="soft"
            color="gray"
            size="2"
            disabled={hydrated && !lastComplete}
          >
            <PlusIcon /> Add Output Gift
          </Button>
        </fieldset>
        <FieldError errors={form.errors} id={form.errorId} />
      </Flex>
      <DialogButtons>
        <DialogCancel disabled={pending} />
        <Button type="submit" disabled={(hydrated && !canAdd) || pending} loading={pending}>
          Add
        </Button>
      </DialogButtons>
    </fetcher.Form>
  );
}
