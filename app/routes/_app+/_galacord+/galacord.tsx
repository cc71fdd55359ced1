import { Badge, Box, Button, Callout, Card, Flex, Heading, Link as RLink, Spinner, Text, TextArea, TextField } from "@radix-ui/themes";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { useState } from "react";
import { BOT_STATUS_POLL_MS, PLANET_OPTIONS, RELAY_ERRORS, RELAY_MESSAGES, RELAY_OPTION_LIMITS, type Channel, type SavedAccount } from "#api/galacord";
import { planetSchema, splitNicks } from "#api/galacord-schemas";
import { sessionLogsUrl } from "#api/sessions";
import { useLive } from "~/components/live/live";
import { SessionDetail } from "~/components/session/session-detail";
import { TakeOverCheckbox, TakeOverPanel } from "~/components/session/take-over-panel";
import styles from "~/routes/_app+/_galacord+/components/galacord.css?url";
import { ConfirmPanel } from "~/components/ui/confirm-dialog";
import { ExclamationTriangleIcon, GlobeIcon, Link2Icon, TrashIcon } from "~/components/ui/icons";
import { LoadFailurePanel } from "~/components/ui/load-failure";
import { SectionHeader } from "~/components/ui/section-header";
import { useCanWrite } from "~/components/ui/write-only";
import { useHydrated } from "~/components/ui/use-hydrated";
import {
  changePlanet,
  connectAccount,
  connectNew,
  deleteAccount,
  getBotStatus,
  listChannels,
  listSavedAccounts,
  saveRelayOptions,
  startBot,
  stopBot,
  stopConnection,
  updateChannel,
} from "~/models/galacord.server";
import { logEvent } from "~/models/log.server";
import type { AccountHeldError } from "~/models/session.server";
import { takeoverLocation, takeoverNotice } from "~/utils/takeover.server";
import { requireOperator } from "~/utils/auth.server";
import { errorText } from "~/utils/errors";
import { readFormData } from "~/utils/forms.server";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";
import { AppError } from "~/utils/app-error";
import { isJobEngineOffline } from "#jobs/queues.server";

/**
 * GalaCord, the relay bot panel (spec 2 §2 "GalaCord screen", §3/§4/§5/§8 "Relay bot";
 * docs/galacord.md).
 *
 * loader  bot status, saved accounts, channels. URL state (works without JavaScript):
 *         `new=1` the connection form (ID button), `channel=<accountId>` Change Channel,
 *         `planet=<accountId>` Change Planet, `options=<accountId>` Relay Options,
 *         `confirm=<accountId>` Delete Connection.
 * action  one intent per form, each answered by a redirect with a toast (the §8 defaults
 *         or the server's text). With JavaScript the status is polled every 5 s (§9).
 */

export const meta: MetaFunction = () => [{ title: "GalaCord · Galaxy Toolbox" }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  try {
    const [status, accounts, channels, takeover] = await Promise.all([
      getBotStatus(),
      listSavedAccounts(),
      listChannels(),
      takeoverNotice(request, ["connect"]),
    ]);
    return data({ status, accounts, channels, takeover, loadError: null as string | null });
  } catch (err) {
    await logEvent({ type: "error", source: "system", message: `${RELAY_ERRORS.fetchStatus}: ${errorText(err)}` }).catch(() => {});
    return data(
      {
        status: { isRunning: false, error: null, connectedChannels: 0, state: "stopped" as const, session: null },
        accounts: [],
        channels: [],
        takeover: null,
        loadError: RELAY_ERRORS.fetchStatus as string,
      },
      { status: 503 },
    );
  }
}

const str = (fd: FormData, name: string) => {
  const v = fd.get(name);
  return typeof v === "string" ? v : "";
};

/** With JavaScript, a post that cannot reach the app keeps the screen and what was typed (the form kit, issue 19). */
export const clientAction = keepInputOnFailure();
export const shouldRevalidate = reloadUnlessSubmitFailed();

