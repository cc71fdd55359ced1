import { LOG_SOURCES, LOG_TYPES, parseLogCursor } from "#api/logs";
import type { LogSource, LogType } from "~/db/schema/logs";
import { buildSearchParams, flag, oneOf, parseSearchParams, searchString, type Field } from "~/utils/search-params";
import { SEARCH_MAX } from "~/utils/list-search";

/** Spec 2 §9 "Logs auto-refresh: every 5 s": without JavaScript (a refresh meta), and the page's poll while live updates are down. */
export const LOGS_AUTO_REFRESH_SECONDS = 5;

/**
 * The /logs page's list state lives in the URL (CONVENTIONS rule 6, app/utils/search-params.ts):
 *   type, source   one of the spec's values, absent = all
 *   showCleared=1  include entries already cleared (hidden by default)
 *   auto=1         auto-refresh every 5 s
 *   account=<id>   entries about one Galaxy account (`details.accountId`): a session's "System Logs" link
 *   q=<words>      issue 30 A5: words in the message or the start of an account id (at most 100 characters)
 *   from, to       issue 30 A5: a range of UTC days (YYYY-MM-DD, both included)
 *   jump=<day>     issue 30 A5: "Go to date": the loader answers with the page that starts at the end of that UTC day (`before`)
 *   before=<cursor>  the page of entries older than this one ("Older"; api/logs.ts LogCursor)
 *   after=<cursor>   the page of entries newer than this one ("Newer")
 *   confirm=cleanup  the no-JavaScript "Clean Old Logs" confirmation
 * Unknown values are ignored rather than refused: a stale bookmark still opens the page.
 */
/** An account id (1-20 digits, or "-" for an object), undefined otherwise. */
function accountId(): Field<string | undefined> {
  return { read: (v) => (v.length === 1 && /^-?\d{1,20}$/.test(v[0]!) ? v[0] : undefined), write: (v) => (v ? [v] : []) };
}

/** Search words: trimmed, at most SEARCH_MAX characters ("" = none). */
function words(): Field<string> {
  return { read: (v) => (v.length === 1 ? v[0]!.trim().slice(0, SEARCH_MAX) : ""), write: (v) => (v ? [v] : []) };
}

/** A UTC day `YYYY-MM-DD` that exists, undefined otherwise. */
export function utcDay(text: string | undefined): string | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const at = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text ? text : undefined;
}

/** The instant a UTC day starts, and the next one (`to` is exclusive in the model). */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}
export function dayEnd(day: string): Date {
  return new Date(dayStart(day).getTime() + 86_400_000);
}

function day(): Field<string | undefined> {
  return { read: (v) => (v.length === 1 ? utcDay(v[0]) : undefined), write: (v) => (v ? [v] : []) };
}

/** A page cursor (`<timestamp>_<id>`), undefined otherwise: a broken link opens the newest page. */
function cursor(): Field<string | undefined> {
  return { read: (v) => (v.length === 1 && parseLogCursor(v[0]) ? v[0] : undefined), write: (v) => (v ? [v] : []) };
}

const LOGS_PARAMS = {
  type: oneOf(LOG_TYPES),
  source: oneOf(LOG_SOURCES),
  account: accountId(),
  q: words(),
  from: day(),
  to: day(),
  showCleared: flag(),
  auto: flag(),
  before: cursor(),
  after: cursor(),
  jump: day(),
  confirm: oneOf(["cleanup"] as const),
};

export type LogsPageParams = {
  type?: LogType;
  source?: LogSource;
  account?: string;
  /** Search words ("" = none). */
  q: string;
  /** First and last UTC day shown (both included). */
  from?: string;
  to?: string;
  showCleared: boolean;
  auto: boolean;
  /** Paging: at most one of the two (before wins). */
  before?: string;
  after?: string;
  /** "Go to date" (answered with a redirect to the page of `before` that day's end). */
  jump?: string;
  confirmCleanup: boolean;
};

export function parseLogsPageParams(search: URLSearchParams): LogsPageParams {
  const { confirm, ...p } = parseSearchParams(LOGS_PARAMS, search);
  // A range typed backwards means the same days.
  const [from, to] = p.from && p.to && p.from > p.to ? [p.to, p.from] : [p.from, p.to];
  return { ...p, from, to, after: p.before ? undefined : p.after, confirmCleanup: confirm === "cleanup" };
}

/** The page URL for a state (only non-default parameters, in a stable order). */
export function logsPageUrl({ confirmCleanup, ...p }: Partial<LogsPageParams>): string {
  return `/logs${searchString(buildSearchParams(LOGS_PARAMS, { ...p, confirm: confirmCleanup ? "cleanup" : undefined }))}`;
}
