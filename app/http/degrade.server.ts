/**
 * A web that degrades instead of hanging (issue 29 item 3; docs/decisions/0029-web-degrades.md,
 * docs/architecture.md "When a dependency is down").
 *
 * - `failFastRead(read)`: the auth gate's database reads (session, token, "an operator
 *   exists") bounded by the request deadline; a database known to be down, or one that does
 *   not answer in time, is a `DependencyDownError` at once (503), never a hang.
 * - `answerDependencyDown(req, res, err)`: the 503 where the caller is looking: `{ error,
 *   message, dependency }` to scripts, a page that names what is unreachable (with a Retry link
 *   that works without JavaScript) to browsers, a full reload to a Remix data request (so the
 *   browser lands on that page instead of failing to decode a JSON body).
 * - `dependencyErrorResponse(err)`: the same for route loaders and actions (route-guard).
 * - `watchDependencies(listener)`: the live stream's `degraded` event (GET /api/events).
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { DEPENDENCY_DOWN, DEPENDENCY_RETRY_S, DEPENDENCY_TITLE, type DegradedEvent, type Dependency } from "#api/dependencies";
import { liveBusUp, onLiveStatus } from "~/queue/live.server";
import { producerConnection } from "~/queue/redis.server";
import { dbHealth } from "~/db/client.server";
import { DB_TIMEOUTS, dbBreakerActive, dbReachability, onDbReachability, reportDbUnreachable } from "~/db/reachability.server";
import { DependencyDownError, findDependencyDown } from "../utils/dependency-down.server";
import { remember } from "../utils/remember.server";

export { DependencyDownError, findDependencyDown };

/**
 * Runs one of the gate's database reads within the request deadline (DB_TIMEOUTS.requestMs).
 * A read past it trips the breaker (the database is probed on a fresh connection; a slow
 * moment, not an outage, is forgiven within a second) and answers 503.
 */
export async function failFastRead<T>(read: () => Promise<T>): Promise<T> {
  if (!dbReachability().up) throw new DependencyDownError("database");
  if (!dbBreakerActive()) return read();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(`no answer within ${DB_TIMEOUTS.requestMs} ms`);
      reportDbUnreachable(err);
      reject(new DependencyDownError("database", { cause: err }));
    }, DB_TIMEOUTS.requestMs);
  });
  try {
    return await Promise.race([read(), deadline]);
  } catch (err) {
    throw findDependencyDown(err, reportDbUnreachable) ?? err;
  } finally {
    clearTimeout(timer);
  }
}

const escapeHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The browser's page while a dependency is down: plain HTML (no script: it must not need the
 * app's bundle or a nonce), the text of api/dependencies.ts, a Retry link to the same address
 * (works without JavaScript), and a refresh every DEPENDENCY_RETRY_S so an open tab comes back
 * by itself once the dependency does.
 */
