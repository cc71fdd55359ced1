import { Button, Flex, Text } from "@radix-ui/themes";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { Channel, SavedAccount } from "#api/galacord";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { useHydrated } from "~/components/ui/use-hydrated";
import { ChannelSelect } from "./channel-select";
import type { GalaCordDialogProps } from "./connect-new-dialog";
import { useLast } from "./use-last";

/** Change Channel (spec 2 §2; §5 "Change Channel needs a channel"): a connected account is disconnected and connected again. */
export function ChangeChannelDialog({
  open,
  onClose,
  closeHref,
  account,
  channels,
}: GalaCordDialogProps & { account: SavedAccount | null; channels: Channel[] }) {
  const shown = useLast(account);
  return (
    <DialogFrame
      open={open && !!account}
      onClose={onClose}
      closeHref={closeHref}
      title="Change Channel"
      maxWidth="480px"
      description={
        shown ? (
          <>
            {shown.nick} relays to #{shown.channelName} ({shown.guildName}).{shown.isConnected ? " It is disconnected and connected again." : ""}
          </>
        ) : undefined
      }
    >
      {shown ? <ChangeChannelForm key={shown.accountId} account={shown} channels={channels} /> : null}
    </DialogFrame>
  );
}

function ChangeChannelForm({ account, channels }: { account: SavedAccount; channels: Channel[] }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  // A refused change comes back as chosen, the reason next to the field (issue 30 A6).
  const kept = useKeptForm("update-channel", { accountId: account.accountId });
  const [channelId, setChannelId] = useState(() => kept.value("channelId", ""));
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "update-channel";
  return (
    // Posted to this URL (its dialog param kept): a post that fails leaves the dialog open with what was chosen (the form kit).
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="update-channel" />
      <input type="hidden" name="accountId" value={account.accountId} />
      <Flex direction="column" gap="3">
        {kept.formErrors.length ? <FieldError errors={kept.formErrors} /> : null}
        <label htmlFor="gt-galacord-change-channel">
          <Text size="2" weight="medium">
            New channel
          </Text>
        </label>
        <ChannelSelect
          id="gt-galacord-change-channel"
          channels={channels}
          value={channelId}
          onChange={setChannelId}
          {...kept.invalid("channelId", "gt-galacord-change-channel-error")}
        />
        <FieldError id="gt-galacord-change-channel-error" errors={kept.errors("channelId")} />
      </Flex>
      <DialogButtons>
        <DialogCancel disabled={busy} />
        <Button type="submit" disabled={hydrated && !channelId} loading={busy}>
          Change Channel
        </Button>
      </DialogButtons>
    </Form>
  );
}
