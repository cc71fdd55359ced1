import { Button } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { ReloadIcon } from "~/components/ui/icons";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useRefreshOutcomeToast } from "~/components/ui/refresh-outcome";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { CharactersData } from "~/routes/_app+/_characters+/characters";

/**
 * The stalker card's Refresh (spec 2 §4 "Manual Refresh reloads pictures, statuses and stats
 * for all users with a force flag"). With JavaScript it is disabled while a refresh runs (the
 * server would start none: one job id), the page follows the job through live events and this
 * button toasts its outcome when it ends. Without JavaScript it stays enabled (the page does
 * not update by itself): a post lands on `?refreshing=1` — following the running job if there
 * is one — which reloads itself until the job ends and then shows the outcome as a flash toast.
 */
export function CharactersRefreshButton({ progress, notice }: Pick<CharactersData, "progress" | "notice">) {
  const fetcher = useFetcher({ key: "characters-refresh" });
  const hydrated = useHydrated();
  const running = !!progress?.running;
  useRefreshOutcomeToast(running || fetcher.state !== "idle", progress?.finishedAt, notice);
  return (
    <fetcher.Form method="post" action="/characters">
      <HiddenFields fields={{ intent: "refresh" }} />
      <NoJsRedirect />
      <Button type="submit" variant="soft" loading={fetcher.state !== "idle"} disabled={hydrated && running}>
        <ReloadIcon className={running ? "gt-spin" : undefined} /> Refresh
      </Button>
    </fetcher.Form>
  );
}
