import { LOG_SOURCES, LOG_TYPES, parseLogCursor } from "#api/logs";
import type { LogSource, LogType } from "~/db/schema/logs";
import { buildSearchParams, flag, oneOf, parseSearchParams, searchString, type Field } from "~/utils/search-params";

/** Spec 2 §9 "Logs auto-refresh: every 5 s". */
export const LOGS_AUTO_REFRESH_SECONDS = 5;

/**
 * The /logs page's list state lives in the URL (CONVENTIONS rule 6, app/utils/search-params.ts):
 *   type, source   one of the spec's values, absent = all
 *   showCleared=1  include entries already cleared (hidden by default)
 *   auto=1         auto-refresh every 5 s
 *   account=<id>   entries about one Galaxy account (`details.accountId`): a session's "System Logs" link
 *   before=<cursor>  the page of entries older than this one ("Older"; api/logs.ts LogCursor)
 *   after=<cursor>   the page of entries newer than this one ("Newer")
 *   confirm=cleanup  the no-JavaScript "Clean Old Logs" confirmation
 * Unknown values are ignored rather than refused: a stale bookmark still opens the page.
 */
/** An account id (1-20 digits, or "-" for an object), undefined otherwise. */
function accountId(): Field<string | undefined> {
  return { read: (v) => (v.length === 1 && /^-?\d{1,20}$/.test(v[0]!) ? v[0] : undefined), write: (v) => (v ? [v] : []) };
}

/** A page cursor (`<timestamp>_<id>`), undefined otherwise: a broken link opens the newest page. */
function cursor(): Field<string | undefined> {
  return { read: (v) => (v.length === 1 && parseLogCursor(v[0]) ? v[0] : undefined), write: (v) => (v ? [v] : []) };
}

const LOGS_PARAMS = {
  type: oneOf(LOG_TYPES),
  source: oneOf(LOG_SOURCES),
  account: accountId(),
  showCleared: flag(),
  auto: flag(),
  before: cursor(),
  after: cursor(),
  confirm: oneOf(["cleanup"] as const),
};

export type LogsPageParams = {
  type?: LogType;
  source?: LogSource;
  account?: string;
  showCleared: boolean;
  auto: boolean;
  /** Paging: at most one of the two (before wins). */
  before?: string;
  after?: string;
  confirmCleanup: boolean;
};

export function parseLogsPageParams(search: URLSearchParams): LogsPageParams {
  const { confirm, ...p } = parseSearchParams(LOGS_PARAMS, search);
  return { ...p, after: p.before ? undefined : p.after, confirmCleanup: confirm === "cleanup" };
}

/** The page URL for a state (only non-default parameters, in a stable order). */
export function logsPageUrl({ confirmCleanup, ...p }: Partial<LogsPageParams>): string {
  return `/logs${searchString(buildSearchParams(LOGS_PARAMS, { ...p, confirm: confirmCleanup ? "cleanup" : undefined }))}`;
}
