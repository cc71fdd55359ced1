/**
 * Live page updates (issue 18 "Live pages"; docs/live.md). Client-safe: no server imports.
 *
 *   GET /api/events   text/event-stream, one per browser tab: every change to a session, a
 *                     refresh, a cycle or a section's data, as it happens in any web or worker
 *                     process (fed through Redis). Events:
 *                       `event: ready`   the stream is up (a page revalidates once: it may have
 *                                        missed changes while it was connecting). Opened with
 *                                        `?since=N` (the sequence its page was rendered at), the
 *                                        first says `missed`: false only when nothing was
 *                                        published since, and the page skips that revalidation
 *                       `event: live`    data = LiveEvent (JSON)
 *                       `event: offline` Redis is away: changes cannot reach the stream; pages
 *                                        fall back to polling until the next `ready`
 *
 * A page names what it shows as patterns (`handle.live` / `useLive()`): "topic",
 * "topic:scope" or "topic:scope:key", "*" matching any one part.
 */

export type LiveTopic =
  /** A background session changed (scope = purpose, key = account id; data = its SessionView). */
  | "session"
  /** A bulk refresh moved (scope = "bowling" | "characters"). */
  | "refresh"
  /** Collections (scope = operator id): Auto cycle steps, the activity log, the screen state. */
  | "collections"
  /** GalaCord rows that are not sessions (saved accounts, channels). */
  | "galacord"
  /** All Characters data (users, categories, details). */
  | "characters"
  /** Trading Planets data (sequences, ads, custom planets). */
  | "trading"
  /** System Logs got new entries, or entries were cleared or deleted. */
  | "logs"
  /** Exchange Rates changed (any rate: added, edited, enabled or disabled, deleted, imported, restored). */
  | "rates"
  /** The audit trail got an entry. */
  | "audit"
  /** A worker was lost (its beat expired; issue 29): data = { lost: ids, sessions: count }. The header re-reads its counts. */
  | "workers"
  /** A session command was answered (key = its id): the request waiting for it reads the answer. Server-side only: never sent to a browser. */
  | "command";

export type LiveEvent = {
  topic: LiveTopic;
  scope?: string;
  key?: string;
  /** Milliseconds since the epoch when the change was published. */
  at: number;
  data?: unknown;
};

export const LIVE_EVENTS_PATH = "/api/events";

/** How long a page waits between two revalidations caused by live events. */
export const LIVE_THROTTLE_MS = 250;

/** Does `event` match any of `patterns`? */
export function liveMatches(event: Pick<LiveEvent, "topic" | "scope" | "key">, patterns: readonly string[]): boolean {
  const parts = [event.topic, event.scope ?? "", event.key ?? ""];
  return patterns.some((pattern) => {
    const want = pattern.split(":");
    return want.every((w, i) => w === "*" || w === parts[i]);
  });
}
