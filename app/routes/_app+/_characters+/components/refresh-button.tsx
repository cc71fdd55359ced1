import { Button } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { ReloadIcon } from "~/components/ui/icons";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useRefreshOutcomeToast } from "~/components/ui/refresh-outcome";
import type { CharactersData } from "~/routes/_app+/_characters+/characters";

/**
 * The stalker card's Refresh (spec 2 §4 "Manual Refresh reloads pictures, statuses and stats
 * for all users with a force flag"). Disabled while a refresh runs (the server would start
 * none: one job id). With JavaScript the page follows the job through live events and this
 * button toasts its outcome when it ends; without, the post lands on `?refreshing=1`, which
 * reloads itself until the job ends and then shows the outcome as a flash toast.
 */
export function CharactersRefreshButton({ progress, notice }: Pick<CharactersData, "progress" | "notice">) {
  const fetcher = useFetcher({ key: "characters-refresh" });
  const running = !!progress?.running;
  useRefreshOutcomeToast(running || fetcher.state !== "idle", progress?.finishedAt, notice);
  return (
    <fetcher.Form method="post" action="/characters">
      <HiddenFields fields={{ intent: "refresh" }} />
      <NoJsRedirect />
      <Button type="submit" variant="soft" loading={fetcher.state !== "idle"} disabled={running}>
        <ReloadIcon className={running ? "gt-spin" : undefined} /> Refresh
      </Button>
    </fetcher.Form>
  );
}
