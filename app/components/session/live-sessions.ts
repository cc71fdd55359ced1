import { useState } from "react";
import type { SessionPurpose, SessionView } from "#api/sessions";
import { useLiveEvent } from "~/components/live/live";

/**
 * Issue 30 A3: a click shows the new state as soon as the server has it. Every session write is
 * published with its `SessionView` (docs/live.md, topic `session`); a page used to wait for its
 * loaders to run again before showing it, and a fetcher's own post held those loads back until
 * its action and the revalidation after it were done (1.3–2.3 s for a stalker Stop). This keeps
 * the latest view each live event carried, per key, so a screen can show it at once.
 *
 * The page's loader data stays the base: `newerSession` picks the event's view only when it is
 * newer than what the loader read (`since`, when the state last changed), so a reload that
 * already has the change wins, and an event from before the last load never undoes it.
 */
export function useLiveSessions(purpose: SessionPurpose): ReadonlyMap<string, SessionView> {
  const [views, setViews] = useState<ReadonlyMap<string, SessionView>>(() => new Map());
  useLiveEvent([`session:${purpose}`], (event) => {
    const view = event.data as SessionView | undefined;
    if (!event.key || !view || typeof view.since !== "string") return;
    setViews((prev) => new Map(prev).set(event.key!, view));
  });
  return views;
}

/** The live event's view of `key` when it is newer than the loader's (`loadedSince`, null: the loader saw no session), else undefined. */
export function newerSession(
  views: ReadonlyMap<string, SessionView>,
  key: string | null | undefined,
  loadedSince: string | null | undefined,
): SessionView | undefined {
  const view = key ? views.get(key) : undefined;
  if (!view) return undefined;
  return !loadedSince || view.since > loadedSince ? view : undefined;
}