export async function action({ request }: ActionFunctionArgs) {
  await requireOperator(request);
  const fd = await readFormData(request);
  const intent = str(fd, "intent");
  const home = "/galacord";
  const accountId = str(fd, "accountId");
  const fail = async (err: unknown, fallback: string, back = home) => {
    if (err instanceof Response) throw err;
    if (err instanceof AppError) return redirectWithError(back, err.message);
    await logEvent({ type: "error", source: "system", message: `${fallback}: ${errorText(err)}` }).catch(() => {});
    return redirectWithError(back, fallback);
  };
  switch (intent) {
    case "bot-start":
      try {
        await startBot();
        return redirectWithSuccess(home, RELAY_MESSAGES.started);
      } catch (err) {
        if (isJobEngineOffline(err)) return redirectWithError(home, RELAY_ERRORS.controlBot);
        return fail(err, RELAY_ERRORS.controlBot);
      }
    case "bot-stop":
      try {
        await stopBot();
        return redirectWithSuccess(home, RELAY_MESSAGES.stopped);
      } catch (err) {
        return fail(err, RELAY_ERRORS.controlBot);
      }
    case "connect-new": {
      const channelId = str(fd, "channelId").trim();
      const recoveryCode = str(fd, "recoveryCode").trim();
      const back = "/galacord?new=1";
      if (!channelId) return redirectWithError(back, RELAY_ERRORS.channelRequired);
      if (!recoveryCode) return redirectWithError(back, RELAY_ERRORS.recoveryCodeRequired);
      try {
        await connectNew({ channelId, recoveryCode, takeover: ["1", "on", "true"].includes(str(fd, "takeover")) });
        return redirectWithSuccess(home, RELAY_MESSAGES.connected);
      } catch (err) {
        return fail(err, RELAY_ERRORS.createConnection, back);
      }
    }
    case "connect":
      try {
        await connectAccount(accountId, str(fd, "channelId"), { takeover: ["1", "on", "true"].includes(str(fd, "takeover")) });
        return redirectWithSuccess(home, RELAY_MESSAGES.reconnecting);
      } catch (err) {
        // Another purpose holds the account: back to the page with the take-over question.
        const to = takeoverLocation(err, home, {
          intent,
          accountId,
          fields: { accountId, channelId: str(fd, "channelId"), accountName: (err as AccountHeldError).account ?? accountId },
        });
        if (to) return redirectWithError(to, (err as AccountHeldError).message);
        return fail(err, RELAY_ERRORS.createConnection);
      }
    case "disconnect":
      try {
        await stopConnection(accountId);
        return redirectWithSuccess(home, RELAY_MESSAGES.disconnected);
      } catch (err) {
        return fail(err, RELAY_ERRORS.disconnectAccount);
      }
    case "update-channel": {
      const channelId = str(fd, "channelId").trim();
      const back = `/galacord?channel=${encodeURIComponent(accountId)}`;
      if (!channelId) return redirectWithError(back, RELAY_ERRORS.channelRequired);
      try {
        await updateChannel(accountId, channelId);
        return redirectWithSuccess(home, RELAY_MESSAGES.channelUpdated);
      } catch (err) {
        return fail(err, RELAY_ERRORS.updateChannel, back);
      }
    }
    case "planet": {
      const raw = str(fd, "custom").trim() || str(fd, "planet").trim();
      const back = `/galacord?planet=${encodeURIComponent(accountId)}`;
      const parsed = planetSchema.shape.planet.safeParse(raw);
      if (!parsed.success) return redirectWithError(back, parsed.error.issues[0]?.message ?? RELAY_ERRORS.planetRequired);
      try {
        const planet = await changePlanet(accountId, parsed.data);
        return redirectWithSuccess(home, `${RELAY_MESSAGES.planetChanged}: ${planet}`);
      } catch (err) {
        return fail(err, RELAY_ERRORS.changePlanet, back);
      }
    }
    case "options": {
      const back = `/galacord?options=${encodeURIComponent(accountId)}`;
      try {
        await saveRelayOptions(accountId, {
          discordName: str(fd, "discordName"),
          galaxyName: str(fd, "galaxyName"),
          ignoreNicks: splitNicks(str(fd, "ignoreNicks")),
          ignoreMessages: str(fd, "ignoreMessages"),
        });
        return redirectWithSuccess(home, RELAY_MESSAGES.optionsSaved);
      } catch (err) {
        return fail(err, RELAY_ERRORS.saveOptions, back);
      }
    }
    case "delete":
      try {
        await deleteAccount(accountId);
        return redirectWithSuccess(home, RELAY_MESSAGES.deleted);
      } catch (err) {
        return fail(err, RELAY_ERRORS.deleteAccount);
      }
    default:
      return redirectWithError(home, `Unknown intent: ${intent || "(none)"}`);
  }
}

function channelLink(a: { guildId: string | null; channelId: string }) {
  return a.guildId ? `https://discord.com/channels/${a.guildId}/${a.channelId}` : undefined;
}

