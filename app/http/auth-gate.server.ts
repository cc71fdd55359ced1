import type { RequestHandler, Response as ExpressResponse } from "express";
import { addLogContext } from "../utils/logger.server";
import { encode } from "turbo-stream";
import { operatorExists } from "~/models/operator.server";
import { PUBLIC_PAGES } from "~/server-routes";
import { SERVED_METHODS } from "../utils/http-security.server";
import { writeAccessRefusal } from "./access.server";
import { AUTH_REQUIRED, authenticate, CLIENT_IP_HEADER, loginPath, runWithAuth, safeRedirect, sessionCookie } from "./auth.server";
import { bodyLimitFor } from "../utils/body-limits";
import { answerDependencyDown, failFastRead } from "./degrade.server";
import { redirectWithError } from "../utils/toast.server";

/**
 * The one door in front of Remix (docs/decisions/0003, docs/auth.md): every page, every
 * Remix data request and every /api path needs a session cookie or an API token, so a new
 * route cannot forget to check. Mounted by app/boot.server.ts after the static files.
 *
 *   /api/**              → 401 JSON { error: "Authentication required" }
 *   *.data (Remix fetch) → 401, with a body Remix's client reads as "reload at /login?…"
 *   other pages          → 302 /login?redirectTo=<page>  (or /setup while no operator exists)
 *
 * With credentials it also decides, before any route runs: methods (405), cross-site writes
 * (403, docs/decisions/0006), body size per route (413, body-limits.ts) and roles — a write
 * by a viewer or with a read-only token is a 403 (docs/decisions/0016, access.server.ts).
 *
 * One indexed query per request at most; "an operator exists" is cached once true.
 */

/** Reachable without a session. /setup joins them only while no operator exists. */
const PUBLIC_PATHS = new Set([...PUBLIC_PAGES.filter((p) => p !== "/setup"), "/login.data", "/logout.data"]);
const SETUP_PATHS = new Set(["/setup", "/setup.data"]);

function isPublic(rawPath: string): boolean {
  // Express matches static mounts case-insensitively, and so does the Remix router.
  const path = rawPath.toLowerCase();
  return (
    PUBLIC_PATHS.has(path) ||
    path.startsWith("/assets/") ||
    // Remix's lazy route discovery: route ids and module URLs, no data.
    path === "/__manifest"
  );
}

export function isApi(rawPath: string) {
  const path = rawPath.toLowerCase();
  return path === "/api" || path.startsWith("/api/") || path.startsWith("/api.");
}

/**
 * Paths written to with JSON, not forms: /api, and the queue board's own API (bull-board's
 * page retries, adds and cleans jobs with JSON/empty PUTs and POSTs). Both answer errors as
 * JSON and get the /api rules: same origin proven, an exact application/json body.
 */
