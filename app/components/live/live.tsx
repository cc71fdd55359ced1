import { useFetchers, useNavigation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { createContext, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from "react";
import type { DegradedEvent } from "#api/dependencies";
import { LIVE_EVENTS_PATH, LIVE_THROTTLE_MS, liveMatches, type LiveEvent } from "#api/live";
import { submissionsInFlight } from "~/components/ui/submit-failure";
import { remixRouter } from "~/components/ui/remix-router";

/**
 * Live pages (issue 18; docs/live.md): ONE EventSource per tab (`/api/events`), opened by the
 * app shell. A page says which changes it shows (`useLive(["session:stalker", …])`); a matching
 * event revalidates its loaders at once (throttled, never while a form is being sent or a page
 * loads: a racing revalidation could take the action's flash toast). While the stream is down
 * (no JavaScript never gets here; Redis away, server restarting) a page that asks for it polls
 * every `fallbackMs`; when the stream is back it revalidates once for what it missed.
 */

export type LiveStatus = "connecting" | "up" | "offline";
type Listener = (event: LiveEvent) => void;

/** How long a tab waits before opening its stream again after the server refused it (a 503 while the database is down). */
export const LIVE_REOPEN_MS = 3_000;
const HEALTHY: DegradedEvent = { down: [], messages: [], at: 0 };

class LiveHub {
  status: LiveStatus = "connecting";
  #source: EventSource | null = null;
  /** The live bus's sequence the page was rendered at (the root loader's `liveSeq`), if known. */
  readonly #since: number | null;
  #readySeen = false;

  constructor(since: number | null) {
    this.#since = since;
  }
  #listeners = new Set<Listener>();
  #statusListeners = new Set<() => void>();
  /** Bumped on every (re)connection: pages revalidate once for what they missed. */
  epoch = 0;
  /** The server's word on its dependencies (the stream's `degraded` event; decision 0029). */
  degraded: DegradedEvent = HEALTHY;
  #reopen: ReturnType<typeof setTimeout> | null = null;

  open() {
    if (this.#source || typeof EventSource === "undefined") return;
    const source = new EventSource(this.#since === null ? LIVE_EVENTS_PATH : `${LIVE_EVENTS_PATH}?since=${this.#since}`);
    this.#source = source;
    source.addEventListener("ready", (e) => {
      // Pages catch up once on every ready (what they missed while the stream was down), but
      // for the first when the server says nothing was published since the page was rendered:
      // its data is as new as the stream (docs/live.md "The first ready").
      const first = !this.#readySeen;
      this.#readySeen = true;
      if (!first || !nothingMissed((e as MessageEvent<string>).data)) {
        this.epoch++;
        if (this.status === "up") this.#notify(); // the status does not change: say so for the epoch
      }
      this.#setStatus("up");
    });
    source.addEventListener("offline", () => this.#setStatus("offline"));
    source.addEventListener("degraded", (e) => {
      try {
        this.#setDegraded(JSON.parse((e as MessageEvent<string>).data) as DegradedEvent);
      } catch {
        // a malformed event changes nothing
      }
    });
    source.addEventListener("live", (e) => {
      let event: LiveEvent;
      try {
        event = JSON.parse((e as MessageEvent<string>).data) as LiveEvent;
      } catch {
        return;
      }
      for (const l of this.#listeners) l(event);
    });
    // The browser reconnects by itself (after `retry`); until then the page polls. A stream
    // the server refused (a 503 while the database is down) is not retried by the browser:
    // the tab opens it again itself, so it recovers without a reload.
    source.addEventListener("error", () => {
      this.#setStatus("offline");
      if (source.readyState !== 2 /* CLOSED */ || this.#source !== source || this.#reopen) return;
      this.#source = null;
      this.#reopen = setTimeout(() => {
        this.#reopen = null;
        this.open();
      }, LIVE_REOPEN_MS);
    });
  }

  close() {
    if (this.#reopen) clearTimeout(this.#reopen);
    this.#reopen = null;
    this.#source?.close();
    this.#source = null;
  }

  #setDegraded(event: DegradedEvent) {
    if (event.down.join() === this.degraded.down.join()) return;
    this.degraded = event;
    for (const l of this.#statusListeners) l();
  }

  #setStatus(status: LiveStatus) {
    if (this.status === status) return;
    this.status = status;
    this.#notify();
  }

  #notify() {
    for (const l of this.#statusListeners) l();
  }

  subscribe = (listener: Listener) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  subscribeStatus = (listener: () => void) => {
    this.#statusListeners.add(listener);
    return () => void this.#statusListeners.delete(listener);
  };
}

/** The first ready's word: `{missed: false}` only when the server counted no event since the page's render. */
function nothingMissed(data: string | undefined): boolean {
  try {
    return (JSON.parse(data ?? "") as { missed?: unknown }).missed === false;
  } catch {
    return false;
  }
}

const LiveContext = createContext<LiveHub | null>(null);

/** Opens the tab's one event stream (in the app shell). */
export function LiveProvider({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<{ liveSeq?: number | null }>("root");
  const hub = useRef<LiveHub | null>(null);
  hub.current ??= new LiveHub(typeof root?.liveSeq === "number" ? root.liveSeq : null);
  useEffect(() => {
    const h = hub.current!;
    h.open();
    return () => h.close();
  }, []);
  return <LiveContext.Provider value={hub.current}>{children}</LiveContext.Provider>;
}

const noSubscribe = () => () => {};

/** What the server says is unreachable right now (`down` empty when all is well; on the server too). */
export function useLiveDegraded(): DegradedEvent {
  const hub = useContext(LiveContext);
  return useSyncExternalStore(
    hub?.subscribeStatus ?? noSubscribe,
    () => hub?.degraded ?? HEALTHY,
    () => HEALTHY,
  );
}

/** "up" while changes stream in; "offline" while pages fall back to polling; "connecting" at first (and on the server). */
export function useLiveStatus(): LiveStatus {
  const hub = useContext(LiveContext);
  return useSyncExternalStore(
    hub?.subscribeStatus ?? noSubscribe,
    () => hub?.status ?? "connecting",
    () => "connecting",
  );
}

/** Calls `handler` for every live event matching `patterns` (components that use the event's data). */
export function useLiveEvent(patterns: readonly string[], handler: Listener) {
  const hub = useContext(LiveContext);
  const latest = useRef({ patterns, handler });
  latest.current = { patterns, handler };
  useEffect(() => {
    if (!hub) return;
    return hub.subscribe((event) => {
      if (liveMatches(event, latest.current.patterns)) latest.current.handler(event);
    });
  }, [hub]);
}

export type UseLiveOptions = {
  /** Poll the loaders this often while the stream is down (null: never). */
  fallbackMs?: number | null;
  /** Off: neither events nor polling revalidate (e.g. while a dialog edits the data). */
  enabled?: boolean;
};

/** How soon a change owed while the router or a post was busy (outside any render) is tried again. */
export const LIVE_RECHECK_MS = 200;

/**
 * The router's state read now, not as of the last render: a navigation, revalidation or
 * fetcher started since the last render shows only here, and a revalidation started over it
 * would repeat or cut its loads. Without a router (component tests) nothing waits.
 */
function routerBusy(): boolean {
  const router = remixRouter();
  if (!router) return false;
  const { navigation, revalidation, fetchers } = router.state;
  return navigation.state !== "idle" || revalidation !== "idle" || [...fetchers.values()].some((f) => f.state !== "idle");
}

/**
 * Revalidates the page's loaders when a change matching `patterns` happens anywhere, within
 * ~LIVE_THROTTLE_MS; polls every `fallbackMs` while the stream is down.
 */
export function useLive(patterns: readonly string[], options: UseLiveOptions = {}) {
  const hub = useContext(LiveContext);
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const status = useLiveStatus();
  const enabled = options.enabled ?? true;
  const fallbackMs = options.fallbackMs ?? null;
  const busy = navigation.state !== "idle" || revalidator.state !== "idle" || fetchers.some((f) => f.state !== "idle");

  const state = useRef({
    pending: false,
    /** This hook's revalidation was started and has not completed (see the router watch below). */
    inFlight: false,
    last: 0,
    timer: null as ReturnType<typeof setTimeout> | null,
    busy,
    enabled,
    revalidator,
  });
  state.current.busy = busy;
  state.current.enabled = enabled;
  state.current.revalidator = revalidator;

  const flush = useRef(() => {});
  flush.current = () => {
    const s = state.current;
    // `busy` is as of the last render; a post sent since shows only in the counter, and a
    // load started since only in the router's own state.
    if (!s.pending || !s.enabled || s.busy || s.timer) return;
    if (submissionsInFlight() > 0 || routerBusy()) {
      // Busy in a way no render of this page shows: when it ends, nothing here re-renders with a
      // new `busy`, so look again shortly. Waiting for the next event lost the change when none
      // came (a new character's gifts, loaded once while its Create User post was answered,
      // stayed "not loaded yet" in a CI journey).
      s.timer = setTimeout(() => {
        s.timer = null;
        flush.current();
      }, LIVE_RECHECK_MS);
      return;
    }
    if (typeof document !== "undefined" && document.visibilityState === "hidden") return;
    const wait = s.last + LIVE_THROTTLE_MS - Date.now();
    if (wait > 0) {
      s.timer = setTimeout(() => {
        s.timer = null;
        flush.current();
      }, wait);
      return;
    }
    s.pending = false;
    s.inFlight = true;
    s.last = Date.now();
    s.revalidator.revalidate();
  };

  // A navigation that starts while the revalidation loads cancels it, and loads only the
  // routes whose shouldRevalidate asks for it: a page that keeps its data for URL-only
  // parameters (a dialog closing) then never got the change. Seen in CI: a new character's
  // gifts, loaded by the revalidation the news of them started, lost to the Add User dialog
  // closing 36 ms later, and no further news came. Such a revalidation is owed again once
  // the router is free.
  useEffect(() => {
    const router = remixRouter();
    if (typeof router?.subscribe !== "function") return;
    return router.subscribe(() => {
      const s = state.current;
      if (!s.inFlight) return;
      const { navigation, revalidation } = router.state;
      if (revalidation === "idle") s.inFlight = false;
      else if (navigation.state !== "idle") {
        s.inFlight = false;
        s.pending = true;
      }
    });
  }, []);

  // A change arrived, or the page became free again: revalidate if one is owed.
  useEffect(() => {
    if (!busy) flush.current();
  }, [busy, enabled]);

  useLiveEvent(patterns, () => {
    state.current.pending = true;
    flush.current();
  });

  // The stream came up, or back: catch up once. The first `ready` too, unless the server says
  // nothing was published since the page's render: whatever changed between that render and the
  // stream's first event (a bot that logged in meanwhile) sends no event again (the flaky
  // GalaCord "Running" e2e); the hub bumps the epoch only when something may have been missed.
  const epoch = useSyncExternalStore(
    hub?.subscribeStatus ?? noSubscribe,
    () => hub?.epoch ?? 0,
    () => 0,
  );
  const seenEpoch = useRef(epoch);
  useEffect(() => {
    if (epoch === seenEpoch.current) return;
    seenEpoch.current = epoch;
    state.current.pending = true;
    flush.current();
  }, [epoch]);
  useEffect(() => {
    const s = state.current;
    const onVisible = () => flush.current();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      if (s.timer) clearTimeout(s.timer);
      s.timer = null;
    };
  }, []);

  // The fallback: poll while the stream is not up.
  useEffect(() => {
    if (fallbackMs === null || status === "up" || !enabled) return;
    const timer = setInterval(() => {
      state.current.pending = true;
      flush.current();
    }, fallbackMs);
    return () => clearInterval(timer);
  }, [fallbackMs, status, enabled]);
}