/** Channel pick grouped by server (spec 2 §2): a native select with one optgroup per server. */
function ChannelSelect({ channels, value, onChange, id }: { channels: Channel[]; value?: string; onChange?: (v: string) => void; id: string }) {
  const servers = [...new Set(channels.map((c) => c.guildName))];
  return (
    <select
      id={id}
      name="channelId"
      className="gt-native-select"
      required
      value={onChange ? value : undefined}
      defaultValue={onChange ? undefined : value}
      onChange={(e) => onChange?.(e.target.value)}
    >
      <option value="">Choose a channel…</option>
      {servers.map((g) => (
        <optgroup key={g} label={g}>
          {channels
            .filter((c) => c.guildName === g)
            .map((c) => (
              <option key={c.id} value={c.id}>
                #{c.name}
              </option>
            ))}
        </optgroup>
      ))}
    </select>
  );
}

function Panel({ title, id, closeTo, children }: { title: string; id: string; closeTo: string; children: React.ReactNode }) {
  return (
    <Card mb="4" asChild>
      <section role="dialog" aria-labelledby={id}>
        <Flex direction="column" gap="3">
          <Flex justify="between" align="center">
            <Heading as="h2" size="4" id={id}>
              {title}
            </Heading>
            <Button asChild variant="ghost" color="gray">
              <Link to={closeTo} preventScrollReset>
                Close
              </Link>
            </Button>
          </Flex>
          {children}
        </Flex>
      </section>
    </Card>
  );
}

function ConnectNewPanel({ channels }: { channels: Channel[] }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [channelId, setChannelId] = useState("");
  const [code, setCode] = useState("");
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "connect-new";
  return (
    <Panel title="New connection" id="gt-galacord-new" closeTo="/galacord">
      {channels.length === 0 ? (
        <Text size="2" color="gray">
          No channels yet: start the bot, it lists the channels of its servers.
        </Text>
      ) : null}
      {/* Posted to this URL (its panel param kept): a post that fails leaves the panel open with what was typed (the form kit). */}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="connect-new" />
        <Flex direction="column" gap="3">
          <label htmlFor="gt-galacord-channel">
            <Text size="2" weight="medium">
              Channel
            </Text>
          </label>
          <ChannelSelect id="gt-galacord-channel" channels={channels} value={channelId} onChange={setChannelId} />
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
          />
          <TakeOverCheckbox />
          <Flex justify="end">
            <Button type="submit" disabled={hydrated && (!channelId || !code.trim())} loading={busy}>
              Connect
            </Button>
          </Flex>
        </Flex>
      </Form>
    </Panel>
  );
}

function ChangeChannelPanel({ account, channels }: { account: SavedAccount; channels: Channel[] }) {
  const hydrated = useHydrated();
  const [channelId, setChannelId] = useState("");
  return (
    <Panel title="Change Channel" id="gt-galacord-channel-title" closeTo="/galacord">
      <Text size="2">
        {account.nick} relays to #{account.channelName} ({account.guildName}).{account.isConnected ? " It is disconnected and connected again." : ""}
      </Text>
      {/* Posted to this URL (its panel param kept): a post that fails leaves the panel open with what was typed (the form kit). */}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="update-channel" />
        <input type="hidden" name="accountId" value={account.accountId} />
        <Flex direction="column" gap="3">
          <label htmlFor="gt-galacord-change-channel">
            <Text size="2" weight="medium">
              New channel
            </Text>
          </label>
          <ChannelSelect id="gt-galacord-change-channel" channels={channels} value={channelId} onChange={setChannelId} />
          <Flex justify="end">
            <Button type="submit" disabled={hydrated && !channelId}>
              Change Channel
            </Button>
          </Flex>
        </Flex>
      </Form>
    </Panel>
  );
}

function ChangePlanetPanel({ account }: { account: SavedAccount }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [choice, setChoice] = useState("");
  const [custom, setCustom] = useState("");
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "planet";
  return (
    <Panel title="Change Planet" id="gt-galacord-planet-title" closeTo="/galacord">
      <Text size="2">
        {account.nick} is on {account.planet ?? "no planet"}.
      </Text>
      {!account.isConnected ? (
        <Callout.Root color="orange" size="1">
          <Callout.Text>{RELAY_ERRORS.notConnected}</Callout.Text>
        </Callout.Root>
      ) : null}
      {/* Posted to this URL (its panel param kept): a post that fails leaves the panel open with what was typed (the form kit). */}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="planet" />
        <input type="hidden" name="accountId" value={account.accountId} />
        <Flex direction="column" gap="3">
          <fieldset className="gt-fieldset">
            <legend>
              <Text size="2" weight="medium">
                Planet
              </Text>
            </legend>
            <Flex direction="column" gap="1">
              {PLANET_OPTIONS.map((p) => (
                <label key={p}>
                  <input type="radio" name="planet" value={p} checked={hydrated ? choice === p : undefined} onChange={() => setChoice(p)} />{" "}
                  <Text size="2">{p}</Text>
                </label>
              ))}
            </Flex>
          </fieldset>
          <label htmlFor="gt-galacord-planet-custom">
            <Text size="2" weight="medium">
              Other planet
            </Text>
          </label>
          <TextField.Root id="gt-galacord-planet-custom" name="custom" value={custom} onChange={(e) => setCustom(e.target.value)} placeholder="Planet name" />
          <Flex justify="end">
            <Button type="submit" disabled={hydrated && !choice && !custom.trim()} loading={busy}>
              Change Planet
            </Button>
          </Flex>
        </Flex>
      </Form>
    </Panel>
  );
}

