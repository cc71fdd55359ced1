/**
 * Is PostgreSQL reachable from this process? (issue 29 item 3 "A web that degrades";
 * docs/decisions/0029-web-degrades.md.)
 *
 * A circuit breaker in front of the pool. While the database answers, nothing here costs
 * anything. A sign that it does not — a refused or timed-out connect, a query whose connection
 * ended, a query without an answer after DB_TIMEOUTS.suspectMs, a request's auth read past its
 * deadline — starts one probe (connect + `select 1` on a fresh connection, DB_TIMEOUTS.probeMs).
 * If the probe fails the database is down: every query fails at once with
 * `DependencyDownError("database")` (a 503 naming the database) instead of waiting on a socket
 * that may never answer, and probes repeat every DB_TIMEOUTS.probeEveryMs until one succeeds,
 * which marks it up again. A suspicion the probe contradicts (a slow query) changes nothing.
 *
 * A partition that drops packets (no RST) never errors a connection: its in-flight queries
 * would wait for TCP to give up (minutes). So when the database is marked down the pool's
 * connections are discarded (sockets destroyed): their queries fail now, and after the heal the
 * pool opens fresh connections instead of waiting out TCP's retransmission backoff on the old
 * ones.
 */
import { remember } from "~/utils/remember.server";

/** Every bound of the fail-fast behaviour, in one place (docs/decisions/0029). */
export const DB_TIMEOUTS = {
  /** A new connection (node-postgres `connectionTimeoutMillis`, also the wait for a pooled one). */
  connectMs: 1_500,
  /**
   * node-postgres `query_timeout`: the longest a query may wait for its answer on a connection
   * before the client gives up on it. Only a backstop, so generous (restores, bench seeding of a
   * million rows, backups are legitimately slow): an outage is caught much sooner by the
   * suspicion below, the request deadline and the breaker.
   */
  queryMs: 120_000,
  /** The auth gate's read and /api/health's ping: past this a request answers 503. */
  requestMs: 1_200,
  /** A query still without an answer after this is suspect: a probe decides whether the database is down. */
  suspectMs: 700,
  /** One probe (connect + `select 1` on a fresh connection). */
  probeMs: 700,
  /**
   * A probe that timed out with no answer anywhere is confirmed by a second, longer one before
   * the database is called down: on a machine at load 20 a fresh connection's start-up took
   * over 700 ms while the only query in flight waited on a lock (a test file's delete; CI failed
   * on it). A partition fails this one too, ~2 s later; requests answer 503 by their own
   * deadline (requestMs) meanwhile.
   */
  confirmMs: 2_500,
  /** Probes while down: recovery is seen within about this long after the heal. */
  probeEveryMs: 1_000,
  /** TCP keepalive on every connection (node-postgres `keepAliveInitialDelayMillis`). */
  keepAliveMs: 5_000,
} as const;

export type DbReachability = { up: true } | { up: false; error: string; since: number };
type Listener = (state: DbReachability) => void;

type Breaker = {
  state: DbReachability;
  /** Set by the database handle: connect + `select 1` on a fresh connection within `timeoutMs` (default DB_TIMEOUTS.probeMs), rejects on failure. */
  probe?: (timeoutMs?: number) => Promise<void>;
  /** Set by the database handle: destroys every pooled connection. */
  discard?: () => void;
  timer?: ReturnType<typeof setTimeout>;
  /** A probe deciding a suspicion is under way. */
  checking: boolean;
  /** When a query last got an answer from the server (a result or the server's own error). */
  lastAnswerAt: number;
  listeners: Set<Listener>;
};

const b = remember("db-reachability", (): Breaker => ({ state: { up: true }, checking: false, lastAnswerAt: 0, listeners: new Set() }));

/**
 * The database handle registers how to probe and how to discard connections (app/db/client.server.ts).
 * A new handle starts from a fresh verdict: what a handle before it concluded (a handle whose
 * open failed, its probes still running against a database that is gone) is not about this one.
 */
export function attachDbBreaker(hooks: { probe: (timeoutMs?: number) => Promise<void>; discard: () => void }) {
  forgetVerdict();
  b.probe = hooks.probe;
  b.discard = hooks.discard;
}

/**
 * The handle closed, or its open failed (shutdown, tests switching databases): forget its hooks
 * and its state. A check or probe of it still under way finds itself detached and changes nothing.
 */
export function detachDbBreaker() {
  forgetVerdict();
  b.probe = undefined;
  b.discard = undefined;
}

function forgetVerdict() {
  clearTimeout(b.timer);
  b.timer = undefined;
  b.checking = false;
  if (!b.state.up) setState({ up: true });
}

/**
 * Is there a network between this process and its database (DATABASE_URL, or the embedded
 * database through its owner's socket)? A process that opened PGlite itself cannot lose it:
 * a slow answer there is load, never an outage, so no deadline applies.
 */
export function dbBreakerActive(): boolean {
  return !!b.probe;
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
 * A sign that the database may be unreachable: a connect or query error of the network kind,
 * a query without an answer after DB_TIMEOUTS.suspectMs, a request's read past its deadline.
 * One probe on a fresh connection decides: if it fails the database is marked down, the pooled
 * connections are discarded (they may be silently dead) and probes repeat until one succeeds;
 * if it succeeds nothing happens (a slow query, not an outage). Without a probe (the embedded
 * database in this process) nothing here ever trips.
 */
export function reportDbUnreachable(err: unknown) {
  const probe = b.probe;
  if (!probe || !b.state.up || b.checking) return;
  b.checking = true;
  const started = Date.now();
  const done = () => {
    if (b.probe === probe) b.checking = false;
  };
  probe().then(done, async (probeErr: unknown) => {
    if (isTimeout(probeErr)) {
      // A probe that timed out while other queries kept getting answers is load (a worker
      // logging in hundreds of sessions made the server's start-up of a fresh connection take
      // > 700 ms), not an outage: a partition answers nothing. Answers already delivered to
      // this process are read first (a busy event loop runs the timer before them).
      await new Promise((r) => setImmediate(r));
      if (b.lastAnswerAt >= started) return done();
      // No answer anywhere yet: one longer probe confirms before the verdict (confirmMs).
      const confirmed = await probe(DB_TIMEOUTS.confirmMs).then(
        () => false,
        (e: unknown) => (isTimeout(e) ? b.lastAnswerAt < started : true),
      );
      if (!confirmed) return done();
    }
    if (b.probe !== probe) return;
    b.checking = false;
    if (!b.state.up) return;
    setState({ up: false, error: errorText(isTimeout(err) ? probeErr : err), since: Date.now() });
    b.discard?.();
    b.timer = setTimeout(runProbe, DB_TIMEOUTS.probeEveryMs).unref();
  });
}

/** A query got an answer from the server: it is reachable (app/db/client.server.ts calls it). */
export function noteDbAnswer() {
  b.lastAnswerAt = Date.now();
}

const isTimeout = (err: unknown) => /no answer within|timeout/i.test(errorText(err));

/** While down: one probe every DB_TIMEOUTS.probeEveryMs until one succeeds. */
function runProbe() {
  const probe = b.probe;
  if (!probe) {
    b.timer = undefined;
    return;
  }
  probe().then(
    () => {
      b.timer = undefined;
      if (b.probe === probe) setState({ up: true });
    },
    (err: unknown) => {
      if (b.probe !== probe) return void (b.timer = undefined);
      if (!b.state.up) b.state = { ...b.state, error: errorText(err) };
      b.timer = setTimeout(runProbe, DB_TIMEOUTS.probeEveryMs).unref();
    },
  );
}
