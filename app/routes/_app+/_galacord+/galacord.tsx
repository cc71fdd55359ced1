import { Box, Flex, Heading, Text } from "@radix-ui/themes";
import { data, redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { BOT_STATUS_POLL_MS, RELAY_ERRORS, RELAY_MESSAGES, relayAccountState } from "#api/galacord";
import { planetSchema, splitNicks } from "#api/galacord-schemas";
import { useLive } from "~/components/live/live";
import { newerSession, useLiveSessions } from "~/components/session/live-sessions";
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
import { connectNew } from "~/platform/galacord-connect.server";
import { logEvent } from "~/models/log.server";
import { AccountHeldError } from "~/models/session.server";
import { takeoverLocation, takeoverNotice } from "~/http/takeover.server";
import { requireOperator } from "~/http/auth.server";
import { errorText } from "~/utils/errors";
import { isJobEngineOffline } from "~/queue/queues.server";
import { pageAction } from "~/http/page-action.server";
import { AppError } from "~/utils/app-error";

/**
 * GalaCord, the relay bot panel (spec 2 §2 "GalaCord screen", §3/§4/§5/§8 "Relay bot";
 * docs/galacord.md).
 *
 * loader  bot status, saved accounts, channels. URL state (works without JavaScript):
 *         `new=1` the connection form (ID button), `channel=<accountId>` Change Channel,
 *         `planet=<accountId>` Change Planet, `options=<accountId>` Relay Options,
 *         `confirm=<accountId>` Delete Connection.
 * action  `pageAction` (docs/decisions/0023): one intent per form, each answered by a redirect
 *         with a toast (the §8 defaults or the server's text), with or without JavaScript; a
 *         form's refusal comes back as typed, the reason next to its field (issue 30 A6), a refused Connect to the take-over question.
 *         With JavaScript the status is polled every 5 s (§9).
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
        status: { isRunning: false, error: null, connectedChannels: 0, state: "stopped" as const, stateText: "Stopped", session: null },
        accounts: [],
        channels: [],
        takeover: null,
        loadError: RELAY_ERRORS.fetchStatus as string,
      },
      { status: 503 },
    );
  }
}

/** With JavaScript, a post that cannot reach the app keeps the screen and what was typed (the form kit, issue 19). */
export const clientAction = keepInputOnFailure();
export const shouldRevalidate = reloadUnlessSubmitFailed();

type Intent = "bot-start" | "bot-stop" | "connect-new" | "connect" | "disconnect" | "update-channel" | "planet" | "options" | "delete";

/** Spec 2 §8 "Relay bot": each intent's text for a failure that is ours (500, logged). */
const FALLBACK: Record<Intent, string> = {
  "bot-start": RELAY_ERRORS.controlBot,
  "bot-stop": RELAY_ERRORS.controlBot,
  "connect-new": RELAY_ERRORS.createConnection,
  connect: RELAY_ERRORS.createConnection,
  disconnect: RELAY_ERRORS.disconnectAccount,
  "update-channel": RELAY_ERRORS.updateChannel,
  planet: RELAY_ERRORS.changePlanet,
  options: RELAY_ERRORS.saveOptions,
  delete: RELAY_ERRORS.deleteAccount,
};

export const action = pageAction<Intent>({
  section: "GalaCord",
  home: SECTION_PATH,
  // Every GalaCord form navigates (the dialogs are URL states, the row and bot buttons are
  // fetchers that follow the redirect): a redirect with its toast, with or without JavaScript.
  defaultRedirectTo: SECTION_PATH,
  failure: FALLBACK,
  // Relay Options and Change Planet keep what was typed on a refusal, the reason next to its field (issue 30 A6).
  // So do New connection (the recovery code is never sent back: typed again) and Change Channel.
  keepOnRefusal: { options: {}, planet: {}, "connect-new": { secret: ["recoveryCode"] }, "update-channel": {} },
  onError: (err, { intent, form, redirectTo }) => {
    // Spec 2 §8: Start answers its own text when the job engine is down.
    if (intent === "bot-start" && isJobEngineOffline(err)) return { ok: false, message: RELAY_ERRORS.controlBot, status: 503 };
    // Another purpose holds the account: back to the page with the take-over question.
    if (!(err instanceof AccountHeldError) || intent !== "connect") return undefined;
    const accountId = form.string("accountId");
    const fields = { accountId, channelId: form.string("channelId"), accountName: err.account };
    const to = takeoverLocation(err, redirectTo ?? SECTION_PATH, { intent, accountId, fields });
    // The panel there says who holds it; a toast saying it again was one "in use by …" too many (issue 30 A7).
    return to ? redirect(to) : undefined;
  },
  intents: {
    "bot-start": async () => {
      await startBot();
      return RELAY_MESSAGES.started;
    },
    "bot-stop": async () => {
      await stopBot();
      return RELAY_MESSAGES.stopped;
    },
    "connect-new": async ({ form }) => {
      const channelId = form.required("channelId", RELAY_ERRORS.channelRequired);
      const recoveryCode = form.required("recoveryCode", RELAY_ERRORS.recoveryCodeRequired);
      await connectNew({ channelId, recoveryCode, takeover: form.checked("takeover") }).catch((err: unknown) => {
        // The platform refused the code itself ("invalid_credentials", 400): the reason goes next to it.
        throw err instanceof AppError && err.status === 400 && !err.field ? new AppError(400, err.message, { field: "recoveryCode" }) : err;
      });
      return RELAY_MESSAGES.connected;
    },
    connect: async ({ form }) => {
      await connectAccount(form.string("accountId"), form.string("channelId"), { takeover: form.checked("takeover") });
      return RELAY_MESSAGES.reconnecting;
    },
    disconnect: async ({ form }) => {
      await stopConnection(form.string("accountId"));
      return RELAY_MESSAGES.disconnected;
    },
    "update-channel": async ({ form }) => {
      const channelId = form.required("channelId", RELAY_ERRORS.channelRequired);
      await updateChannel(form.string("accountId"), channelId);
      return RELAY_MESSAGES.channelUpdated;
    },
    planet: async ({ form }) => {
      // The typed planet wins over the picked one (the dialog's "Other planet" field).
      const typed = form.string("custom").trim();
      const parsed = planetSchema.shape.planet.safeParse(typed || form.string("planet").trim());
      if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? RELAY_ERRORS.planetRequired, field: typed ? "custom" : "planet" };
      const planet = await changePlanet(form.string("accountId"), parsed.data);
      return `${RELAY_MESSAGES.planetChanged}: ${planet}`;
    },
    options: async ({ form }) => {
      await saveRelayOptions(form.string("accountId"), {
        discordName: form.string("discordName"),
        galaxyName: form.string("galaxyName"),
        ignoreNicks: splitNicks(form.string("ignoreNicks")),
        ignoreMessages: form.string("ignoreMessages"),
      });
      return RELAY_MESSAGES.optionsSaved;
    },
    delete: async ({ form }) => {
      await deleteAccount(form.string("accountId"));
      return RELAY_MESSAGES.deleted;
    },
  },
});

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
  // Issue 30 A3: a relay connection's new state shows as soon as its live event arrives, not
  // after the clicked Connect/Disconnect's post and the loads after it.
  const liveLinks = useLiveSessions("relay-link");
  const withLive = <A extends (typeof accounts)[number]>(a: A): A => {
    const view = newerSession(liveLinks, a.accountId, a.session.since);
    if (!view) return a;
    const state = relayAccountState(view);
    return {
      ...a,
      session: view as unknown as A["session"],
      state,
      isConnected: state === "connected",
      desired: view.desired === "run" ? "connected" : "disconnected",
      error: view.actual === "failed" ? view.error : null,
    };
  };

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
                <AccountRow key={a.accountId} account={withLive(a)} />
              ))}
            </ul>
          </Flex>
        )}
      </Box>
    </Box>
  );
}
