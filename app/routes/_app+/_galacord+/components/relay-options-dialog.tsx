import { Button, Flex, Text, TextArea, TextField } from "@radix-ui/themes";
import { Form, useNavigation } from "@remix-run/react";
import { RELAY_OPTION_LIMITS, type SavedAccount } from "#api/galacord";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import type { GalaCordDialogProps } from "./connect-new-dialog";
import { useLast } from "./use-last";

/**
 * Relay Options (issue 22 B.5; docs/galacord.md "Relay options"): how names show on the other
 * side, nicks never relayed, a regex of texts never relayed. A plain POST form (works without
 * JavaScript); the server validates (the regex must compile): saved, it answers with a toast;
 * refused, the form comes back as typed with the reason next to the field (issue 30 A6).
 */
export function RelayOptionsDialog({ open, onClose, closeHref, account }: GalaCordDialogProps & { account: SavedAccount | null }) {
  const shown = useLast(account);
  return (
    <DialogFrame
      open={open && !!account}
      onClose={onClose}
      closeHref={closeHref}
      title="Relay Options"
      maxWidth="520px"
      description={
        shown ? (
          <>
            How {shown.nick} relays between its planet and #{shown.channelName}. Names may use {"{nick}"}, {"{planet}"} and {"{channel}"}.
          </>
        ) : undefined
      }
    >
      {shown ? <RelayOptionsForm key={shown.accountId} account={shown} /> : null}
    </DialogFrame>
  );
}

const errorId = (name: string) => `gt-galacord-${name}-error`;

function RelayOptionsForm({ account }: { account: SavedAccount }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "options";
  // A refused save comes back as typed, the reason next to its field (issue 30 A6).
  const kept = useKeptForm("options", { accountId: account.accountId });
  const o = account.options;
  const L = RELAY_OPTION_LIMITS;
  const field = (name: string) => kept.invalid(name, errorId(name));
  return (
    // Posted to this URL (its dialog param kept): a refused save comes back here, as typed, with the reason.
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="options" />
      <input type="hidden" name="accountId" value={account.accountId} />
      <Flex direction="column" gap="3">
        {kept.formErrors.length ? <FieldError errors={kept.formErrors} /> : null}
        <label htmlFor="gt-galacord-discord-name">
          <Text size="2" weight="medium">
            Name on Discord
          </Text>
        </label>
        <TextField.Root
          id="gt-galacord-discord-name"
          name="discordName"
          defaultValue={kept.value("discordName", o.discordName)}
          required
          maxLength={L.nameTemplate}
          {...field("discordName")}
        />
        <FieldError id={errorId("discordName")} errors={kept.errors("discordName")} />
        <label htmlFor="gt-galacord-galaxy-name">
          <Text size="2" weight="medium">
            Name on Galaxy
          </Text>
        </label>
        <TextField.Root
          id="gt-galacord-galaxy-name"
          name="galaxyName"
          defaultValue={kept.value("galaxyName", o.galaxyName)}
          required
          maxLength={L.nameTemplate}
          {...field("galaxyName")}
        />
        <FieldError id={errorId("galaxyName")} errors={kept.errors("galaxyName")} />
        <label htmlFor="gt-galacord-ignore-nicks">
          <Text size="2" weight="medium">
            Ignore nicks
          </Text>{" "}
          <Text size="1" color="gray">
            (one a line or separated by commas; Galaxy nicks and Discord names)
          </Text>
        </label>
        <TextArea
          id="gt-galacord-ignore-nicks"
          name="ignoreNicks"
          defaultValue={kept.value("ignoreNicks", o.ignoreNicks.join("\n"))}
          rows={3}
          {...field("ignoreNicks")}
        />
        <FieldError id={errorId("ignoreNicks")} errors={kept.errors("ignoreNicks")} />
        <label htmlFor="gt-galacord-ignore-messages">
          <Text size="2" weight="medium">
            Ignore messages matching
          </Text>{" "}
          <Text size="1" color="gray">
            (a regular expression, e.g. ^! for bot commands)
          </Text>
        </label>
        <TextField.Root
          id="gt-galacord-ignore-messages"
          name="ignoreMessages"
          defaultValue={kept.value("ignoreMessages", o.ignoreMessages)}
          maxLength={L.pattern}
          {...field("ignoreMessages")}
        />
        <FieldError id={errorId("ignoreMessages")} errors={kept.errors("ignoreMessages")} />
      </Flex>
      <DialogButtons>
        <DialogCancel disabled={busy} />
        <Button type="submit" loading={busy}>
          Save Options
        </Button>
      </DialogButtons>
    </Form>
  );
}
