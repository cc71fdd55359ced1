import { Flex, IconButton, Text, Tooltip } from "@radix-ui/themes";
import { useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ReloadIcon } from "~/components/ui/icons";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { RelativeTime } from "~/components/ui/relative-time";
import { toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { BowlingData } from "~/routes/_app+/_bowling-bots+/gifts";
import { LAST_FETCHED_TEXTS, REFRESH_POLL_MS } from "./bowling-view";

/** Spec 1 §8 "Toasts, bowling" (the server's REFRESH_TEXTS; repeated here to keep server code out of the bundle). */
const DONE = { success: "Data refreshed successfully", failure: "Failed to refresh data" } as const;

/**
 * The header refresh control (spec 1 §2, §4): time since the last fetch — relative, the
 * absolute time on hover; "Loading..." while a refresh runs, "???" when unknown — beside a
 * ghost icon button with the tooltip "Click to refresh data", disabled with a spinning icon
 * while refreshing (so a click then is ignored; the server also starts one job only).
 *
 * With JavaScript the page re-reads every second while the job runs and toasts its outcome;
 * without, the action redirects to `?refreshing=1`, which reloads itself (see BowlingScreen).
 */
export function RefreshControl({ lastFetched, progress }: Pick<BowlingData, "lastFetched" | "progress">) {
  const fetcher = useFetcher({ key: "bowling-refresh" });
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const refreshing = !!progress?.running || fetcher.state !== "idle";

  // Poll while the job runs: the rows fill in as results are stored.
  useEffect(() => {
    if (!hydrated || !refreshing) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, REFRESH_POLL_MS);
    return () => clearInterval(timer);
  }, [hydrated, refreshing, revalidator]);

  // Toast the outcome of a refresh this page saw running (or started) once it ends.
  const watching = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (refreshing) {
      if (watching.current === undefined) watching.current = progress?.finishedAt ?? null;
      return;
    }
    if (watching.current !== undefined && progress?.finishedAt && progress.finishedAt !== watching.current && progress.outcome) {
      if (progress.outcome === "success") toast.success(DONE.success);
      else toast.error(DONE.failure);
      watching.current = undefined;
    }
  }, [refreshing, progress?.finishedAt, progress?.outcome]);

  const label = refreshing ? (
    <Text size="2" color="gray" data-testid="last-fetched">
      {LAST_FETCHED_TEXTS.loading}
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
      <fetcher.Form
        method="post"
        action="/gifts"
        onSubmit={(e) => {
          if (refreshing) e.preventDefault();
        }}
      >
        <HiddenFields fields={{ intent: "refresh" }} />
        <NoJsRedirect />
        {hydrated ? <Tooltip content="Click to refresh data">{button}</Tooltip> : button}
      </fetcher.Form>
    </Flex>
  );
}
