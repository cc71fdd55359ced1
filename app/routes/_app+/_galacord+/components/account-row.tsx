import { Badge, Button, Card, Flex, Link as RLink, Spinner, Text } from "@radix-ui/themes";
import { Form, useFetcher } from "@remix-run/react";
import type { SavedAccount } from "#api/galacord";
import { SessionDetail } from "~/components/session/session-detail";
import { SessionPhaseBadge } from "~/components/session/session-phase";
import { GlobeIcon, Link2Icon, TrashIcon } from "~/components/ui/icons";
import { useCanWrite } from "~/components/ui/write-only";
import { channelLink, DIALOG_PARAMS, formText, SECTION_PATH } from "./galacord-view";

/** The relay connection's backlog (issue 22 B.6): lines waiting for Discord or Galaxy, and any dropped beyond the bound. */
function BacklogBadges({ account }: { account: SavedAccount }) {
  const queued = Number(account.session.info.queued ?? 0);
  const dropped = Number(account.session.info.dropped ?? 0);
  if (!queued && !dropped) return null;
  return (
    <>
      {queued ? (
        <Badge color="amber" data-testid="relay-queued">
          {queued} queued
        </Badge>
      ) : null}
      {dropped ? (
        <Badge color="red" data-testid="relay-dropped">
          {dropped} dropped
        </Badge>
      ) : null}
    </>
  );
}

/**
 * A button that opens one of the screen's dialogs (spec 2 §2: the ID button, Change Channel,
 * Change Planet, Delete Connection). The dialogs are URL states, so the button is a GET form:
 * it works without JavaScript and is a button for assistive technology either way.
 */
export function OpenDialog({
  param,
  value,
  color,
  label,
  variant = "soft",
  children,
}: {
  param: string;
  value: string;
  color?: "red";
  label?: string;
  variant?: "soft" | "solid";
  children: React.ReactNode;
}) {
  return (
    <Form method="get" action={SECTION_PATH} preventScrollReset>
      <input type="hidden" name={param} value={value} />
      <Button type="submit" variant={variant} color={color} aria-label={label}>
        {children}
      </Button>
    </Form>
  );
}

/** Spec 2 §2 "Connected/Offline badge"; §4 "a spinner shows while connecting". */
export function StatusBadge({ account, pending }: { account: SavedAccount; pending: "connect" | "disconnect" | null }) {
  const connecting = pending === "connect" || (account.desired === "connected" && account.state === "connecting");
  if (pending !== "disconnect" && account.isConnected && !pending) return <Badge color="green">Connected</Badge>;
  // Issue 29: one state per badge — a connection no worker holds (its worker lost) says so, not a
  // spinner. A retry is connecting (spec 2 §4's spinner); the row's detail line says when the next try is.
  const phase = account.session.phase;
  if (!pending && connecting && phase === "waiting") return <SessionPhaseBadge session={account.session} />;
  if (connecting)
    return (
      <Badge color="blue">
        <Spinner size="1" /> Connecting
      </Badge>
    );
  return <Badge color="gray">Offline</Badge>;
}

/** One saved account (spec 2 §2): nick, planet chip, channel link, status badge, connect/disconnect and the row's dialogs. */
export function AccountRow({ account }: { account: SavedAccount }) {
  const fetcher = useFetcher();
  const posted = fetcher.state !== "idle" ? formText(fetcher.formData, "intent") : "";
  // Issue 30 A3: pending at once, until the row shows the server's word (its live event can come
  // before the post's answer and the loads after it).
  const caughtUp =
    (posted === "connect" && account.desired === "connected" && account.state !== "error") || (posted === "disconnect" && account.desired === "disconnected");
  const pendingIntent = caughtUp ? "" : posted;
  const pending = pendingIntent === "connect" ? "connect" : pendingIntent === "disconnect" ? "disconnect" : null;
  // An account in error (a login failure: 451, 950) is not retried until the operator presses Connect.
  const wantsConnected = pending ? pending === "connect" : account.desired === "connected" && account.state !== "error";
  const href = channelLink(account);
  const canWrite = useCanWrite();
  return (
    <Card asChild>
      <li className="gt-galacord-account" aria-label={account.nick}>
        <Flex direction={{ initial: "column", sm: "row" }} justify="between" gap="3" align={{ initial: "stretch", sm: "center" }}>
          <Flex direction="column" gap="1">
            <Flex gap="2" align="center" wrap="wrap">
              <Text weight="bold">{account.nick}</Text>
              <Badge variant="outline" color="iris" className="gt-planet-chip">
                <GlobeIcon /> {account.planet ?? "—"}
              </Badge>
              <StatusBadge account={account} pending={pending} />
              <BacklogBadges account={account} />
            </Flex>
            <Text size="2">
              {href ? (
                <RLink href={href} target="_blank" rel="noreferrer" underline="always">
                  <Link2Icon /> #{account.channelName}
                </RLink>
              ) : (
                `#${account.channelName}`
              )}{" "}
              <Text color="gray">({account.guildName})</Text>
            </Text>
            <SessionDetail session={account.session} />
          </Flex>
          {canWrite ? (
            <Flex gap="2" wrap="wrap">
              <fetcher.Form method="post" action={SECTION_PATH} preventScrollReset>
                <input type="hidden" name="accountId" value={account.accountId} />
                <input type="hidden" name="channelId" value={account.channelId} />
                <input type="hidden" name="intent" value={wantsConnected ? "disconnect" : "connect"} />
                <Button type="submit" variant="soft" color={wantsConnected ? "gray" : "green"}>
                  {wantsConnected ? "Disconnect" : "Connect"}
                </Button>
              </fetcher.Form>
              <OpenDialog param={DIALOG_PARAMS.changeChannel} value={account.accountId}>
                Change Channel
              </OpenDialog>
              <OpenDialog param={DIALOG_PARAMS.changePlanet} value={account.accountId}>
                Change Planet
              </OpenDialog>
              <OpenDialog param={DIALOG_PARAMS.options} value={account.accountId}>
                Relay Options
              </OpenDialog>
              <OpenDialog param={DIALOG_PARAMS.confirmDelete} value={account.accountId} color="red" label={`Delete ${account.nick}`}>
                <TrashIcon /> Delete
              </OpenDialog>
            </Flex>
          ) : null}
        </Flex>
      </li>
    </Card>
  );
}
