import { AUTH_REQUIRED, gateVerdict } from "./auth.server";
import type { RequestHandler } from "express";
import { RATE_MESSAGES } from "#api/rates";
import { RateValidationError, ratesSnapshot } from "~/models/rate.server";
import { jsonError } from "./api.server";

/**
 * The /api/rates routes' one error mapping: a thrown Response (readJson's 400/413/415) goes
 * out as is, a broken rate rule is 400 `{ error }` with the spec's text, anything else is
 * logged and answered 500 with the route's own failure text.
 */
export function rateWriteFailed(err: unknown, fallback: string): Response {
  if (err instanceof Response) return err;
  if (err instanceof RateValidationError) return jsonError(400, err.message);
  console.warn("[api/rates]", fallback, (err as Error)?.message ?? err);
  return jsonError(500, fallback);
}

type Answer = { status: number; headers: Record<string, string>; body: Buffer | null };

/**
 * GET /api/rates from the cached snapshot: 304 when the client's ETag still matches, the
 * precompressed gzip body when the client accepts gzip (the compression middleware leaves a
 * response that already has a Content-Encoding alone), else the JSON bytes. Shared by the
 * Remix resource route and `ratesExpressHandler`, so both answer byte for byte the same.
 */
export async function answerRatesGet(ifNoneMatch: string | null | undefined, acceptEncoding: string | null | undefined): Promise<Answer> {
  let snapshot;
  try {
    snapshot = await ratesSnapshot();
  } catch (err) {
    console.warn("[api/rates] load failed:", (err as Error).message);
    return {
      status: 500,
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: Buffer.from(JSON.stringify({ error: RATE_MESSAGES.loadFailed })),
    };
  }
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    ETag: snapshot.etag,
    Vary: "Accept-Encoding",
  };
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === snapshot.etag)) {
    return { status: 304, headers, body: null };
  }
  if (/\bgzip\b/i.test(acceptEncoding ?? "")) {
    return { status: 200, headers: { ...headers, "Content-Encoding": "gzip" }, body: snapshot.gzip };
  }
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
