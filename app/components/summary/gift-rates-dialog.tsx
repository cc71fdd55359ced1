import { Button, Flex, Grid, Text, TextField } from "@radix-ui/themes";
import { Form, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import {
  FIREBALLS_MAX,
  GIFT_RATE_ERRORS,
  GIFT_RATE_NAMES,
  giftRateInputError,
  pairsToRates,
  parseRateInput,
  PRIZE_MAX,
  RATE_UNIT_NICK,
  rateToPair,
  SUMMARY_TEXTS,
  type GiftRates,
  type RatePair,
} from "#api/summary";
import { GiftImage } from "~/components/gift-image";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";

/** The page action of the no-JavaScript form (app/routes/_app+/_summary+/summary.gift-rates.ts). */
export const GIFT_RATES_ACTION = "/summary/gift-rates";

type Inputs = Record<string, { prize: string; fireballs: string }>;

function inputsOf(rates: GiftRates): Inputs {
  const out: Inputs = {};
  for (const name of GIFT_RATE_NAMES) {
    const pair = rateToPair(rates[name] ?? 0);
    out[name] = pair ? { prize: String(pair.prize), fireballs: String(pair.fireballs) } : { prize: "", fireballs: "" };
  }
  return out;
}

/**
 * Gift Rates (spec 2 §2, §4 "Gift rates dialog", §5): 8 gifts, FCB as the unit, a prize and a
 * fireball input per gift. With JavaScript: rates load when it opens (GET /api/gift-rates), a
 * save POSTs /api/gift-rates and closes; load/save failures are only logged (spec 2 §8).
 * Without JavaScript: the same inputs in a plain form posting to GIFT_RATES_ACTION.
 */
export function GiftRatesDialog({
  open,
  onClose,
  closeHref,
  redirectTo,
  initialRates,
}: {
  open: boolean;
  onClose: () => void;
  closeHref: string;
  redirectTo: string;
  initialRates: GiftRates;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [inputs, setInputs] = useState<Inputs>(() => inputsOf(initialRates));
  const [saving, setSaving] = useState(false);
  /** Rows typed in since the dialog opened: the stored rates arriving later never overwrite them. */
  const edited = useRef(new Set<string>());

  useEffect(() => {
    if (!open || !hydrated) return;
    edited.current.clear();
    const ctl = new AbortController();
    fetch("/api/gift-rates", { signal: ctl.signal, headers: { accept: "application/json" } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = (await res.json()) as { rates?: GiftRates };
        setInputs((typed) => {
          const stored = inputsOf(body.rates ?? {});
          for (const n of edited.current) stored[n] = typed[n]!;
          return stored;
        });
      })
      .catch((err: unknown) => {
        if (!ctl.signal.aborted) console.warn("[gift-rates] load failed:", err);
      });
    return () => ctl.abort();
  }, [open, hydrated]);

  // Issue 19 item 7: each refused row says why under it, so a disabled Save is explained.
  const errors = Object.fromEntries(GIFT_RATE_NAMES.map((n) => [n, giftRateInputError(inputs[n]?.prize, inputs[n]?.fireballs)]));
  const invalid = Object.values(errors).some((e) => e !== null);

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    e.preventDefault();
    if (invalid) return;
    const pairs: Record<string, RatePair> = {};
    for (const n of GIFT_RATE_NAMES) pairs[n] = { prize: parseRateInput(inputs[n]?.prize) ?? 0, fireballs: parseRateInput(inputs[n]?.fireballs) ?? 0 };
    setSaving(true);
    fetch("/api/gift-rates", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rates: pairsToRates(pairs) }) })
      .then((res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        onClose();
        revalidator.revalidate();
        // The same confirmation as the form without JavaScript (ours: spec 2 names no save toast).
        toast.success(GIFT_RATE_ERRORS.saved);
      })
      .catch((err: unknown) => console.warn("[gift-rates] save failed:", err))
      .finally(() => setSaving(false));
  };

  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      closeHref={closeHref}
      title={SUMMARY_TEXTS.giftRates}
      description={`Prize per fireballs, with Fire Cannon Ball (${RATE_UNIT_NICK}) as the unit.`}
      maxWidth="520px"
      // Issue 19 item 12: on a phone, focusing the first of 16 fields popped the keyboard over the list.
      focusFirstField={false}
    >
      <Form method="post" action={GIFT_RATES_ACTION} onSubmit={onSubmit} data-testid="gift-rates-form">
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Grid columns="auto 1fr 1fr" gap="2" align="center">
          <span />
          <Text size="1" color="gray">
            Prize
          </Text>
          <Text size="1" color="gray">
            {RATE_UNIT_NICK}
          </Text>
          {GIFT_RATE_NAMES.map((name) => (
            <GiftInputs
              key={name}
              name={name}
              value={inputs[name]!}
              error={hydrated ? errors[name]! : null}
              disabled={saving}
              onChange={(v) => {
                edited.current.add(name);
                setInputs((s) => ({ ...s, [name]: v }));
              }}
            />
          ))}
        </Grid>
        <DialogButtons>
          <DialogCancel disabled={saving} />
          <Button type="submit" disabled={saving || (hydrated && invalid)}>
            {saving ? "Saving..." : "Save"}
          </Button>
        </DialogButtons>
      </Form>
    </DialogFrame>
  );
}

function GiftInputs({
  name,
  value,
  error,
  disabled,
  onChange,
}: {
  name: string;
  value: { prize: string; fireballs: string };
  error: string | null;
  disabled: boolean;
  onChange: (v: { prize: string; fireballs: string }) => void;
}) {
  const errorId = `gift-rate-error-${name.replace(/\W+/g, "-")}`;
  const described = error ? { "aria-invalid": true, "aria-describedby": errorId } : {};
  return (
    <>
      <Flex align="center" gap="2" style={{ minWidth: 0 }}>
        <GiftImage name={name} size={24} />
        <Text size="2" style={{ overflowWrap: "anywhere" }}>
          {name}
        </Text>
      </Flex>
      <TextField.Root
        name={`prize:${name}`}
        type="number"
        inputMode="numeric"
        min={0}
        max={PRIZE_MAX}
        step={1}
        aria-label={`${name} prize`}
        {...described}
        value={value.prize}
        disabled={disabled}
        onChange={(e) => onChange({ ...value, prize: e.target.value })}
      />
      <TextField.Root
        name={`fireballs:${name}`}
        type="number"
        inputMode="numeric"
        min={0}
        max={FIREBALLS_MAX}
        step={1}
        aria-label={`${name} fireballs`}
        {...described}
        value={value.fireballs}
        disabled={disabled}
        onChange={(e) => onChange({ ...value, fireballs: e.target.value })}
      />
      {error ? (
        <div style={{ gridColumn: "1 / -1" }}>
          <FieldError errors={[`${name}: ${error}`]} id={errorId} />
        </div>
      ) : null}
    </>
  );
}
