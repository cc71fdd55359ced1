import { LOG_SOURCES, LOG_TYPES } from "#api/logs";
import type { LogSource, LogType } from "~/db/schema/logs";

/** Spec 2 §9 "Logs auto-refresh: every 5 s". */
export const LOGS_AUTO_REFRESH_SECONDS = 5;

/**
 * The /logs page's list state lives in the URL (CONVENTIONS rule 6):
 *   type, source   one of the spec's values, absent = all
 *   showCleared=1  include entries already cleared (hidden by default)
 *   auto=1         auto-refresh every 5 s
 *   confirm=cleanup  the no-JavaScript "Clean Old Logs" confirmation
 * Unknown values are ignored rather than refused: a stale bookmark still opens the page.
 */
export type LogsPageParams = {
  type?: LogType;
  source?: LogSource;
  showCleared: boolean;
  auto: boolean;
  confirmCleanup: boolean;
};

export function parseLogsPageParams(search: URLSearchParams): LogsPageParams {
  const type = search.get("type");
  const source = search.get("source");
  return {
    type: (LOG_TYPES as readonly string[]).includes(type ?? "") ? (type as LogType) : undefined,
    source: (LOG_SOURCES as readonly string[]).includes(source ?? "") ? (source as LogSource) : undefined,
    showCleared: search.get("showCleared") === "1",
    auto: search.get("auto") === "1",
    confirmCleanup: search.get("confirm") === "cleanup",
  };
}

/** The page URL for a state (only non-default parameters, in a stable order). */
export function logsPageUrl(p: Partial<LogsPageParams>): string {
  const search = new URLSearchParams();
  if (p.type) search.set("type", p.type);
  if (p.source) search.set("source", p.source);
  if (p.showCleared) search.set("showCleared", "1");
  if (p.auto) search.set("auto", "1");
  if (p.confirmCleanup) search.set("confirm", "cleanup");
  const query = search.toString();
  return `/logs${query ? `?${query}` : ""}`;
}
