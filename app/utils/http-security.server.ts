import crypto from "node:crypto";
import type { ErrorRequestHandler, Express, RequestHandler } from "express";
import helmet from "helmet";
import { getEnv } from "./env.server";

/**
 * The HTTP hygiene in front of everything, static files included (docs/decisions/0006):
 *
 * 1. **One path for every layer.** Express, `express.static` and the auth gate see the raw
 *    request path; Remix builds a WHATWG URL from it, which resolves `.`/`..` segments
 *    (also `%2e`-encoded ones) and turns `\` into `/`. `/assets/%2e%2e/api/logs` was a
 *    public static path to the gate and `/api/logs` to the router. A request whose path
 *    the URL parser would change is refused with 400, so every layer decides on the same
 *    path the router runs.
 * 2. Security headers: a CSP whose scripts need this request's nonce (no inline scripts
 *    otherwise), a Permissions-Policy, HSTS and Secure cookies when served over https,
 *    and `Cache-Control: no-store` on everything that is not a static asset (pages and
 *    /api answers carry operator data; /settings shows a fresh API token once).
 */

/** Methods any route here serves; anything else (TRACE, CONNECT, PROPFIND…) is refused after the gate. */
export const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The path the router will run for this request target, or null when the target is unusable. */
export function routedPath(target: string): string | null {
  if (!target.startsWith("/") || target.startsWith("//")) return null;
  try {
    return new URL(`http://local.invalid${target}`).pathname;
  } catch {
    return null;
  }
}

