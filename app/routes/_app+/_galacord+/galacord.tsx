import { Box, Flex, Heading, Text } from "@radix-ui/themes";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { BOT_STATUS_POLL_MS, RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { planetSchema, splitNicks } from "#api/galacord-schemas";
import { useLive } from "~/components/live/live";
import { TakeOverPanel } from "~/components/session/take-over-panel";
import styles from "~/routes/_app+/_galacord+/components/galacord.css?url";
import { AccountRow, OpenDialog } from "~/routes/_app+/_galacord+/components/account-row";
import { BotNotice, BotStartStop, BotStatusDot } from "~/routes/_app+/_galacord+/components/bot-status";
import { DeleteConnection } from "~/routes/_app+/_galacord+/components/delete-connection";
import { DIALOG_PARAMS, SECTION_PATH } from "~/routes/_app+/_galacord+/components/galacord-view";
import { ChangeChannelDialog, ChangePlanetDialog, ConnectNewDialog, RelayOptionsDialog } from "~/routes/_app+/_galacord+/components/lazy-dialogs";
import { LoadFailurePanel } from "~/components/ui/load-failure";
import { SectionHeader } from "~/components/ui/section-header";
import { useCanWrite } from "~/components/ui/write-only";
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

/**
 * The screen (spec 2 §2 "GalaCord screen"): the bot's status and control, its notices, the
 * saved accounts, and the dialog the URL names (components/galacord-view.ts). The dialogs are
 * the kit's DialogFrame (focus trapped, Escape closes) and, without JavaScript, the same
 * content inline from the server.
 */
export default function GalaCordRoute() {
  const { status, accounts, channels, takeover, loadError } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);

  // The bot and every relay connection follow live (docs/live.md); spec 2 §9's 5 s status poll
  // runs only while the live stream is down. The loader renders them without JavaScript.
  useLive(["session:relay", "session:relay-link", "galacord"], { fallbackMs: BOT_STATUS_POLL_MS });

  // A viewer (issue 21) follows the bot and the connections; starting, connecting and editing are not offered.
  const canWrite = useCanWrite();
  const account = (key: string) => (canWrite ? (accounts.find((a) => a.accountId === params.get(key)) ?? null) : null);
  const changing = account(DIALOG_PARAMS.changeChannel);
  const planetFor = account(DIALOG_PARAMS.changePlanet);
  const optionsFor = account(DIALOG_PARAMS.options);
  const deleting = account(DIALOG_PARAMS.confirmDelete);
  const connectingNew = canWrite && Boolean(params.get(DIALOG_PARAMS.connectNew));
  // A dialog is open: the saved accounts behind it are out of reach (as behind a modal; the
  // inline dialogs without JavaScript too), so the dialog's own buttons are the only ones.
  const dialogOpen = Boolean(connectingNew || changing || planetFor || optionsFor || deleting);
  const closeHref = SECTION_PATH;
  const close = () => navigate(closeHref, { replace: true, preventScrollReset: true });

  return (
    <Box>
      <SectionHeader
        title="GalaCord"
        actions={
          <>
            <BotStatusDot status={status} />
            {canWrite ? (
              <>
                <BotStartStop status={status} />
                <OpenDialog param={DIALOG_PARAMS.connectNew} value="1" variant="solid">
                  ID
                </OpenDialog>
              </>
            ) : null}
          </>
        }
      />
      {loadError ? <LoadFailurePanel title={loadError} message={RELAY_ERRORS.fetchAccounts} /> : null}
      {takeover ? <TakeOverPanel notice={takeover} /> : null}
      <BotNotice status={status} />
      <ConnectNewDialog open={connectingNew} onClose={close} closeHref={closeHref} channels={channels} />
      <ChangeChannelDialog open={!!changing} onClose={close} closeHref={closeHref} account={changing} channels={channels} />
      <ChangePlanetDialog open={!!planetFor} onClose={close} closeHref={closeHref} account={planetFor} />
      <RelayOptionsDialog open={!!optionsFor} onClose={close} closeHref={closeHref} account={optionsFor} />
      <DeleteConnection account={deleting} onClose={close} closeHref={closeHref} />
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