/**
 * Relay Options (issue 22 B.5; docs/galacord.md "Relay options"): how names show on the other
 * side, nicks never relayed, a regex of texts never relayed. A plain POST form (works without
 * JavaScript); the server validates (the regex must compile) and answers with a toast.
 */
function RelayOptionsPanel({ account }: { account: SavedAccount }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "options";
  const o = account.options;
  const L = RELAY_OPTION_LIMITS;
  return (
    <Panel title="Relay Options" id="gt-galacord-options-title" closeTo="/galacord">
      <Text size="2">
        How {account.nick} relays between its planet and #{account.channelName}. Names may use {"{nick}"}, {"{planet}"} and {"{channel}"}.
      </Text>
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
          <Flex justify="end">
            <Button type="submit" loading={busy}>
              Save Options
            </Button>
          </Flex>
        </Flex>
      </Form>
    </Panel>
  );
}

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
function OpenDialog({
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
    <Form method="get" action="/galacord" preventScrollReset>
      <input type="hidden" name={param} value={value} />
      <Button type="submit" variant={variant} color={color} aria-label={label}>
        {children}
      </Button>
    </Form>
  );
}

function StatusBadge({ account, pending }: { account: SavedAccount; pending: "connect" | "disconnect" | null }) {
  const connecting = pending === "connect" || (account.desired === "connected" && account.state === "connecting");
  if (pending !== "disconnect" && account.isConnected && !pending) return <Badge color="green">Connected</Badge>;
  if (connecting)
    return (
      <Badge color="blue">
        <Spinner size="1" /> Connecting
      </Badge>
    );
  return <Badge color="gray">Offline</Badge>;
}

function AccountRow({ account }: { account: SavedAccount }) {
  const fetcher = useFetcher();
  const pendingIntent = fetcher.state !== "idle" ? str(fetcher.formData ?? new FormData(), "intent") : "";
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
                <RLink href={href} target="_blank" rel="noreferrer">
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
              <fetcher.Form method="post" action="/galacord" preventScrollReset>
                <input type="hidden" name="accountId" value={account.accountId} />
                <input type="hidden" name="channelId" value={account.channelId} />
                <input type="hidden" name="intent" value={wantsConnected ? "disconnect" : "connect"} />
                <Button type="submit" variant="soft" color={wantsConnected ? "gray" : "green"}>
                  {wantsConnected ? "Disconnect" : "Connect"}
                </Button>
              </fetcher.Form>
              <OpenDialog param="channel" value={account.accountId}>
                Change Channel
              </OpenDialog>
              <OpenDialog param="planet" value={account.accountId}>
                Change Planet
              </OpenDialog>
              <OpenDialog param="options" value={account.accountId}>
                Relay Options
              </OpenDialog>
              <OpenDialog param="confirm" value={account.accountId} color="red" label={`Delete ${account.nick}`}>
                <TrashIcon /> Delete
              </OpenDialog>
            </Flex>
          ) : null}
        </Flex>
      </li>
    </Card>
  );
}