/** The raw path part of a request target (no query, no fragment). */
function rawPath(target: string): string {
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

/**
 * Why a request target must be refused before any routing, or null when it is fine:
 * the router would run another path than the one written (dot segments, encoded or not,
 * backslashes, `//`), or it carries characters no path of ours has (NUL, controls).
 */
export function refusePath(target: string): string | null {
  const raw = rawPath(target);
  // eslint-disable-next-line no-control-regex -- control characters are what this line refuses.
  if (/%00|[\u0000-\u001f\u007f]/i.test(raw)) return "control characters in the path";
  if (/%5c|\\/i.test(raw)) return "backslashes in the path";
  const routed = routedPath(target);
  if (routed === null) return "not an origin-form path";
  if (routed !== raw) return "dot segments or characters the router would rewrite";
  if (raw.includes("//")) return "empty path segments";
  try {
    decodeURIComponent(raw);
  } catch {
    return "malformed percent-encoding";
  }
  return null;
}

/** Would this (possibly malformed) request target be an /api call? Judged on the raw text: any case, leading slashes, "api" percent-encoded or not. */
export function looksLikeApi(target: string): boolean {
  return /^[/\\]+(a|%61)(p|%70)(i|%69)([/.\\?#%]|$)/i.test(target);
}

/** Computed once: the same for every page. */
const PERMISSIONS_POLICY = (() => {
  // No "bluetooth": Chromium does not know it as a policy feature and says so on every page's
  // console (the demo tour's only console message); its Web Bluetooth is gated by a prompt anyway.
  const off = [
    "camera",
    "microphone",
    "geolocation",
    "payment",
    "usb",
    "serial",
    "midi",
    "magnetometer",
    "gyroscope",
    "accelerometer",
    "interest-cohort",
    "browsing-topics",
  ];
  // Copying a trade text to the clipboard (spec 2 "Text copied to clipboard") stays allowed here.
  return [...off.map((f) => `${f}=()`), "clipboard-write=(self)", "fullscreen=(self)"].join(", ");
})();

/** An /api path (any case): the JSON answers, which get the short header set below. */
const API_PATH = /^\/api(\/|\.|$)/i;
/** GET /api/docs, the /api reference page (issue 33). */
const API_DOCS_PAGE = /^\/api\/docs\/?$/i;

/**
 * Headers of every /api answer (JSON, never rendered as a document), computed once: a
 * policy that lets nothing load or run should a browser open one, no sniffing, same-origin
 * reads only. No CSP nonce, no Permissions-Policy, none of the document headers helmet sets
 * for pages (issue 20 §4: they cost a third of the hot path and protect nothing on JSON).
 */
export const API_HEADERS: ReadonlyArray<[string, string]> = [
  ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
  ["X-Content-Type-Options", "nosniff"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["Cache-Control", "no-store"],
];

/** Sent on every answer to a request that came over https (and only then). */
export const HSTS = "max-age=31536000; includeSubDomains";

/**
 * The origins of the configured picture hosts (GIFT_IMAGE_BASE_URL, GALAXY_SERVICES_URL): the
 * browser fetches their pictures into Cache Storage (~/components/image-cache), so they belong
 * in `connect-src` as well as `img-src` (issue 19: the demo's simulator serves them over http
 * from 127.0.0.1, which `https:` does not cover).
 */
export function pictureOrigins(env: Pick<ReturnType<typeof getEnv>, "GIFT_IMAGE_BASE_URL" | "GALAXY_SERVICES_URL">): string[] {
  const origins = new Set<string>();
  for (const url of [env.GIFT_IMAGE_BASE_URL, env.GALAXY_SERVICES_URL]) {
    try {
      const u = new URL(url);
      if (u.protocol === "http:" || u.protocol === "https:") origins.add(u.origin);
    } catch {
      // Not a URL (the env schema checks GIFT_IMAGE_BASE_URL; the services URL is free text): nothing to allow.
    }
  }
  return [...origins];
}

export function mountRequestHygiene(app: Express, options: { dev: boolean }) {
  const env = getEnv();
  const pictures = pictureOrigins(env);
  const refuseOddPaths: RequestHandler = (req, res, next) => {
    const why = refusePath(req.originalUrl);
    if (!why) return next();
    res.status(400).set("Cache-Control", "no-store");
    // /api answers in the contract's shape, whatever went wrong (issue 21: 38 refusals were text/plain).
    const text = `Bad request: ${why}`;
    if (looksLikeApi(req.originalUrl)) res.json({ error: text, message: text });
    else res.type("text/plain").send(text);
  };
  const https = (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]) => {
    if (req.secure || env.SECURE_COOKIES) {
      if (req.secure) res.setHeader("Strict-Transport-Security", HSTS);
      secureSetCookies(res);
    }
  };
  const pageHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        // Every script Remix renders carries the request's nonce (app/entry.server.tsx);
        // inline scripts without it do not run. Vite's dev client needs eval-free inline
        // module preambles too, which get the nonce the same way.
        "script-src": ["'self'", (_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`],
        // Radix Themes sets inline style attributes; styles cannot run code.
        "style-src": ["'self'", "'unsafe-inline'"],
        // Gift pictures and avatars come from the platform's hosts (or the simulator); the
        // configured hosts are named so the picture cache may fetch them over http too.
        "img-src": ["'self'", "data:", "blob:", "https:", "http:", ...pictures],
        "connect-src": [...(options.dev ? ["'self'", "ws:", "wss:", "https:"] : ["'self'", "https:"]), ...pictures],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "upgrade-insecure-requests": null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Helmet's default "no-referrer" makes Chromium send `Origin: null` on plain form
    // posts, which the gate's same-origin check would refuse: no-JS forms would all fail.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    // Sent per request above, only when the request came over https.
    strictTransportSecurity: false,
  });
  const perRequest: RequestHandler = (req, res, next) => {
    if (API_PATH.test(req.path)) {
      // The /api reference page is the one /api answer that is a document: it sends its own
      // policy (DOCS_CSP, app/utils/api-docs-page.server.ts; Remix appends headers, and two
      // policies would both apply).
      const docsPage = API_DOCS_PAGE.test(req.path);
      for (const [name, value] of API_HEADERS) if (!(docsPage && name === "Content-Security-Policy")) res.setHeader(name, value);
      https(req, res);
      return next();
    }
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    // Static assets set their own caching (immutable / 1 h); everything else is private data.
    if (!/^\/assets\//.test(req.path) && !(req.path.includes(".") && !req.path.endsWith(".data"))) {
      res.setHeader("Cache-Control", "no-store");
    }
    https(req, res);
    pageHeaders(req, res, next);
  };
  app.use(refuseOddPaths, perRequest);
}

/** Below one packet compression saves no round trip: answers under this many bytes go as they are. */
export const COMPRESSION_THRESHOLD = 1400;

/**
 * Compression where it pays (issue 20 §4): not for answers that arrive compressed already
 * (GET /api/rates sends its cached gzip bytes; the middleware would only wrap the response
 * to find that out), and not below 1,400 bytes (one packet: gzip saves no round trip there).
 */
export function compressionWhereItPays(compress: (options: { threshold: number }) => RequestHandler): RequestHandler {
  const middleware = compress({ threshold: COMPRESSION_THRESHOLD });
  return (req, res, next) => {
    if ((req.method === "GET" || req.method === "HEAD") && PRECOMPRESSED.test(req.path)) return next();
    return middleware(req, res, next);
  };
}

/** Paths whose handlers send precompressed bytes themselves (app/routes/_app+/_exchange-rates+/rates-api.server.ts, app/utils/openapi.server.ts). */
const PRECOMPRESSED = /^\/api\/(rates|openapi\.json)$/i;

/** Over https every cookie this response sets is Secure, whichever module set it. */
function secureSetCookies(res: Parameters<RequestHandler>[1]) {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) => {
    if (name.toLowerCase() === "set-cookie") {
      const add = (c: string) => (/;\s*secure\b/i.test(c) ? c : `${c}; Secure`);
      value = Array.isArray(value) ? value.map(add) : typeof value === "string" ? add(value) : value;
    }
    return setHeader(name, value);
  };
}

/**
 * Last resort for errors thrown outside Remix (static files, the gate, the board): a
 * status from the error when it has one (`express.static` 403/404), else 500, never a
 * stack trace. /api paths answer in the contract's JSON shape.
 */
export const expressErrorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  let status = Number((err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode) || 500;
  // express.static answers 403 to paths it finds malicious: to a caller that is just "nothing here".
  if (status === 403 && /^\/assets\//i.test(req.path)) status = 404;
  if (status >= 500) console.error("[http]", req.method, req.path, (err as Error).message);
  const text = status === 404 ? "Not found" : status === 403 ? "Forbidden" : status < 500 ? "Bad request" : "Internal server error";
  res.status(status).set("Cache-Control", "no-store");
  if (/^\/api(\/|$)/i.test(req.path)) res.json({ error: text, message: text });
  else res.type("text/plain").send(text);
};
