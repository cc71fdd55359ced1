/**
 * Admission of live-event streams (`GET /api/events`; issue 28 item 3, docs/decisions/0026).
 *
 * A stream holds a socket, a ReadableStream and a listener on the live bus for as long as the
 * client keeps it open, so nothing bounded them: one viewer token held 19,800 streams and the
 * web process grew from 206 to 961 MB. Each stream now takes a slot before it starts and gives
 * it back when it ends, whichever way it ends (the client closes, the socket errors, the reader
 * cancels): `release()` is idempotent, so every close path may call it.
 *
 * Three limits, each counted in this process (a stream lives in one process, and so does the
 * memory it costs):
 * - per credential (one cookie session or one API token): `LIVE_STREAMS_PER_CREDENTIAL`, 20.
 *   A browser opens one stream per tab and its EventSource reconnects only after the old one
 *   is gone, so a person never comes near it; a script that leaks streams does.
 * - per operator, all credentials together: `LIVE_STREAMS_PER_OPERATOR`, 100. Anyone, a
 *   viewer too, may log in again or mint tokens, so the credential cap alone does not bound one
 *   person; this keeps one operator from taking the whole process's budget from the team.
 * - per process: `LIVE_STREAMS_TOTAL`, 1000 (about 30 MB of streams on the 2-core box,
 *   bench/README.md "Live streams").
 * Past any of them the stream is refused with 429 `{error, message}` and `Retry-After`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { AppError } from "../utils/app-error";
import { getAuth, requireApiAuth, type AuthResult } from "./auth.server";
import { getEnv } from "../utils/env.server";
import { metrics } from "../utils/metrics.server";
import { remember } from "../utils/remember.server";

/** Seconds a refused client should wait: the time a few tabs take to be closed or reloaded. */
export const STREAM_RETRY_AFTER_S = 30;

type Counts = { total: number; byCredential: Map<string, number>; byOperator: Map<string, number> };
const counts = remember("live-stream-counts", (): Counts => ({ total: 0, byCredential: new Map(), byOperator: new Map() }));

export type StreamSlot = { release(): void };

export const tooManyForCredential = (max: number) =>
  `Too many live streams for this login (at most ${max} at once): close the tabs or event streams it no longer needs`;
export const tooManyForOperator = (max: number) =>
  `Too many live streams for this operator (at most ${max} at once, all logins and tokens together): close the tabs or event streams no longer needed`;
export const tooManyOnServer = (max: number) => `The server has too many live streams open (${max}): try again later`;

/** The credential a stream is counted against: the cookie session or the API token, never the secret itself. */
export function credentialKey(auth: Pick<AuthResult, "via" | "sessionId" | "token" | "operator">): string {
  if (auth.token) return `token:${auth.token.id}`;
  if (auth.sessionId) return `session:${auth.sessionId}`;
  // Neither (cannot happen behind requireApiAuth): the operator stands for the credential.
  return `operator:${auth.operator.id}`;
}

/**
 * Takes a stream slot for this credential, or throws a 429 AppError naming the limit that was
 * reached. The caller must `release()` the slot when the stream ends, on every path.
 */
export function admitStream(auth: Pick<AuthResult, "via" | "sessionId" | "token" | "operator">): StreamSlot {
  const env = getEnv();
  const credential = credentialKey(auth);
  const operator = auth.operator.id;
  const refuse = (text: string) => new AppError(429, text, { headers: { "Retry-After": String(STREAM_RETRY_AFTER_S) } });
  if ((counts.byCredential.get(credential) ?? 0) >= env.LIVE_STREAMS_PER_CREDENTIAL) {
    throw refuse(tooManyForCredential(env.LIVE_STREAMS_PER_CREDENTIAL));
  }
  if ((counts.byOperator.get(operator) ?? 0) >= env.LIVE_STREAMS_PER_OPERATOR) throw refuse(tooManyForOperator(env.LIVE_STREAMS_PER_OPERATOR));
  if (counts.total >= env.LIVE_STREAMS_TOTAL) throw refuse(tooManyOnServer(env.LIVE_STREAMS_TOTAL));

  counts.total++;
  metrics().liveStreams.set(counts.total);
  bump(counts.byCredential, credential, 1);
  bump(counts.byOperator, operator, 1);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      counts.total--;
      metrics().liveStreams.set(counts.total);
      bump(counts.byCredential, credential, -1);
      bump(counts.byOperator, operator, -1);
    },
  };
}

/** `admitStream` for the credential this request comes with (401 JSON without one). */
export async function admitLiveStream(request: Request): Promise<StreamSlot> {
  await requireApiAuth(request);
  const auth = await getAuth(request);
  if (!auth) throw new Error("requireApiAuth let a request without credentials through");
  return admitStream(auth);
}

/**
 * The Node response of the stream being served, for `onClientGone`. A loader's `request.signal`
 * alone does not do: Node 20's undici makes each Request copy (the Express adapter's, Remix's)
 * follow its parent's signal through a weak reference, so once a copy is garbage-collected the
 * client's disconnect no longer reaches the loader. The probe's 19,800 streams stayed, with their
 * heartbeat timers and bus listeners, after their clients had gone: memory never came back.
 */
const connection = remember("stream-connection", () => new AsyncLocalStorage<ServerResponse>());

/** Express middleware ahead of Remix on the stream routes: remembers the Node response for `onClientGone`. */
export function trackStreamConnections(): RequestHandler {
  return (_req, res, next) => connection.run(res, next);
}

/**
 * Calls `fn` once the client of this request has gone (its connection closed or the response
 * ended): through the Node response when `trackStreamConnections` runs ahead, and the request's
 * signal in any case (direct loader calls in tests).
 */
export function onClientGone(request: Request, fn: () => void): void {
  const res = connection.getStore();
  if (res) {
    if (res.closed) fn();
    else res.once("close", fn);
  }
  request.signal.addEventListener("abort", fn, { once: true });
  // A client gone before the stream started: no "abort" event will come.
  if (request.signal.aborted) fn();
}

/** Adds `by` to a key's count; a count back at 0 leaves the map (no key outlives its streams). */
function bump(map: Map<string, number>, key: string, by: number) {
  const next = (map.get(key) ?? 0) + by;
  if (next > 0) map.set(key, next);
  else map.delete(key);
}

/** Streams open in this process now (tests, the bench). */
export function openStreams(): { total: number; credentials: number; operators: number } {
  return { total: counts.total, credentials: counts.byCredential.size, operators: counts.byOperator.size };
}
