/**
 * Is PostgreSQL reachable from this process? (issue 29 item 3 "A web that degrades";
 * docs/decisions/0029-web-degrades.md.)
 *
 * A circuit breaker in front of the pool. While the database answers, nothing here costs
 * anything. The first sign that it does not — a refused or timed-out connect, a query whose
 * connection ended or stopped answering, a request's auth read past its deadline — marks it
 * down: from then on every query fails at once with `DependencyDownError("database")` (a 503
 * naming the database) instead of waiting on a socket that may never answer, and a probe on a
 * fresh connection runs every PROBE_EVERY_MS until one succeeds, which marks it up again.
 *
 * A partition that drops packets (no RST) never errors a connection: its in-flight queries
 * would wait for TCP to give up (minutes). So when the first probe after a trip fails too, the
 * pool's connections are discarded (sockets destroyed): their queries fail now, and after the
 * heal the pool opens fresh connections instead of waiting out TCP's retransmission backoff
 * on the old ones. A trip the probe contradicts (a slow moment, not an outage) discards nothing.
 */
import { remember } from "~/utils/remember.server";

/** Every bound of the fail-fast behaviour, in one place (docs/decisions/0029). */
export const DB_TIMEOUTS = {
  /** A new connection (node-postgres `connectionTimeoutMillis`, also the wait for a pooled one). */
  connectMs: 1_500,
  /**
   * node-postgres `query_timeout`: the longest a query may wait for its answer on a connection
   * before the client gives up on it. Generous (backups, big lists are legitimately slow); an
   * outage is caught much sooner by the request deadline and the breaker.
   */
  queryMs: 30_000,
  /** The auth gate's read and /api/health's ping: past this a request answers 503. */
  requestMs: 1_500,
  /** One probe (connect + `select 1` on a fresh connection). */
  probeMs: 1_000,
  /** Probes while down: recovery is seen within about this long after the heal. */
  probeEveryMs: 1_000,
  /** TCP keepalive on every connection (node-postgres `keepAliveInitialDelayMillis`). */
  keepAliveMs: 5_000,
} as const;

export type DbReachability = { up: true } | { up: false; error: string; since: number };
type Listener = (state: DbReachability) => void;

type Breaker = {
  state: DbReachability;
  /** Set by the database handle: connect + `select 1` on a fresh connection, rejects on failure. */
  probe?: () => Promise<void>;
  /** Set by the database handle: destroys every pooled connection. */
  discard?: () => void;
  timer?: ReturnType<typeof setTimeout>;
  /** Probes since the last trip. */
  probes: number;
  listeners: Set<Listener>;
};

const b = remember("db-reachability", (): Breaker => ({ state: { up: true }, probes: 0, listeners: new Set() }));

/** The database handle registers how to probe and how to discard connections (app/db/client.server.ts). */
export function attachDbBreaker(hooks: { probe: () => Promise<void>; discard: () => void }) {
  b.probe = hooks.probe;
  b.discard = hooks.discard;
}

/** The handle closed (shutdown, tests switching databases): forget its hooks and its state. */
export function detachDbBreaker() {
  clearTimeout(b.timer);
  b.timer = undefined;
  b.probe = undefined;
  b.discard = undefined;
  if (!b.state.up) setState({ up: true });
}

export function dbReachability(): DbReachability {
  return b.state;
}

/** Listens to the database going down and coming back. Returns the unsubscribe function. */
export function onDbReachability(listener: Listener): () => void {
  b.listeners.add(listener);
  return () => void b.listeners.delete(listener);
}

function setState(state: DbReachability) {
  const was = b.state.up;
  b.state = state;
  if (was !== state.up) {
    if (state.up) console.warn("[db] the database is reachable again");
    else console.warn(`[db] the database is unreachable: ${state.error} (answering 503 until it is back)`);
    for (const l of b.listeners) l(state);
  }
}

function errorText(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown };
  const text = typeof e?.message === "string" && e.message ? e.message : String(err);
  return typeof e?.code === "string" && !text.includes(e.code) ? `${text} (${e.code})` : text;
}

/**
 * A failure to reach the database (or a request's read past its deadline): marks it down now
 * and starts probing. Without a probe (the embedded database in this process) it never trips.
 */
export function reportDbUnreachable(err: unknown) {
  if (!b.probe) return;
  if (b.state.up) {
    b.probes = 0;
    setState({ up: false, error: errorText(err), since: Date.now() });
  }
  if (!b.timer) b.timer = setTimeout(runProbe, 0).unref();
}

function runProbe() {
  const probe = b.probe;
  if (!probe) {
    b.timer = undefined;
    return;
  }
  probe().then(
    () => {
      b.timer = undefined;
      setState({ up: true });
    },
    (err: unknown) => {
      // The first failed probe confirms the outage: connections that may be silently dead go.
      if (b.probes++ === 0) b.discard?.();
      if (!b.state.up) b.state = { ...b.state, error: errorText(err) };
      b.timer = b.probe ? setTimeout(runProbe, DB_TIMEOUTS.probeEveryMs).unref() : undefined;
    },
  );
}
