/**
 * The /api contract of System Logs (spec 2 §7 "Logs"), shared by the resource routes and
 * the /logs page. Client-safe: no server imports.
 *
 *   GET    /api/logs?type&source&cleared&account  → { logs: LogDto[] }   newest first, at most 500 (account: details.accountId)
 *   POST   /api/logs/clear/{id}            → { success: true, log } | 404 { error }
 *   DELETE /api/logs/cleanup               → { message: "Deleted N log entries", deletedCount: N }
 *
 * Cleanup removes cleared entries and entries older than LOG_RETENTION_DAYS (default 14);
 * see docs/decisions/0004-log-cleanup.md.
 *
 * No zod here: the /logs page imports these values, and a module-level zod schema would
 * put zod (27 kB gzip) into its first load (bench/first-load.ts). The query schema of
 * GET /api/logs is in api/logs-query.ts.
 */

/** Spec 2 §3 "Logs": type (error, disconnect, debug, info). The table's column type too. */
export const LOG_TYPES = ["error", "disconnect", "debug", "info"] as const;
/** Spec 2 §3 "Logs": source (discord, galaxyAuth, bot, system). */
export const LOG_SOURCES = ["discord", "galaxyAuth", "bot", "system"] as const;
export type LogType = (typeof LOG_TYPES)[number];
export type LogSource = (typeof LOG_SOURCES)[number];

/** Newest entries GET /api/logs returns. */
export const LOG_LIST_LIMIT = 500;

/** Entries on one page of /logs (issue 20: a bounded page; "Older" and "Newer" reach the rest). */
export const LOG_PAGE_SIZE = 50;

/**
 * A place in the list, newest first: an entry's exact timestamp (PostgreSQL keeps
 * microseconds, a JS Date only milliseconds, so it travels as text) and its id, which
 * orders entries of the same instant. In a URL: `2026-11-26T01:02:03.456789Z_<uuid>`.
 */
export type LogCursor = { at: string; id: string };

const CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The cursor a URL parameter names, or undefined for anything else (a stale or edited link opens the newest page). */
export function parseLogCursor(text: string | null | undefined): LogCursor | undefined {
  const m = text ? CURSOR.exec(text) : null;
  if (!m || Number.isNaN(Date.parse(m[1]!))) return undefined;
  return { at: m[1]!, id: m[2]!.toLowerCase() };
}

export function formatLogCursor(cursor: LogCursor): string {
  return `${cursor.at}_${cursor.id}`;
}

export const LOG_ERRORS = {
  notFound: "Log entry not found",
  badType: `Invalid type: use one of ${LOG_TYPES.join(", ")}`,
  badSource: `Invalid source: use one of ${LOG_SOURCES.join(", ")}`,
  badCleared: "Invalid cleared: use true or false",
  loadFailed: "Failed to fetch logs",
  clearFailed: "Failed to clear log entry",
  cleanupFailed: "Failed to clean up logs",
} as const;

/** One entry as /api answers it: string `_id`, ISO `timestamp`. */
export type LogDto = {
  _id: string;
  type: LogType;
  source: LogSource;
  message: string;
  timestamp: string;
  cleared: boolean;
  details: unknown;
};

export function cleanupMessage(deletedCount: number) {
  return `Deleted ${deletedCount} log entries`;
}
