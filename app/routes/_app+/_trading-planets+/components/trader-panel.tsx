import { Badge, Box, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { traderAtLabel, traderStateLabel, type TraderState, type TraderStatus } from "#api/trading";
import { useLive } from "~/components/live/live";
import { SessionDetail } from "~/components/session/session-detail";
import { SessionPhaseBadge } from "~/components/session/session-phase";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useCanWrite } from "~/components/ui/write-only";
import { countOf } from "~/utils/plural";
import { PAGE_PARAMS, Pager, type ListPage } from "./pager";

/** How often the screen re-reads the traders' states while one runs and the live stream is down. */
export const TRADER_POLL_MS = 2_000;

const COLOR: Record<TraderState, "gray" | "blue" | "green" | "amber" | "red"> = {
  idle: "gray",
  connecting: "blue",
  flying: "blue",
  on_planet: "green",
  posting: "amber",
  error: "red",
};

/**
 * The trading run (issue 11): the characters of type trading, a page at a time (issue 20:
 * started runs first; `traderPage`), each with its state (idle, flying,
 * on planet X, posting, error) and a Start/Stop form (plain POST: works without JavaScript;
 * with it the states follow live, docs/live.md), the reason when it reconnects or failed.
 */
export function TraderPanel({ traders, page, running: runningCount }: { traders: TraderStatus[]; page?: ListPage; running?: number }) {
  const location = useLocation();
  const navigation = useNavigation();
  // Runs started on any page of the panel (component stubs without the count: this page's).
  const started = runningCount ?? traders.filter((t) => t.desired === "run").length;
  const running = started > 0;
  useLive(["session:trader"], { fallbackMs: running ? TRADER_POLL_MS : null });
  const canWrite = useCanWrite();
  const pendingId = navigation.state !== "idle" ? navigation.formData?.get("account_id") : null;

  return (
    <Box asChild>
      <section aria-labelledby="gt-traders-title" className="gt-traders">
        <Heading as="h2" size="4" mb="2" id="gt-traders-title">
          Trading run
        </Heading>
        {page && page.total > 0 ? (
          <Text as="p" size="1" color="gray" mb="2" data-testid="trader-summary">
            {`${started.toLocaleString("en-US")} of ${countOf(page.total, "trading characters")} running`}
          </Text>
        ) : null}
        {traders.length === 0 ? (
          <Text as="p" color="gray" size="2">
            No characters of type trading. Add one on <Link to="/characters">All Characters</Link> to run the sequences.
          </Text>
        ) : (
          <ul className="gt-trader-list" aria-label="Traders">
            {traders.map((t) => {
              const started = t.desired === "run";
              const label = traderStateLabel(t);
              return (
                <li key={t.accountId} data-testid={`trader-${t.accountId}`}>
                  <Card size="1">
                    <Flex align="center" justify="between" gap="2" wrap="wrap">
                      <Flex direction="column" gap="1" minWidth="0">
                        <Text weight="bold" className="gt-trader-nick">
                          {t.nick}
                        </Text>
                        <Flex gap="2" align="center" wrap="wrap">
                          {t.state === "connecting" && (t.phase === "waiting" || t.phase === "retrying") ? (
                            // Issue 29: one state — waiting for a worker (its worker lost) or retrying, not "connecting".
                            <SessionPhaseBadge session={t} />
                          ) : (
                            <Badge color={COLOR[t.state]} data-testid="trader-state" aria-label={`State: ${label}`}>
                              {label}
                            </Badge>
                          )}
                          {started || t.counts.visits ? (
                            <Text size="1" color="gray" data-testid="trader-counts">
                              {`${countOf(t.counts.posts, "posts")} · ${countOf(t.counts.visits, "visits")} · ${countOf(t.counts.replies, "replies")}`}
                            </Text>
                          ) : null}
                        </Flex>
                        {t.at ? (
                          // Issue 30 A7: which sequence and step the run is on.
                          <Text size="1" color="gray" data-testid="trader-at">
                            {traderAtLabel(t.at)}
                          </Text>
                        ) : null}
                        <SessionDetail session={t} />
                      </Flex>
                      {canWrite ? (
                        <Form method="post" action={`${location.pathname}${location.search}`} preventScrollReset discover="none">
                          <HiddenFields fields={{ intent: started ? "trader-stop" : "trader-start", account_id: t.accountId }} />
                          <NoJsRedirect />
                          <Button
                            type="submit"
                            size="1"
                            color={started ? "red" : undefined}
                            variant={started ? "soft" : "solid"}
                            disabled={pendingId === t.accountId}
                          >
                            {started ? "Stop" : "Start"}
                            <span className="gt-visually-hidden">{` ${t.nick}`}</span>
                          </Button>
                        </Form>
                      ) : null}
                    </Flex>
                  </Card>
                </li>
              );
            })}
          </ul>
        )}
        <Pager label="Trading run pages" param={PAGE_PARAMS.traders} of={page} />
      </section>
    </Box>
  );
}
