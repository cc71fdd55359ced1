import { Button, Flex, Text, TextField } from "@radix-ui/themes";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { Channel } from "#api/galacord";
import { TakeOverCheckbox } from "~/components/session/take-over-panel";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { useHydrated } from "~/components/ui/use-hydrated";
import { ChannelSelect } from "./channel-select";

export type GalaCordDialogProps = { open: boolean; onClose: () => void; closeHref: string };

/**
 * The ID button's dialog (spec 2 §2 "An ID button creates a connection: channel pick grouped by
 * server, recovery code, Connect"; §5 "Connect is disabled until channel and recovery code are
 * both given"). A plain POST answered by a redirect with a toast: a refused connection comes
 * back to `?new=1` with the reason, and (with JavaScript) the dialog stays open with what was
 * typed; a post that cannot reach the app keeps it too (the form kit).
 */
export function ConnectNewDialog({ open, onClose, closeHref, channels }: GalaCordDialogProps & { channels: Channel[] }) {
  return (
    <DialogFrame open={open} onClose={onClose} closeHref={closeHref} title="New connection" maxWidth="480px">
      <ConnectNewForm channels={channels} />
    </DialogFrame>
  );
}

function ConnectNewForm({ channels }: { channels: Channel[] }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  // A refused connection comes back with the channel chosen and the reason next to its field;
  // the recovery code is never sent back, its field asks for it again (issue 30 A6).
  const kept = useKeptForm("connect-new");
  const [channelId, setChannelId] = useState(() => kept.value("channelId", ""));
  const [code, setCode] = useState("");
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "connect-new";
  return (
    <>
      {channels.length === 0 ? (
        <Text as="p" size="2" color="gray" mb="3">
          No channels yet: start the bot, it lists the channels of its servers.
        </Text>
      ) : null}
      {/* Posted to this URL (its dialog param kept): a post that fails leaves the dialog open with what was typed (the form kit). */}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="connect-new" />
        <Flex direction="column" gap="3">
          {kept.formErrors.length ? <FieldError errors={kept.formErrors} /> : null}
          <label htmlFor="gt-galacord-channel">
            <Text size="2" weight="medium">
              Channel
            </Text>
          </label>
          <ChannelSelect
            id="gt-galacord-channel"
            channels={channels}
            value={channelId}
            onChange={setChannelId}
            {...kept.invalid("channelId", "gt-galacord-channel-error")}
          />
          <FieldError id="gt-galacord-channel-error" errors={kept.errors("channelId")} />
          <label htmlFor="gt-galacord-code">
            <Text size="2" weight="medium">
              Recovery code
            </Text>
          </label>
          <TextField.Root
            id="gt-galacord-code"
            name="recoveryCode"
            type="password"
            autoComplete="off"
            placeholder="Recovery code"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
            {...(kept.secretErrors("recoveryCode", code) ? kept.invalid("recoveryCode", "gt-galacord-code-error") : {})}
          />
          <FieldError id="gt-galacord-code-error" errors={kept.secretErrors("recoveryCode", code)} />
          <TakeOverCheckbox />
        </Flex>
        <DialogButtons>
          <DialogCancel disabled={busy} />
          <Button type="submit" disabled={hydrated && (!channelId || !code.trim())} loading={busy}>
            Connect
          </Button>
        </DialogButtons>
      </Form>
    </>
  );
}