export function dependencyDownPage(dependency: Dependency, retryHref: string): string {
  const title = DEPENDENCY_TITLE[dependency];
  const href = escapeHtml(retryHref);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="${DEPENDENCY_RETRY_S}"><title>${escapeHtml(title)} · Galaxy Toolbox</title>
<style>body{font-family:system-ui,sans-serif;background:#111113;color:#eeeef0;display:grid;place-items:center;min-height:100vh;margin:0}main{max-width:32rem;padding:2rem}a{color:#9eb1ff}.retry{display:inline-block;padding:.5rem 1rem;border-radius:6px;background:#3e63dd;color:#fff;text-decoration:none}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(DEPENDENCY_DOWN[dependency])}. Nothing was lost: the page works again as soon as it is back.</p><p>This page tries again every ${DEPENDENCY_RETRY_S} seconds.</p><p><a class="retry" href="${href}">Retry</a></p></main></body></html>`;
}

/** Does this request want a page (a browser navigation) rather than data? */
function wantsHtml(req: ExpressRequest): boolean {
  return /text\/html/i.test(req.headers.accept ?? "");
}

/**
 * Answers `err` when it is a dependency being down (true), else leaves the response alone
 * (false). `sendDataRedirect` is the gate's way of telling Remix's client to reload a page.
 */
export function answerDependencyDown(
  req: ExpressRequest,
  res: ExpressResponse,
  err: unknown,
  options: {
    isJson: (path: string) => boolean;
    sendDataRedirect: (res: ExpressResponse, method: string, location: string, opts: { status?: number; reload?: boolean; error?: string }) => void;
  },
): boolean {
  const down = findDependencyDown(err, reportDbUnreachable);
  if (!down || res.headersSent) return false;
  const text = down.message;
  res.set({ "Cache-Control": "no-store", "Retry-After": String(DEPENDENCY_RETRY_S) });
  if (options.isJson(req.path)) {
    res.status(503).json({ error: text, message: text, dependency: down.dependency });
  } else if (req.path.endsWith(".data")) {
    // The page's own address: a full load of it lands on the page below.
    const page = req.path === "/_root.data" ? "/" : req.path.replace(/\.data$/, "") || "/";
    options.sendDataRedirect(res, req.method, page, { status: 503, reload: true, error: text });
  } else if (wantsHtml(req)) {
    const retry = req.method === "GET" || req.method === "HEAD" ? req.originalUrl : req.path;
    res.status(503).type("html").send(dependencyDownPage(down.dependency, retry));
  } else {
    res.status(503).json({ error: text, message: text, dependency: down.dependency });
  }
  return true;
}

/**
 * What a route's loader or action throws when it failed for want of a dependency: a 503
 * Response the root ErrorBoundary renders with the dependency's text (and /api routes answer
 * as JSON). Null for any other error.
 */
export function dependencyErrorResponse(err: unknown): Response | null {
  const down = findDependencyDown(err, reportDbUnreachable);
  if (!down) return null;
  return Response.json(
    { error: down.message, message: down.message, dependency: down.dependency },
    { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": String(DEPENDENCY_RETRY_S) } },
  );
}

/** Which dependencies of this web process are down now (as far as it knows without waiting). */
export function dependenciesDown(): Dependency[] {
  const down: Dependency[] = [];
  if (!dbReachability().up) down.push("database");
  if (!liveBusUp() || producerConnection().status !== "ready") down.push("redis");
  return down;
}

export function degradedEvent(down = dependenciesDown()): DegradedEvent {
  return { down, messages: down.map((d) => DEPENDENCY_DOWN[d]), at: Date.now() };
}

/** How often an open stream's process checks its dependencies (the database with a `select 1` every other tick). */
export const WATCH_EVERY_MS = 1_000;

type Watch = { listeners: Set<(event: DegradedEvent) => void>; last: string; timer?: ReturnType<typeof setInterval>; stop?: () => void; ticks: number };
// remember(): one watch per process, across Vite dev reloads too (CONVENTIONS rule 13).
const watch = remember("degrade-watch", (): Watch => ({ listeners: new Set(), last: "", ticks: 0 }));

function check() {
  const event = degradedEvent();
  const key = event.down.join(",");
  if (key === watch.last) return;
  watch.last = key;
  for (const l of watch.listeners) l(event);
}

/**
 * Calls `listener` whenever the set of unreachable dependencies changes, while any listener
 * is registered (open event streams). The database is pinged every 2 s meanwhile (an idle
 * page must learn of an outage that no request has met yet); Redis is watched by its own
 * connections (app/queue/redis.server.ts `watchConnection`). Returns the unsubscribe function.
 */
export function watchDependencies(listener: (event: DegradedEvent) => void): () => void {
  watch.listeners.add(listener);
  if (!watch.timer) {
    watch.last = dependenciesDown().join(",");
    const offDb = onDbReachability(check);
    const offLive = onLiveStatus(() => check());
    watch.stop = () => {
      offDb();
      offLive();
    };
    watch.timer = setInterval(() => {
      if (watch.ticks++ % 2 === 0 && dbReachability().up) void dbHealth().then(check);
      else check();
    }, WATCH_EVERY_MS);
    watch.timer.unref();
  }
  return () => {
    watch.listeners.delete(listener);
    if (watch.listeners.size || !watch.timer) return;
    clearInterval(watch.timer);
    watch.timer = undefined;
    watch.stop?.();
  };
}

type RouteFn = (args: never) => unknown;

/**
 * A route module whose loader and action answer a dependency being down with the 503 above
 * (thrown, so pages render it in their ErrorBoundary): applied to every route by guardBuild.
 */
export function degradeRoute<M extends { loader?: RouteFn; action?: RouteFn }>(module: M): M {
  const wrap = <F extends RouteFn>(fn: F | undefined): F | undefined =>
    fn &&
    ((async (args: never) => {
      try {
        return await fn(args);
      } catch (err) {
        throw dependencyErrorResponse(err) ?? err;
      }
    }) as unknown as F);
  if (!module.loader && !module.action) return module;
  return { ...module, loader: wrap(module.loader), action: wrap(module.action) };
}

/**
 * For one event stream (GET /api/events): sends `degraded` with the current state at once,
 * then whenever it changes. Returns the stop function (call it when the stream closes).
 */
export function streamDegraded(send: (event: "degraded", data: DegradedEvent) => void): () => void {
  send("degraded", degradedEvent());
  return watchDependencies((event) => send("degraded", event));
}