export default function GalaCordRoute() {
  const { status, accounts, channels, takeover, loadError } = useLoaderData<typeof loader>();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const botFetcher = useFetcher();

  // The bot and every relay connection follow live (docs/live.md); spec 2 §9's 5 s status poll
  // runs only while the live stream is down. The loader renders them without JavaScript.
  useLive(["session:relay", "session:relay-link", "galacord"], { fallbackMs: BOT_STATUS_POLL_MS });

  const pendingBot = botFetcher.state !== "idle" ? str(botFetcher.formData ?? new FormData(), "intent") : "";
  // Starting, from the click until Discord answers: never "Stopped" in between.
  const shown = pendingBot === "bot-start" ? "starting" : pendingBot === "bot-stop" ? "stopped" : status.state;
  const running = shown === "running" || shown === "starting";
  // A viewer (issue 21) follows the bot and the connections; starting, connecting and editing are not offered.
  const canWrite = useCanWrite();
  const account = (key: string) => (canWrite ? accounts.find((a) => a.accountId === params.get(key)) : undefined);
  const changing = account("channel");
  const planetFor = account("planet");
  const deleting = account("confirm");
  const optionsFor = account("options");
  // A dialog is open: the saved accounts behind it are out of reach (as behind a modal), so
  // the dialog's own Connect / Change Channel / Change Planet / Delete are the only ones.
  const connectingNew = canWrite && Boolean(params.get("new"));
  const dialogOpen = Boolean(connectingNew || changing || planetFor || optionsFor || deleting);

  return (
    <Box>
      <SectionHeader
        title="GalaCord"
        actions={
          <>
            <Flex align="center" gap="2" role="status" aria-live="polite" className="gt-bot-status">
              <span
                className={`gt-status-dot ${shown === "running" ? "gt-status-dot-on" : shown === "starting" ? "gt-status-dot-starting" : ""}`}
                aria-hidden
              />
              <Text size="2" weight="medium" data-testid="bot-state">
                {shown === "running" ? "Running" : shown === "starting" ? "Starting" : "Stopped"}
              </Text>
              <Text size="2" color="gray">
                · {status.connectedChannels} active {status.connectedChannels === 1 ? "connection" : "connections"}
              </Text>
            </Flex>
            {canWrite ? (
              <>
                <botFetcher.Form method="post" action="/galacord" preventScrollReset>
                  <input type="hidden" name="intent" value={running ? "bot-stop" : "bot-start"} />
                  <Button type="submit" color={running ? "red" : "green"} variant="soft">
                    {running ? "Stop" : "Start"}
                  </Button>
                </botFetcher.Form>
                <OpenDialog param="new" value="1" variant="solid">
                  ID
                </OpenDialog>
              </>
            ) : null}
          </>
        }
      />
      {loadError ? <LoadFailurePanel title={loadError} message={RELAY_ERRORS.fetchAccounts} /> : null}
      {takeover ? <TakeOverPanel notice={takeover} /> : null}
      {status.error ? (
        <Callout.Root color="red" mb="4" role="alert">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>
            <strong>{RELAY_ERRORS.botError}</strong>: {status.error}
            {status.session ? (
              <>
                {" "}
                · <Link to={sessionLogsUrl(status.session)}>System Logs</Link>
              </>
            ) : null}
          </Callout.Text>
        </Callout.Root>
      ) : shown === "starting" ? (
        <Flex as="div" direction="column" mb="3" gap="1" data-testid="bot-starting">
          <Flex align="center" gap="2">
            <Spinner size="1" />
            <Text size="2" color="gray">
              Logging in to Discord…
            </Text>
          </Flex>
          {status.session && !pendingBot ? <SessionDetail session={status.session} size="2" /> : null}
        </Flex>
      ) : status.session && !pendingBot ? (
        <SessionDetail session={status.session} size="2" />
      ) : null}
      {connectingNew ? <ConnectNewPanel channels={channels} /> : null}
      {changing ? <ChangeChannelPanel account={changing} channels={channels} /> : null}
      {planetFor ? <ChangePlanetPanel account={planetFor} /> : null}
      {optionsFor ? <RelayOptionsPanel account={optionsFor} /> : null}
      {deleting ? (
        <ConfirmPanel
          title="Delete Connection"
          description={`Delete the connection of ${deleting.nick} to #${deleting.channelName}? Its saved recovery code is deleted too. This cannot be undone.`}
          confirmLabel="Delete"
          cancelTo="/galacord"
          form={{ action: "/galacord", fields: { intent: "delete", accountId: deleting.accountId } }}
        />
      ) : null}
      <Box aria-hidden={dialogOpen || undefined} {...(dialogOpen ? { inert: "" } : {})}>
        <Heading as="h2" size="4" mb="2">
          Saved accounts
        </Heading>
        {accounts.length === 0 ? (
          <Text as="p" size="2" color="gray">
            {canWrite ? "No saved accounts yet. Use the ID button to connect one." : "No saved accounts yet."}
          </Text>
        ) : (
          <Flex asChild direction="column" gap="2">
            <ul className="gt-plain-list" aria-label="Saved accounts">
              {accounts.map((a) => (
                <AccountRow key={a.accountId} account={a} />
              ))}
            </ul>
          </Flex>
        )}
      </Box>
    </Box>
  );
}