function takesJson(rawPath: string) {
  return isApi(rawPath) || /^\/admin\/queues\/api\//i.test(rawPath);
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
const JSON_TYPE = /^application\/json\s*(;|$)/i;

function hasBody(req: Parameters<RequestHandler>[0]) {
  return Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
}

/** This server's own origin as the browser sees it (honours `trust proxy` for https). */
function ownOrigin(req: Parameters<RequestHandler>[0]) {
  return `${req.protocol}://${req.get("host") ?? ""}`.toLowerCase();
}

/**
 * Cross-site request forgery, for cookie-authenticated writes (docs/decisions/0006). A
 * browser names the page that sent a request in `Origin` (and `Sec-Fetch-Site`); another
 * site's page must not write with the operator's cookie. /api writes must prove they are
 * same-origin and carry an exact `application/json` body (a form on another site cannot
 * send that without a CORS preflight, which we never grant); page writes from a browser
 * must not name another origin. Bearer-token calls carry no ambient credential: exempt.
 */
export function csrfRefusal(req: Parameters<RequestHandler>[0], via: "session" | "token"): { status: number; text: string } | null {
  if (via === "token" || !WRITE_METHODS.has(req.method)) return null;
  const origin = req.headers.origin?.toLowerCase();
  const site = req.headers["sec-fetch-site"]?.toString().toLowerCase();
  const sameOrigin = origin !== undefined ? origin === ownOrigin(req) : site === "same-origin";
  const crossSite = (origin !== undefined && origin !== ownOrigin(req)) || (site !== undefined && site !== "same-origin" && site !== "none");
  if (crossSite) return { status: 403, text: "Cross-site request refused" };
  if (takesJson(req.path)) {
    if (!sameOrigin) return { status: 403, text: "Cross-site request refused: send Origin, or use an API token" };
    if (hasBody(req) && !JSON_TYPE.test(req.headers["content-type"] ?? "")) {
      return { status: 415, text: "Content-Type must be application/json" };
    }
  }
  return null;
}

/**
 * Writes to the public pages — /login, /logout, /setup — carry no session to protect, but
 * another site must not log the operator out, or in as someone else (login CSRF): a foreign
 * Origin or a cross-site Sec-Fetch-Site is a 403 there too. Logging out must also prove it
 * comes from our own page (browsers send Origin on every form POST); a POST with neither
 * header is not ours.
 */
export function publicWriteRefusal(req: Parameters<RequestHandler>[0]): string | null {
  if (!WRITE_METHODS.has(req.method)) return null;
  const origin = req.headers.origin?.toLowerCase();
  const site = req.headers["sec-fetch-site"]?.toString().toLowerCase();
  if ((origin !== undefined && origin !== ownOrigin(req)) || (site !== undefined && site !== "same-origin" && site !== "none")) {
    return "Cross-site request refused";
  }
  const logout = /^\/logout(\.data)?$/i.test(req.path);
  if (logout && origin === undefined && site !== "same-origin") return "Cross-site request refused: log out from the app's own page";
  return null;
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
export function sendDataRedirect(res: ExpressResponse, method: string, location: string, opts: { status?: number; reload?: boolean; error?: string } = {}) {
  const reload = opts.reload ?? true;
  const redirect = { redirect: location, status: 302, revalidate: !reload, reload, replace: false };
  const marker = {};
  const body =
    method === "GET" || method === "HEAD"
      ? encode(marker, { plugins: [(value) => (value === marker ? ["SingleFetchRedirect", redirect] : undefined)] })
      : encode(redirect);
  res.status(opts.status ?? 401).set({
    "Content-Type": "text/x-script",
    "Cache-Control": "no-store",
    "X-Remix-Response": "yes",
    "X-Auth-Error": opts.error ?? AUTH_REQUIRED,
  });
  void streamToResponse(body, res);
}

/**
 * A write this operator's role (or read-only token) may not make, answered where the
 * operator is looking: /api and the board's API get 403 `{ error, message }`; a page's
 * fetch (`.data`) gets 403 carrying "go back to the page" plus a flash toast with the
 * reason, which Remix's client follows; a plain form post from a browser (no JavaScript;
 * it accepts text/html) gets a 403 page with the reason and a link back; a script posting to
 * a page gets the usual `{ error, message }`.
 */
async function sendRoleRefusal(req: Parameters<RequestHandler>[0], res: ExpressResponse, text: string) {
  res.set("Cache-Control", "no-store");
  closeAfterRefusal(req, res);
  if (takesJson(req.path)) return void res.status(403).json({ error: text, message: text });
  const back = refererPath(req) ?? (req.path.endsWith(".data") ? safeRedirect(pageOfDataRequest(req.path, new URLSearchParams())) : "/");
  if (req.path.endsWith(".data")) {
    const toast = (await redirectWithError(back, text)).headers.get("Set-Cookie");
    if (toast) res.append("Set-Cookie", toast);
    return sendDataRedirect(res, req.method, back, { status: 403, reload: false, error: text });
  }
  if (!/text\/html/i.test(req.headers.accept ?? "")) return void res.status(403).json({ error: text, message: text });
  res.status(403).type("html").send(refusalPage(text, back));
}

/** The same-origin page that sent this request (Referer), as a safe local path. */
function refererPath(req: Parameters<RequestHandler>[0]): string | null {
  const referer = req.headers.referer;
  if (!referer) return null;
  try {
    const url = new URL(referer);
    if (url.origin.toLowerCase() !== ownOrigin(req)) return null;
    const path = safeRedirect(url.pathname + url.search, "");
    return path || null;
  } catch {
    return null;
  }
}

const escapeHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page (no scripts: the CSP allows none without a nonce) for a refused no-JavaScript form post. */
function refusalPage(text: string, back: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not allowed · Galaxy Toolbox</title>
<style>body{font-family:system-ui,sans-serif;background:#111113;color:#eeeef0;display:grid;place-items:center;min-height:100vh;margin:0}main{max-width:32rem;padding:2rem}a{color:#9eb1ff}</style></head>
<body><main><h1>Not allowed</h1><p role="alert">${escapeHtml(text)}</p><p><a href="${escapeHtml(back)}">Back</a></p></main></body></html>`;
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

/**
 * A write the gate refuses is answered before its body is read: the answer says
 * `Connection: close`, and the socket closes once the answer is out (Node ends a response
 * marked so), so a client cannot keep a refused request open by trickling its body in
 * (issue 28 item 3). What already arrived of the body is drained, not read into memory.
 */
function closeAfterRefusal(req: Parameters<RequestHandler>[0], res: ExpressResponse) {
  if (!WRITE_METHODS.has(req.method) && !hasBody(req)) return;
  res.set("Connection", "close");
  res.once("finish", () => {
    // Node closes a "Connection: close" answer's socket itself; this covers any layer that
    // would keep it (a pipelined request behind it is not served either way).
    if (!req.socket.destroyed) req.socket.end();
  });
}

export function createAuthGate(): RequestHandler {
  return (req, res, next) => {
    // Forwarded once, trustworthy: routes read the client IP (login rate limit) from here.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const path = req.path;

    // Each route takes the body it needs (body-limits.ts): a larger declared body is refused
    // before a byte of it is read (chunked bodies are cut at the same limit when read).
    const limit = bodyLimitFor(path);
    if (WRITE_METHODS.has(req.method) && Number(req.headers["content-length"] ?? 0) > limit) {
      const text = `Request body too large (limit ${limit} bytes)`;
      res.status(413).set("Cache-Control", "no-store");
      closeAfterRefusal(req, res);
      if (takesJson(path)) res.json({ error: text, message: text });
      else res.type("text/plain").send(text);
      return;
    }

    // Pages are written to by forms only; anything else (JSON, XML, text) posted to a
    // page, /login included, is refused before an action tries to parse it as a form.
    if (WRITE_METHODS.has(req.method) && !takesJson(path) && hasBody(req) && !FORM_TYPES.test(req.headers["content-type"] ?? "")) {
      closeAfterRefusal(req, res);
      res.status(415).set("Cache-Control", "no-store").type("text/plain").send("Forms only: application/x-www-form-urlencoded or multipart/form-data");
      return;
    }

    if (isPublic(path)) {
      // Public pages serve GET and form posts; TRACE and friends never reach Remix (a 500 there).
      if (!SERVED_METHODS.has(req.method)) {
        closeAfterRefusal(req, res);
        return void res
          .status(405)
          .set({ Allow: [...SERVED_METHODS].join(", "), "Cache-Control": "no-store" })
          .type("text/plain")
          .send("Method not allowed");
      }
      const publicWrite = () => {
        const refusal = publicWriteRefusal(req);
        if (refusal) {
          closeAfterRefusal(req, res);
          return void res.status(403).set("Cache-Control", "no-store").type("text/plain").send(refusal);
        }
        return runWithAuth(null, next);
      };
      // A public page needs no credential, but one that is sent is judged by the one write
      // rule first (access.server.ts): a read-only token posts nowhere, a token cannot log out.
      if (WRITE_METHODS.has(req.method) && req.headers.authorization) {
        return void (async () => {
          const result = await authenticate({ cookie: undefined, authorization: req.headers.authorization });
          const denied = result && writeAccessRefusal(req.method, path, result);
          if (denied) return sendRoleRefusal(req, res, denied);
          return publicWrite();
        })().catch(next);
      }
      return publicWrite();
    }

    void (async () => {
      if (SETUP_PATHS.has(path) && !(await failFastRead(operatorExists))) {
        const refusal = publicWriteRefusal(req);
        if (refusal) {
          closeAfterRefusal(req, res);
          return void res.status(403).set("Cache-Control", "no-store").type("text/plain").send(refusal);
        }
        return runWithAuth(null, next);
      }

      // Within the request deadline, or a 503 naming the database (degrade.server.ts, decision 0029).
      const result = await failFastRead(() => authenticate({ cookie: req.headers.cookie, authorization: req.headers.authorization }));
      if (result) {
        if (result.refreshed && result.sessionToken) {
          // Rolling expiry: the row was pushed 30 days ahead; so is the cookie.
          res.append("Set-Cookie", await sessionCookie().serialize(result.sessionToken));
        }
        if (!SERVED_METHODS.has(req.method)) {
          closeAfterRefusal(req, res);
          res.status(405).set({ Allow: [...SERVED_METHODS].join(", "), "Cache-Control": "no-store" });
          if (isApi(path)) res.json({ error: "Method not allowed", message: "Method not allowed" });
          else res.type("text/plain").send("Method not allowed");
          return;
        }
        const refusal = csrfRefusal(req, result.via);
        if (refusal) {
          closeAfterRefusal(req, res);
          res.status(refusal.status).set("Cache-Control", "no-store");
          if (takesJson(path)) res.json({ error: refusal.text, message: refusal.text });
          else res.type("text/plain").send(refusal.text);
          return;
        }
        // Roles, for every route present and future (access.server.ts).
        const denied = writeAccessRefusal(req.method, path, result);
        if (denied) return sendRoleRefusal(req, res, denied);
        addLogContext({ operator: result.operator.name });
        return runWithAuth(result, next);
      }

      res.set("Cache-Control", "no-store");
      closeAfterRefusal(req, res);
      if (isApi(path)) {
        res.status(401).set("WWW-Authenticate", 'Bearer realm="api"').json({ error: AUTH_REQUIRED, message: AUTH_REQUIRED });
        return;
      }
      const exists = await failFastRead(operatorExists);
      const url = new URL(req.originalUrl, "http://local.invalid");
      if (path.endsWith(".data")) {
        const page = safeRedirect(pageOfDataRequest(path, url.searchParams));
        return sendDataRedirect(res, req.method, exists ? loginPath(page) : "/setup");
      }
      if (!exists) return res.redirect(req.method === "GET" || req.method === "HEAD" ? 302 : 303, "/setup");
      const page = safeRedirect(url.pathname + url.search);
      res.redirect(req.method === "GET" || req.method === "HEAD" ? 302 : 303, loginPath(page));
    })().catch((err: unknown) => answerDependencyDown(req, res, err, { isJson: takesJson, sendDataRedirect }) || next(err));
  };
}
