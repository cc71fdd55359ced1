import { Flex, IconButton, Text } from "@radix-ui/themes";
import { Hint } from "~/components/ui/hint";
import { useFetcher } from "@remix-run/react";
import { ReloadIcon } from "~/components/ui/icons";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useRefreshOutcomeToast } from "~/components/ui/refresh-outcome";
import { RelativeTime } from "~/components/ui/relative-time";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import type { BowlingData } from "~/routes/_app+/_bowling-bots+/gifts";
import { LAST_FETCHED_TEXTS } from "./bowling-view";

/**
 * The header refresh control (spec 1 §2, §4): time since the last fetch — relative, the
 * absolute time on hover; "Loading..." while a refresh runs, "???" when unknown — beside a
 * ghost icon button with the tooltip "Click to refresh data", disabled with a spinning icon
 * while refreshing (so a click then is ignored; the server also starts one job only).
 *
 * With JavaScript the page follows the job through live events (BowlingScreen's useLive) and
 * toasts the outcome the server worded (`notice`: §8's success or failure, or the warning
 * naming the failed accounts); without, the action redirects to `?refreshing=1`, which
 * reloads itself until the job ends (see BowlingScreen).
 */
export function RefreshControl({ lastFetched, progress, notice }: Pick<BowlingData, "lastFetched" | "progress" | "notice">) {
  const fetcher = useFetcher({ key: "bowling-refresh" });
  const hydrated = useHydrated();
  // Refreshing writes the fetched data: not a viewer's (issue 21); the time since the last fetch stays.
  const canWrite = useCanWrite();
  const refreshing = !!progress?.running || fetcher.state !== "idle";
  useRefreshOutcomeToast(refreshing, progress?.finishedAt, notice);

  // After a failed refresh two times matter; each says what it is (issue 30 A7).
  const lastTryFailed = !refreshing && progress?.outcome === "failure" && progress.finishedAt ? progress.finishedAt : null;
  const label = refreshing ? (
    <Text size="2" color="gray" data-testid="last-fetched">
      {LAST_FETCHED_TEXTS.loading}
    </Text>
  ) : lastTryFailed ? (
    <Text size="2" color="gray" data-testid="last-fetched">
      {LAST_FETCHED_TEXTS.lastSuccess} {lastFetched ? <RelativeTime value={lastFetched} /> : LAST_FETCHED_TEXTS.unknown}
      {" · "}
      <Text color="red">
        {LAST_FETCHED_TEXTS.lastTryFailed} <RelativeTime value={lastTryFailed} />
      </Text>
    </Text>
  ) : lastFetched ? (
    <Text size="2" color="gray" data-testid="last-fetched">
      <RelativeTime value={lastFetched} />
    </Text>
  ) : (
    <Text size="2" color="gray" data-testid="last-fetched" title="Never fetched">
      {LAST_FETCHED_TEXTS.unknown}
    </Text>
  );

  const button = (
    <IconButton type="submit" variant="ghost" disabled={refreshing} aria-label="Click to refresh data" title={hydrated ? undefined : "Click to refresh data"}>
      <ReloadIcon className={refreshing ? "gt-spin" : undefined} aria-hidden="true" />
    </IconButton>
  );
  return (
    <Flex align="center" gap="3" data-testid="refresh-control" data-refreshing={refreshing}>
      {label}
      {canWrite ? (
        <fetcher.Form
          method="post"
          action="/gifts"
          onSubmit={(e) => {
            if (refreshing) e.preventDefault();
          }}
        >
          <HiddenFields fields={{ intent: "refresh" }} />
          <NoJsRedirect />
          <Hint content="Click to refresh data">{button}</Hint>
        </fetcher.Form>
      ) : null}
    </Flex>
  );
}
