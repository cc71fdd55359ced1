import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { promisify } from "node:util";
import { gzip as gzipCb } from "node:zlib";
import { AUTH_REQUIRED, bearerToken, gateVerdict } from "~/http/auth.server";
import type { RequestHandler } from "express";
import { RATE_MESSAGES } from "#api/rates";
import { cachedToken } from "~/models/api-token.server";
import { freshRatesSnapshot, ratesSnapshot, type RatesSnapshot } from "~/models/rate.server";
import { API_HEADERS, HSTS } from "~/utils/http-security.server";

type Answer = { status: number; headers: Record<string, string>; body: Buffer | null };

const gzip = promisify(gzipCb);

/** A rates snapshot as HTTP sends it: the JSON bytes, a gzip copy and the ETag (a hash of the bytes). */
export type EncodedRates = { body: Buffer; gzip: Buffer; etag: string };

/**
 * One encoding per model snapshot (the model builds a new snapshot object after every write, so
 * a new object is a new ETag), made on first use and shared by every GET until the next write.
 */
const encodings = new WeakMap<RatesSnapshot, { done?: EncodedRates; making: Promise<EncodedRates> }>();

export function encodeRates(snapshot: RatesSnapshot): Promise<EncodedRates> {
  let entry = encodings.get(snapshot);
  if (!entry) {
    const body = snapshot.body;
    const etag = `"${crypto.createHash("sha1").update(body).digest("base64url")}"`;
    const making = gzip(body).then(
      (zipped) => {
        const done = { body, gzip: zipped, etag };
        const e = encodings.get(snapshot);
        if (e) e.done = done;
        return done;
      },
      (err: unknown) => {
        encodings.delete(snapshot); // the next GET tries again
        throw err;
      },
    );
    entry = { making };
    encodings.set(snapshot, entry);
  }
  return entry.making;
}

/** The encoding when it is already made (the synchronous hot path), else null. */
function encodedNow(snapshot: RatesSnapshot): EncodedRates | null {
  return encodings.get(snapshot)?.done ?? null;
}

/**
 * GET /api/rates from the cached snapshot: 304 when the client's ETag still matches, the
 * precompressed gzip body when the client accepts gzip (the compression middleware leaves a
 * response that already has a Content-Encoding alone), else the JSON bytes. Shared by the
 * Remix resource route and `ratesExpressHandler`, so both answer byte for byte the same.
 */
export async function answerRatesGet(ifNoneMatch: string | null | undefined, acceptEncoding: string | null | undefined): Promise<Answer> {
  let snapshot;
  try {
    snapshot = await encodeRates(await ratesSnapshot());
  } catch (err) {
    console.warn("[api/rates] load failed:", (err as Error).message);
    return {
      status: 500,
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: Buffer.from(JSON.stringify({ error: RATE_MESSAGES.loadFailed })),
    };
  }
  return answerFromSnapshot(snapshot, ifNoneMatch, acceptEncoding);
}

function notModified(snapshot: EncodedRates, ifNoneMatch: string | null | undefined): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === snapshot.etag);
}

const acceptsGzip = (acceptEncoding: string | null | undefined) => /\bgzip\b/i.test(acceptEncoding ?? "");

function answerFromSnapshot(snapshot: EncodedRates, ifNoneMatch: string | null | undefined, acceptEncoding: string | null | undefined): Answer {
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    ETag: snapshot.etag,
    Vary: "Accept-Encoding",
  };
  if (notModified(snapshot, ifNoneMatch)) return { status: 304, headers, body: null };
  if (acceptsGzip(acceptEncoding)) return { status: 200, headers: { ...headers, "Content-Encoding": "gzip" }, body: snapshot.gzip };
  return { status: 200, headers, body: snapshot.body };
}

/**
 * GET /api/rates as a plain Express handler, for mounting after the auth gate and before
 * Remix (docs/decisions/0005-rates-api.md, "Hot path"): the same answer as the resource
 * route without Remix's per-request routing, which costs more than sending 1,000 pairs.
 */
export const ratesExpressHandler: RequestHandler = (req, res, next) => {
  // Its own guard too (issue 7): only the gate's verdict for this very request lets it answer.
  if (!gateVerdict()) {
    res.status(401).set({ "Cache-Control": "no-store", "WWW-Authenticate": 'Bearer realm="api"' }).json({ error: AUTH_REQUIRED, message: AUTH_REQUIRED });
    return;
  }
  answerRatesGet(req.headers["if-none-match"], req.headers["accept-encoding"]).then((answer) => {
    res.status(answer.status).set(answer.headers);
    if (answer.body) res.end(answer.body);
    else res.end();
  }, next);
};

/**
 * A query the hot path may answer with: letters, digits, `-._~=&+,` and well-formed
 * percent escapes other than control characters (`%00`–`%1f`, `%7f`), which the path
 * hygiene refuses anywhere in the target. Anything odder goes through the whole stack.
 */
