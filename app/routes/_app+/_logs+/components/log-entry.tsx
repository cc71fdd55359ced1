import { useEffect, useState } from "react";
import type { LogDto, LogSource, LogType } from "#api/logs";
import { formatRelative } from "~/components/ui/relative-time";

/** Details as formatted data: JSON, two-space indented. */
export function formatDetails(details: unknown): string | null {
  if (details === null || details === undefined) return null;
  if (typeof details === "string") return details;
  try {
    return JSON.stringify(details, null, 2);
  } catch {
    return String(details);
  }
}

/** Type badge colours: error red, disconnect orange, debug gray, info blue. */
const TYPE_COLOR = { error: "red", disconnect: "orange", debug: "gray", info: "blue" } as const satisfies Record<LogType, string>;
const SOURCE_COLOR = { discord: "iris", galaxyAuth: "cyan", bot: "jade", system: "gray" } as const satisfies Record<LogSource, string>;

/*
 * Rows are plain elements carrying Radix Themes' own classes and accent attributes (what
 * <Card>, <Badge> and <Button> render), not the components: a page renders up to
 * LOG_PAGE_SIZE of them, and the components' prop extraction was a quarter of the server's
 * render time (issue 20). Same look, same tokens.
 */
const BADGE = "rt-reset rt-Badge rt-r-size-1";

/**
 * "Now" for the relative times of a whole list, ticking every 30 s after hydration; null
 * on the server and during hydration, so the first render matches the server's HTML.
 */
export function useListNow(): Date | null {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * One System Logs entry (spec 2 "Logs page": message, time, type badge, source badge,
 * a Clear button, details as formatted data). Clear is a submit button of the list's one
 * form (`name="id"`): the list posts it through a fetcher with JavaScript and as a plain
 * form post without.
 */
export function LogEntryRow({ log, cleared, now, canClear = true }: { log: LogDto; cleared: boolean; now: Date | null; canClear?: boolean }) {
  const details = formatDetails(log.details);
  const date = new Date(log.timestamp);
  const messageId = `log-${log._id}-message`;
  return (
    <li className="rt-reset rt-BaseCard rt-Card rt-r-size-2 rt-variant-surface gt-log-entry" data-log-id={log._id} data-cleared={cleared ? "true" : "false"}>
      <div className="gt-log-head">
        <span className={`${BADGE} rt-variant-soft`} data-accent-color={TYPE_COLOR[log.type]} data-log-type={log.type}>
          {log.type}
        </span>
        <span className={`${BADGE} rt-variant-outline`} data-accent-color={SOURCE_COLOR[log.source]} data-log-source={log.source}>
          {log.source}
        </span>
        {cleared ? (
          <span className={`${BADGE} rt-variant-surface`} data-accent-color="gray">
            Cleared
          </span>
        ) : null}
        <time
          className="rt-Text rt-r-size-1 gt-log-time"
          data-accent-color="gray"
          dateTime={log.timestamp}
          title={now ? date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" }) : `${log.timestamp.slice(0, 19).replace("T", " ")} UTC`}
          suppressHydrationWarning
        >
          {formatRelative(date, now ?? new Date())}
        </time>
        {cleared || !canClear ? null : (
          <button
            type="submit"
            name="id"
            value={log._id}
            className="rt-reset rt-BaseButton rt-r-size-1 rt-variant-soft rt-Button gt-touch gt-log-clear"
            data-accent-color="gray"
            aria-describedby={messageId}
          >
            Clear
          </button>
        )}
      </div>
      <p className="rt-Text rt-r-size-2 gt-log-message" id={messageId}>
        {log.message}
      </p>
      {details ? (
        <pre className="gt-log-details" aria-label="Details">
          {details}
        </pre>
      ) : null}
    </li>
  );
}
