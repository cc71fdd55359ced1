import { Button, Flex, Grid, Text, TextField } from "@radix-ui/themes";
import { Form, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import {
  FIREBALLS_MAX,
  GIFT_RATE_ERRORS,
  GIFT_RATE_NAMES,
  GIFT_RATES_INTENT,
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
import { useKeptForm } from "~/components/ui/kept-form";
import { toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";

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
 * save POSTs /api/gift-rates and closes; load/save failures are only logged (spec 2 §8), a
 * refusal (4xx) is said under the form. Without JavaScript: the same inputs in a plain form
 * posting intent GIFT_RATES_INTENT to `action`, the host page's own URL with the dialog open:
 * a refusal renders the page again with the dialog open, what was typed, and the reason under
 * the gift it is about (issue 30 A6, docs/decisions/0047).
 */
export function GiftRatesDialog({
  open,
  onClose,
  action,
  closeHref,
  redirectTo,
  initialRates,
}: {
  open: boolean;
  onClose: () => void;
  /** The host page with the dialog open (it takes GIFT_RATES_INTENT). */
  action: string;
  closeHref: string;
  redirectTo: string;
  initialRates: GiftRates;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const kept = useKeptForm(GIFT_RATES_INTENT);
  const [inputs, setInputs] = useState<Inputs>(() => {
    const saved = inputsOf(initialRates);
    if (!kept.refused) return saved;
    const typed: Inputs = {};
    for (const name of GIFT_RATE_NAMES) {
      typed[name] = { prize: kept.value(`prize:${name}`, saved[name]!.prize), fireballs: kept.value(`fireballs:${name}`, saved[name]!.fireballs) };
    }
    return typed;
  });
  const [saving, setSaving] = useState(false);
  /** With JavaScript: the server's refusal of a save (the /api answer's `error`), under the form. */
  const [refusal, setRefusal] = useState<string | null>(null);
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
  /** A row's error: the browser's own check with JavaScript; the server's refusal (kept) without. */
  const rowError = (name: string): RowError | null => {
    if (hydrated) return errors[name] ? { text: `${name}: ${errors[name]}`, on: "both" } : null;
    const prize = kept.errors(`prize:${name}`);
    if (prize) return { text: prize.join(" "), on: "prize" };
    const fireballs = kept.errors(`fireballs:${name}`);
    return fireballs ? { text: fireballs.join(" "), on: "fireballs" } : null;
  };
  const formErrors = [...(hydrated ? [] : kept.formErrors), ...(refusal ? [refusal] : [])];

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    e.preventDefault();
    if (invalid) return;
    const pairs: Record<string, RatePair> = {};
    for (const n of GIFT_RATE_NAMES) pairs[n] = { prize: parseRateInput(inputs[n]?.prize) ?? 0, fireballs: parseRateInput(inputs[n]?.fireballs) ?? 0 };
    setSaving(true);
    setRefusal(null);
    fetch("/api/gift-rates", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rates: pairsToRates(pairs) }) })
      .then(async (res) => {
        if (res.status >= 400 && res.status < 500) {
          // A refusal of what was sent: the reason under the form (the inputs are checked first,
          // so this is rare: the server's rules changed, or the session ended). Failures (5xx, no
          // network) stay only logged, as spec 2 §8 says.
          const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
          setRefusal(typeof body?.error === "string" && body.error ? body.error : GIFT_RATE_ERRORS.saveFailed);
        }
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
      <Form method="post" action={action} onSubmit={onSubmit} data-testid="gift-rates-form">
        <input type="hidden" name="intent" value={GIFT_RATES_INTENT} />
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
              error={rowError(name)}
              disabled={saving}
              onChange={(v) => {
                edited.current.add(name);
                setInputs((s) => ({ ...s, [name]: v }));
              }}
            />
          ))}
        </Grid>
        <FieldError errors={formErrors} id="gift-rates-form-error" />
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

/** A row's error text and the field(s) it is about. */
type RowError = { text: string; on: "prize" | "fireballs" | "both" };

function GiftInputs({
  name,
  value,
  error,
  disabled,
  onChange,
}: {
  name: string;
  value: { prize: string; fireballs: string };
  error: RowError | null;
  disabled: boolean;
  onChange: (v: { prize: string; fireballs: string }) => void;
}) {
  const errorId = `gift-rate-error-${name.replace(/\W+/g, "-")}`;
  const described = (field: "prize" | "fireballs") =>
    error && (error.on === "both" || error.on === field) ? { "aria-invalid": true, "aria-describedby": errorId } : {};
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
        {...described("prize")}
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
        {...described("fireballs")}
        value={value.fireballs}
        disabled={disabled}
        onChange={(e) => onChange({ ...value, fireballs: e.target.value })}
      />
      {error ? (
        <div style={{ gridColumn: "1 / -1" }}>
          <FieldError errors={[error.text]} id={errorId} />
        </div>
      ) : null}
    </>
  );
}
