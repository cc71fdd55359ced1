import { Button, Flex, Text, TextArea, TextField } from "@radix-ui/themes";
import { Form, useNavigation } from "@remix-run/react";
import { RELAY_OPTION_LIMITS, type SavedAccount } from "#api/galacord";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import type { GalaCordDialogProps } from "./connect-new-dialog";
import { useLast } from "./use-last";

/**
 * Relay Options (issue 22 B.5; docs/galacord.md "Relay options"): how names show on the other
 * side, nicks never relayed, a regex of texts never relayed. A plain POST form (works without
 * JavaScript); the server validates (the regex must compile) and answers with a toast.
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

function RelayOptionsForm({ account }: { account: SavedAccount }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "options";
  const o = account.options;
  const L = RELAY_OPTION_LIMITS;
  return (
    // Posted to this URL (its dialog param kept): a refused pattern comes back here with the reason.
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="options" />
      <input type="hidden" name="accountId" value={account.accountId} />
      <Flex direction="column" gap="3">
        <label htmlFor="gt-galacord-discord-name">
          <Text size="2" weight="medium">
            Name on Discord
          </Text>
        </label>
        <TextField.Root id="gt-galacord-discord-name" name="discordName" defaultValue={o.discordName} required maxLength={L.nameTemplate} />
        <label htmlFor="gt-galacord-galaxy-name">
          <Text size="2" weight="medium">
            Name on Galaxy
          </Text>
        </label>
        <TextField.Root id="gt-galacord-galaxy-name" name="galaxyName" defaultValue={o.galaxyName} required maxLength={L.nameTemplate} />
        <label htmlFor="gt-galacord-ignore-nicks">
          <Text size="2" weight="medium">
            Ignore nicks
          </Text>{" "}
          <Text size="1" color="gray">
            (one a line or separated by commas; Galaxy nicks and Discord names)
          </Text>
        </label>
        <TextArea id="gt-galacord-ignore-nicks" name="ignoreNicks" defaultValue={o.ignoreNicks.join("\n")} rows={3} />
        <label htmlFor="gt-galacord-ignore-messages">
          <Text size="2" weight="medium">
            Ignore messages matching
          </Text>{" "}
          <Text size="1" color="gray">
            (a regular expression, e.g. ^! for bot commands)
          </Text>
        </label>
        <TextField.Root id="gt-galacord-ignore-messages" name="ignoreMessages" defaultValue={o.ignoreMessages} maxLength={L.pattern} />
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
