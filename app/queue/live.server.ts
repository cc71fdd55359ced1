/**
 * The live-events bus (issue 18 "Live pages"; docs/live.md): any process (web or worker)
 * publishes a change on one Redis channel; each web process keeps ONE subscriber and fans
 * the events out to its open event streams (GET /api/events, one per browser tab).
 *
 * Publishing never waits and never fails the caller: a change is already stored in the
 * database when it is published, so a lost event costs only freshness (pages poll while
 * their stream says "offline", and revalidate once when it is back).
 */
import type { Redis } from "ioredis";
import type { LiveEvent, LiveTopic } from "#api/live";
import { remember } from "~/utils/remember.server";
import { createSubscriberConnection, producerConnection, queuePrefix, readyProducer, waitForReady, withTimeout } from "./redis.server";

export const liveChannel = () => `${queuePrefix()}:live`;
/** The bus's sequence: how many events were ever published, counted with each publish (see publishLive). */
export const liveSeqKey = () => `${queuePrefix()}:live:seq`;

/** What travels: the event plus, for per-operator data, whose it is (never sent to other operators). */
export type LiveMessage = LiveEvent & { operatorId?: string };

const outbox = remember("live-outbox", (): { chain: Promise<void>; muted?: boolean } => ({ chain: Promise.resolve() }));

/**
 * This process publishes no live events: `npm start`'s launcher, whose demo seed writes rows
 * before the web process (and its private Redis) exists and while no page is open to be told.
 * Publishing opened a Redis connection there that printed "producer connection … ECONNREFUSED"
 * into the start-up log (issue 30 A8).
 */
export function muteLivePublishing(): void {
  outbox.muted = true;
}

/**
 * Publishes a change (fire and forget). `operatorId` limits delivery to that operator's
 * streams (Collections state is per operator).
 */
export function publishLive(topic: LiveTopic, fields: { scope?: string; key?: string; data?: unknown; operatorId?: string } = {}): void {
  if (outbox.muted) return;
  const message: LiveMessage = { topic, ...fields, at: Date.now() };
  const payload = JSON.stringify(message);
  // One chain per process keeps events in the order they were published; a connection still
  // being made (the first event of a process) is waited for briefly, a dead one is skipped.
  outbox.chain = outbox.chain.then(async () => {
    let conn: Redis;
    try {
      conn = producerConnection();
    } catch {
      return;
    }
    if (conn.status !== "ready" && !(await waitForReady(conn, 500))) return;
    // Counted and sent in one transaction: a stream that read the count after its listener was
    // attached either gets the event or sees the count past what its page was rendered at (liveSeq).
    await conn
      .multi()
      .incr(liveSeqKey())
      .publish(liveChannel(), payload)
      .exec()
      .catch(() => {});
  });
}

/** How long a page render or a stream's start waits for the sequence before doing without it. */
const SEQ_WAIT_MS = 250;

/**
 * The bus's sequence now, or null when this process has no ready Redis connection or Redis
 * does not answer within SEQ_WAIT_MS (never opens a connection, never throws). A document
 * request reads it before its loaders run, so every event counted up to it is in the page's
 * data; the page's stream says whether any was published since (GET /api/events `since`), and
 * the page revalidates on opening only then (docs/live.md "The first ready").
 */
export async function liveSeq(): Promise<number | null> {
  const conn = readyProducer();
  if (!conn) return null;
  try {
    const raw = await withTimeout(conn.get(liveSeqKey()), SEQ_WAIT_MS, "The live sequence");
    if (raw === null) return 0; // nothing published yet
    const n = Number(raw);
    return Number.isSafeInteger(n) && n >= 0 ? n : null;
  } catch {
    return null; // Redis silent or away
  }
}

/** Resolves once every event published so far has been handed to Redis (tests, shutdown). */
export function liveFlushed(): Promise<void> {
  return outbox.chain;
}

type Listener = (message: LiveMessage) => void;
type StatusListener = (up: boolean) => void;
type Bus = { key: string; sub?: Redis; listeners: Set<Listener>; statusListeners: Set<StatusListener>; up: boolean };
const g = remember("live-bus", (): { bus?: Bus } => ({}));

function bus(): Bus {
  const key = liveChannel();
  if (g.bus && g.bus.key !== key) {
    // Tests switch QUEUE_PREFIX within one process.
    g.bus.sub?.disconnect();
    g.bus = undefined;
  }
  g.bus ??= { key, listeners: new Set(), statusListeners: new Set(), up: false };
  return g.bus;
}