const HOT_QUERY = /^(?:[\w\-.~=&+,]|%(?:[2-6][0-9a-f]|7[0-9a-e]|[89a-f][0-9a-f]))*$/i;

function isHotTarget(url: string | undefined): boolean {
  if (url === "/api/rates") return true;
  return !!url && url.startsWith("/api/rates?") && HOT_QUERY.test(url.slice("/api/rates?".length));
}

/** `trust proxy` as Express compiled it (`app.get("trust proxy fn")`). */
type TrustProxy = (address: string | undefined, hop: number) => boolean;

/** `req.secure` as Express computes it (request/protocol in express/lib/request.js), without Express. */
function overHttps(req: IncomingMessage, trust: TrustProxy): boolean {
  const header = req.headers["x-forwarded-proto"];
  const forwarded = Array.isArray(header) ? header.join(", ") : header;
  if (!forwarded || !trust(req.socket.remoteAddress, 0)) return !!(req.socket as TLSSocket).encrypted;
  const comma = forwarded.indexOf(",");
  return (comma === -1 ? forwarded : forwarded.slice(0, comma)).trim() === "https";
}

/** Raw header lists per snapshot, built on first use: [200 identity, 200 gzip, 304] × [http, https]. */
const rawHeaders = new WeakMap<EncodedRates, string[][]>();

function headersFor(snapshot: EncodedRates, kind: 0 | 1 | 2, secure: boolean): string[] {
  let lists = rawHeaders.get(snapshot);
  if (!lists) {
    lists = [];
    for (const https of [false, true]) {
      for (const k of [0, 1, 2] as const) {
        // The order and values `mountRequestHygiene` (the /api set, HSTS over https) and
        // `ratesExpressHandler` give the same answer.
        const answer = answerFromSnapshot(snapshot, k === 2 ? snapshot.etag : null, k === 1 ? "gzip" : null);
        // A name set twice keeps its first place and its last value, as with setHeader.
        const set = new Map<string, [string, string]>();
        const add = (name: string, value: string) => set.set(name.toLowerCase(), [set.get(name.toLowerCase())?.[0] ?? name, value]);
        for (const [name, value] of API_HEADERS) add(name, value);
        if (https) add("Strict-Transport-Security", HSTS);
        for (const [name, value] of Object.entries(answer.headers)) add(name, value);
        if (answer.body) add("Content-Length", String(answer.body.length));
        lists[(https ? 3 : 0) + k] = [...set.values()].flat();
      }
    }
    rawHeaders.set(snapshot, lists);
  }
  return lists[(secure ? 3 : 0) + kind]!;
}

/**
 * GET /api/rates ahead of Express (issue 20 §4): answers only what every layer in front
 * of `ratesExpressHandler` would let through unchanged, and only from what this process
 * already holds, so the answer is the one the full stack gives (headers in the same order
 * and values, body byte for byte; `rates-api.server.test.ts` compares them):
 *
 * - `GET /api/rates` as written (no other spelling: the path hygiene has nothing to refuse
 *   or rewrite, compression leaves this path alone), no body, with or without a query string
 *   of plain characters (`HOT_QUERY`: the answer ignores the query, and Express routes
 *   `/api/rates?v=1` to the same handler; issue 32 item 5 measured `?v=1` at 63 % of the bare
 *   handler when it left this path — bench/rates.ts "with a query string");
 * - an `Authorization: Bearer` token this process verified within TOKEN_CACHE_MS
 *   (`cachedToken`, the gate's own cache; a revoke here drops it at once). A GET passes the
 *   role, CSRF, method and body-limit checks whatever the role;
 * - the rates snapshot checked against the table within RATES_RECHECK_MS, already encoded.
 *
 * Anything else — a session cookie, an unknown or expired token, a stale snapshot, HEAD —
 * returns false and goes through the whole stack, which fills the caches for the next one.
 * The saving is Express's router, its request/response decoration and a dozen header
 * calls per request; on GET /api/rates those cost more than sending 110 KB.
 */
export function ratesHotPath(trust: TrustProxy): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== "GET" || !isHotTarget(req.url)) return false;
    const headers = req.headers;
    if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return false;
    const token = bearerToken(headers.authorization);
    if (!token || !cachedToken(token)) return false;
    const fresh = freshRatesSnapshot();
    const snapshot = fresh && encodedNow(fresh);
    if (!snapshot) return false;
    const secure = overHttps(req, trust);
    if (notModified(snapshot, headers["if-none-match"])) {
      res.writeHead(304, headersFor(snapshot, 2, secure));
      res.end();
    } else if (acceptsGzip(headers["accept-encoding"])) {
      res.writeHead(200, headersFor(snapshot, 1, secure));
      res.end(snapshot.gzip);
    } else {
      res.writeHead(200, headersFor(snapshot, 0, secure));
      res.end(snapshot.body);
    }
    return true;
  };
}
