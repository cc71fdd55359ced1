import { Button, Callout, Flex, Spinner, Text } from "@radix-ui/themes";
import { Link, useFetcher } from "@remix-run/react";
import { RELAY_ERRORS, type BotStatus } from "#api/galacord";
import { sessionLogsUrl } from "#api/sessions";
import { SessionDetail } from "~/components/session/session-detail";
import { ExclamationTriangleIcon } from "~/components/ui/icons";
import { formText, SECTION_PATH } from "./galacord-view";

/** The bot as the loader gives it (no session when the status could not be read). */
export type ShownBotStatus = Omit<BotStatus, "session"> & { session: BotStatus["session"] | null };

/** The Start/Stop fetcher, shared by the header's control and the notice below it. */
const BOT_FETCHER_KEY = "galacord-bot";

/** What the screen shows of the bot: the loader's state, or the pressed Start/Stop until it is answered. */
function useBotShown(status: ShownBotStatus) {
  const botFetcher = useFetcher({ key: BOT_FETCHER_KEY });
  const pendingBot = botFetcher.state !== "idle" ? formText(botFetcher.formData, "intent") : "";
  // Starting, from the click until Discord answers: never "Stopped" in between.
  const shown = pendingBot === "bot-start" ? "starting" : pendingBot === "bot-stop" ? "stopped" : status.state;
  // Issue 29: a bot no worker holds (its worker lost, none running) or one waiting to retry is
  // not "Starting": one state, with the truth in the same words as every screen.
  const waiting = !pendingBot && (shown === "waiting" || shown === "retrying") ? shown : null;
  return { botFetcher, pendingBot, shown, waiting, running: shown !== "stopped" && shown !== "error" };
}

/** Spec 2 §2 "a status dot Running/Stopped with the active connection count" (a live region). */
export function BotStatusDot({ status }: { status: ShownBotStatus }) {
  const { shown, waiting } = useBotShown(status);
  return (
    <Flex align="center" gap="2" role="status" aria-live="polite" className="gt-bot-status">
      <span className={`gt-status-dot ${shown === "running" ? "gt-status-dot-on" : shown === "starting" ? "gt-status-dot-starting" : ""}`} aria-hidden />
      <Text size="2" weight="medium" data-testid="bot-state" data-phase={status.session?.phase}>
        {waiting === "waiting"
          ? status.stateText
          : waiting === "retrying"
            ? "Retrying"
            : shown === "running"
              ? "Running"
              : shown === "starting"
                ? "Starting"
                : "Stopped"}
      </Text>
      <Text size="2" color="gray">
        · {status.connectedChannels} active {status.connectedChannels === 1 ? "connection" : "connections"}
      </Text>
    </Flex>
  );
}

/** Spec 2 §2 "Bot start/stop": a fetcher post (a plain POST without JavaScript), answered by a redirect with the toast. */
export function BotStartStop({ status }: { status: ShownBotStatus }) {
  const { botFetcher, running } = useBotShown(status);
  return (
    <botFetcher.Form method="post" action={SECTION_PATH} preventScrollReset>
      <input type="hidden" name="intent" value={running ? "bot-stop" : "bot-start"} />
      <Button type="submit" color={running ? "red" : "green"} variant="soft">
        {running ? "Stop" : "Start"}
      </Button>
    </botFetcher.Form>
  );
}

/** Spec 2 §2 'A bot error is displayed as "Bot Error"'; while starting, the login under way; else the bot's session. */
export function BotNotice({ status }: { status: ShownBotStatus }) {
  const { pendingBot, shown } = useBotShown(status);
  if (status.error) {
    return (
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
    );
  }
  if (shown === "starting") {
    return (
      <Flex as="div" direction="column" mb="3" gap="1" data-testid="bot-starting">
        <Flex align="center" gap="2">
          <Spinner size="1" />
          <Text size="2" color="gray">
            Logging in to Discord…
          </Text>
        </Flex>
        {status.session && !pendingBot ? <SessionDetail session={status.session} size="2" /> : null}
      </Flex>
    );
  }
  return status.session && !pendingBot ? <SessionDetail session={status.session} size="2" /> : null;
}
