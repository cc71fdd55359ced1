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

/** Newest entries GET /api/logs and the /logs page return. */
export const LOG_LIST_LIMIT = 500;

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
