import { Badge, Box, Text } from "@radix-ui/themes";
import { useEffect, useRef } from "react";
import { nounFor } from "~/utils/plural";
import type { RefreshNotice, RefreshProgress } from "~/utils/refresh-outcome";
import { RelativeTime } from "./relative-time";
import { toast } from "./toast";

/**
 * How a bulk refresh tells its outcome (issue 18 item 5; CONVENTIONS rule 17), shared by
 * Bowling Bots and All Characters: the progress while it runs, the last outcome under it
 * (stored, so a reload and a no-JavaScript page show it too), a toast when a refresh this page
 * watched ends, and the stale mark of a row that keeps its last known data.
 */

const COLOR = { success: "green", warning: "amber", error: "red" } as const;

/**
 * Toasts the notice of a refresh this page saw running (or started: `refreshing` includes the
 * click's pending post) once it ends. A page opened after the end only shows the line.
 */
export function useRefreshOutcomeToast(refreshing: boolean, finishedAt: string | null | undefined, notice: RefreshNotice | null) {
  const watching = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (refreshing) {
      if (watching.current === undefined) watching.current = finishedAt ?? null;
      return;
    }
    if (watching.current === undefined || !finishedAt || finishedAt === watching.current || !notice) return;
    watching.current = undefined;
    const options = notice.description ? { description: notice.description } : undefined;
    if (notice.type === "success") toast.success(notice.message, options);
    else if (notice.type === "warning") toast.warning(notice.message, options);
    else toast.error(notice.message, options);
  }, [refreshing, finishedAt, notice]);
}

/**
 * "Refreshing n of N {noun}, f failed" with a progress bar while running; afterwards the last
 * outcome with its reason and time (the success line only when `showSuccess`).
 */
export function RefreshStatus({
  progress,
  notice,
  noun,
  showSuccess = false,
}: {
  progress: RefreshProgress | null;
  notice: RefreshNotice | null;
  noun: string;
  showSuccess?: boolean;
}) {
  if (progress?.running) {
    return (
      <Box mb="3" data-testid="refresh-progress" role="status">
        <Text size="2">
          Refreshing {progress.done} of {progress.total} {nounFor(progress.total, noun)}
          {progress.failed ? `, ${progress.failed} failed` : ""}
        </Text>
        <progress
          max={Math.max(progress.total, 1)}
          value={progress.done}
          style={{ display: "block", width: "100%", maxWidth: 360 }}
          aria-label="Refresh progress"
        />
      </Box>
    );
  }
  if (!notice || (notice.type === "success" && !showSuccess)) return null;
  return (
    <Text as="p" size="1" color={COLOR[notice.type]} mb="3" data-testid="refresh-outcome" data-outcome={progress?.outcome ?? undefined}>
      Last refresh: {notice.message}
      {notice.description ? ` (${notice.description})` : ""}
      {progress?.finishedAt ? (
        <>
          {" · "}
          <RelativeTime value={progress.finishedAt} />
        </>
      ) : null}
    </Text>
  );
}

/**
 * A row that shows last known data because the last refresh failed for it: "stale · 2h ago",
 * the absolute time on hover of the time, the platform's reason on hover of the mark.
 */
export function StaleMark({ stale }: { stale: { since: string | null; reason: string } }) {
  return (
    <Badge color="amber" variant="soft" size="1" data-testid="stale" title={`Last refresh failed: ${stale.reason}`}>
      stale · {stale.since ? <RelativeTime value={stale.since} /> : "age unknown"}
      <span className="gt-visually-hidden"> (last refresh failed: {stale.reason})</span>
    </Badge>
  );
}