function ensureSubscriber(b: Bus) {
  if (b.sub) return;
  const sub = createSubscriberConnection();
  b.sub = sub;
  const setUp = (up: boolean) => {
    if (b.up === up) return;
    b.up = up;
    for (const l of b.statusListeners) l(up);
  };
  sub.on("message", (_channel: string, raw: string) => {
    let message: LiveMessage;
    try {
      message = JSON.parse(raw) as LiveMessage;
    } catch {
      return;
    }
    for (const l of b.listeners) l(message);
  });
  // Up = subscribed: the first SUBSCRIBE is queued until the connection is ready and lands just
  // after "ready", so an event published in between would be missed by whoever trusted "up".
  // ioredis subscribes again by itself after a reconnect ("ready" follows the resubscribe).
  let subscribed = false;
  sub.on("ready", () => subscribed && setUp(true));
  sub.on("close", () => setUp(false));
  sub.on("end", () => setUp(false));
  sub.subscribe(b.key).then(
    () => {
      subscribed = true;
      if (sub.status === "ready") setUp(true);
    },
    () => {},
  );
}

/**
 * Listens to every live event reaching this process. `onStatus(up)` tells when the bus
 * itself goes away (Redis down) and comes back. Returns the unsubscribe function.
 */
export function onLive(listener: Listener, onStatus?: StatusListener): () => void {
  const b = bus();
  ensureSubscriber(b);
  b.listeners.add(listener);
  if (onStatus) b.statusListeners.add(onStatus);
  return () => {
    b.listeners.delete(listener);
    if (onStatus) b.statusListeners.delete(onStatus);
  };
}

/** Only the bus's up/down changes (the degraded-state watcher, app/http/degrade.server.ts): no event listener, so `liveListenerCount().listeners` stays one per stream. */
export function onLiveStatus(onStatus: StatusListener): () => void {
  const b = bus();
  ensureSubscriber(b);
  b.statusListeners.add(onStatus);
  return () => {
    b.statusListeners.delete(onStatus);
  };
}

/**
 * A request that waits for a worker (a session command's answer, a session coming up, a
 * holder letting go, a new user's details) waits for the worker's live event, never on a timer
 * (issue 30 C3): `check()` reads the database now, again on each live event that `matches` and
 * when the bus comes (back) up, and one last time at the deadline (`waitMs`, the bound: an event
 * lost while Redis was away costs only time). Resolves with `check()`'s first answer other than
 * undefined, or undefined when the time ran out; rejects when `check()` throws.
 */
export function awaitLive<T>(matches: (message: LiveMessage) => boolean, check: () => Promise<T | undefined>, waitMs: number): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    let settled = false;
    let running = false;
    let again = false;
    let deadline = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      off();
      fn();
    };
    const run = async (): Promise<void> => {
      if (settled) return;
      if (running) {
        again = true; // one more read once this one is done
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const answer = await check();
          if (answer !== undefined) return settle(() => resolve(answer));
        } while (again && !settled);
      } catch (err) {
        return settle(() => reject(err instanceof Error ? err : new Error(String(err))));
      } finally {
        running = false;
      }
      if (deadline) settle(() => resolve(undefined));
    };
    const off = onLive(
      (message) => {
        if (matches(message)) void run();
      },
      (up) => {
        if (up) void run();
      },
    );
    const timer = setTimeout(() => {
      deadline = true;
      void run();
    }, waitMs);
    void run();
  });
}

/** Is this process's subscriber connected (events flow)? */
export function liveBusUp(): boolean {
  return bus().up;
}

/** Listeners attached to this process's bus now: one event and one status listener per open stream (tests, the bench). */
export function liveListenerCount(): { listeners: number; statusListeners: number } {
  return { listeners: g.bus?.listeners.size ?? 0, statusListeners: g.bus?.statusListeners.size ?? 0 };
}

/** Closes the subscriber (shutdown, tests). */
export async function closeLive(): Promise<void> {
  const b = g.bus;
  g.bus = undefined;
  if (!b?.sub) return;
  b.listeners.clear();
  b.statusListeners.clear();
  if (b.sub.status === "ready") await b.sub.quit().catch(() => b.sub?.disconnect());
  else b.sub.disconnect();
}
