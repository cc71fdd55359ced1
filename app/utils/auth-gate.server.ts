import type { RequestHandler, Response as ExpressResponse } from "express";
import { encode } from "turbo-stream";
import { operatorExists } from "~/models/operator.server";
import {
  AUTH_REQUIRED,
  authenticate,
  CLIENT_IP_HEADER,
  loginPath,
  runWithAuth,
  safeRedirect,
  sessionCookie,
} from "./auth.server";

/**
 * The one door in front of Remix (docs/decisions/0003, docs/auth.md): every page, every
 * Remix data request and every /api path needs a session cookie or an API token, so a new
 * route cannot forget to check. Mounted by app/boot.server.ts after the static files.
 *
 *   /api/**              → 401 JSON { error: "Authentication required" }
 *   *.data (Remix fetch) → 401, with a body Remix's client reads as "reload at /login?…"
 *   other pages          → 302 /login?redirectTo=<page>  (or /setup while no operator exists)
 *
 * One indexed query per request at most; "an operator exists" is cached once true.
 */

/** Reachable without a session. /setup joins them only while no operator exists. */
const PUBLIC_PATHS = new Set(["/login", "/login.data", "/logout", "/logout.data", "/healthz", "/favicon.ico", "/robots.txt"]);
const SETUP_PATHS = new Set(["/setup", "/setup.data"]);

function isPublic(path: string): boolean {
  return (
    PUBLIC_PATHS.has(path) ||
    path.startsWith("/assets/") ||
    // Remix's lazy route discovery: route ids and module URLs, no data.
    path === "/__manifest"
  );
}

function isApi(path: string) {
  return path === "/api" || path.startsWith("/api/") || path === "/api.data" || path.startsWith("/api/.data");
}

/** The page a `.data` request belongs to: "/_root.data" → "/", "/settings.data" → "/settings". */
export function pageOfDataRequest(path: string, search: URLSearchParams): string {
  const page = path === "/_root.data" ? "/" : path.replace(/\.data$/, "") || "/";
  const params = new URLSearchParams(search);
  params.delete("_routes");
  params.delete("index");
  const query = params.toString();
  return page + (query ? `?${query}` : "");
}

/**
 * Remix's single-fetch client decodes every `.data` answer as a turbo-stream and throws
 * "Unable to decode" on anything else (JSON included), which would land an operator whose
 * session just expired on an error page. So the 401 carries the same payload a loader's
 * `throw redirect()` produces, with `reload` set: the browser does a full load of the
 * login page, which then sends it back. Loader navigations expect the redirect under
 * Remix's SingleFetchRedirect plugin; actions expect a bare redirect object.
 */
function sendDataRedirect(res: ExpressResponse, method: string, location: string) {
  const redirect = { redirect: location, status: 302, revalidate: false, reload: true, replace: false };
  const marker = {};
  const body =
    method === "GET" || method === "HEAD"
      ? encode(marker, { plugins: [(value) => (value === marker ? ["SingleFetchRedirect", redirect] : undefined)] })
      : encode(redirect);
  res.status(401).set({
    "Content-Type": "text/x-script",
    "Cache-Control": "no-store",
    "X-Remix-Response": "yes",
    "X-Auth-Error": AUTH_REQUIRED,
  });
  void streamToResponse(body, res);
}

async function streamToResponse(body: ReadableStream<Uint8Array>, res: ExpressResponse) {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

export function createAuthGate(): RequestHandler {
  return (req, res, next) => {
    // Forwarded once, trustworthy: routes read the client IP (login rate limit) from here.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const path = req.path;

    if (isPublic(path)) return runWithAuth(null, next);

    void (async () => {
      if (SETUP_PATHS.has(path) && !(await operatorExists())) return runWithAuth(null, next);

      const result = await authenticate({ cookie: req.headers.cookie, authorization: req.headers.authorization });
      if (result) {
        if (result.refreshed && result.sessionId) {
          // Rolling expiry: the row was pushed 30 days ahead; so is the cookie.
          res.append("Set-Cookie", await sessionCookie().serialize(result.sessionId));
        }
        return runWithAuth(result, next);
      }

      res.set("Cache-Control", "no-store");
      if (isApi(path)) {
        res.status(401).set("WWW-Authenticate", 'Bearer realm="api"').json({ error: AUTH_REQUIRED });
        return;
      }
      const exists = await operatorExists();
      const url = new URL(req.originalUrl, "http://local.invalid");
      if (path.endsWith(".data")) {
        const page = safeRedirect(pageOfDataRequest(path, url.searchParams));
        return sendDataRedirect(res, req.method, exists ? loginPath(page) : "/setup");
      }
      if (!exists) return res.redirect(req.method === "GET" || req.method === "HEAD" ? 302 : 303, "/setup");
      const page = safeRedirect(url.pathname + url.search);
      res.redirect(req.method === "GET" || req.method === "HEAD" ? 302 : 303, loginPath(page));
    })().catch(next);
  };
}
