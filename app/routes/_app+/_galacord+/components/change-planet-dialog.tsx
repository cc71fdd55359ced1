import { Button, Callout, Flex, Text, TextField } from "@radix-ui/themes";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { PLANET_OPTIONS, RELAY_ERRORS, type SavedAccount } from "#api/galacord";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { GalaCordDialogProps } from "./connect-new-dialog";
import { useLast } from "./use-last";

/**
 * Change Planet (spec 2 §2 "options: a swap-offer text, a trade-swap text with parentheses, and
 * 50"; §5 "Change Planet needs a planet"): one of the options or another planet by name. A
 * refused name comes back to `?planet=<accountId>` with the platform's reason as a toast.
 */
export function ChangePlanetDialog({ open, onClose, closeHref, account }: GalaCordDialogProps & { account: SavedAccount | null }) {
  const shown = useLast(account);
  return (
    <DialogFrame
      open={open && !!account}
      onClose={onClose}
      closeHref={closeHref}
      title="Change Planet"
      maxWidth="480px"
      description={shown ? `${shown.nick} is on ${shown.planet ?? "no planet"}.` : undefined}
    >
      {shown ? <ChangePlanetForm key={shown.accountId} account={shown} /> : null}
    </DialogFrame>
  );
}

function ChangePlanetForm({ account }: { account: SavedAccount }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  // A refused change comes back as chosen and typed, the reason next to the field (issue 30 A6).
  const kept = useKeptForm("planet", { accountId: account.accountId });
  const [choice, setChoice] = useState(() => kept.value("planet", ""));
  const [custom, setCustom] = useState(() => kept.value("custom", ""));
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "planet";
  return (
    <>
      {!account.isConnected ? (
        <Callout.Root color="orange" highContrast size="1" mb="3">
          <Callout.Text>{RELAY_ERRORS.notConnected}</Callout.Text>
        </Callout.Root>
      ) : null}
      {/* Posted to this URL (its dialog param kept): a post that fails leaves the dialog open with what was typed (the form kit). */}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="planet" />
        <input type="hidden" name="accountId" value={account.accountId} />
        <Flex direction="column" gap="3">
          {kept.formErrors.length ? <FieldError errors={kept.formErrors} /> : null}
          <fieldset className="gt-fieldset">
            <legend>
              <Text size="2" weight="medium">
                Planet
              </Text>
            </legend>
            <Flex direction="column" gap="1">
              {PLANET_OPTIONS.map((p) => (
                <label key={p}>
                  <input
                    type="radio"
                    name="planet"
                    value={p}
                    checked={hydrated ? choice === p : undefined}
                    defaultChecked={hydrated ? undefined : choice === p}
                    onChange={() => setChoice(p)}
                  />{" "}
                  <Text size="2">{p}</Text>
                </label>
              ))}
            </Flex>
            <FieldError errors={kept.errors("planet")} />
          </fieldset>
          <label htmlFor="gt-galacord-planet-custom">
            <Text size="2" weight="medium">
              Other planet
            </Text>
          </label>
          <TextField.Root
            id="gt-galacord-planet-custom"
            name="custom"
            value={custom}
            onChange={(e) => setCustom(e.target.value)}
            placeholder="Planet name"
            {...kept.invalid("custom", "gt-galacord-planet-custom-error")}
          />
          <FieldError id="gt-galacord-planet-custom-error" errors={kept.errors("custom")} />
        </Flex>
        <DialogButtons>
          <DialogCancel disabled={busy} />
          <Button type="submit" disabled={hydrated && !choice && !custom.trim()} loading={busy}>
            Change Planet
          </Button>
        </DialogButtons>
      </Form>
    </>
  );
}
