import { AsyncLocalStorage } from "node:async_hooks";
import { createCookie, redirect, type Cookie } from "@remix-run/node";
import { findToken } from "~/models/api-token.server";
import { createSession, deleteSession, findSession, operatorExists, SESSION_TOKEN, SESSION_TTL_MS, type Operator } from "~/models/operator.server";
import { getEnv } from "../utils/env.server";
import { ADMIN_ONLY, READ_ONLY_TOKEN_REFUSAL, roleCanWrite, VIEWER_REFUSAL, type Role } from "../utils/roles";
import { deriveKey } from "../utils/secrets.server";
import { remember } from "~/utils/remember.server";

/**
 * Operator authentication (docs/auth.md): a signed, httpOnly, SameSite=Lax cookie holding
 * only a random session token (the operator_sessions row keeps its SHA-256), or
 * `Authorization: Bearer gtk_…` for scripts. Roles (docs/decisions/0016) travel with the
 * verdict: `canWrite(result)` is what the gate and the route guards ask.
 *
 * The Express gate (auth-gate.server.ts) authenticates every request before Remix runs and
 * leaves its answer in an AsyncLocalStorage context, so `requireOperator` in a loader costs
 * no second query. Loaders called without the gate (tests, scripts) look the session up
 * themselves.
 */
export type AuthOperator = Operator;

export const SESSION_COOKIE_NAME = "gt_session";
/** Set by the gate from Express's `req.ip` (honours `trust proxy`); any client-sent value is replaced. */
export const CLIENT_IP_HEADER = "x-galaxy-toolbox-client-ip";
export const AUTH_REQUIRED = "Authentication required";

export type AuthResult = {
  operator: AuthOperator;
  via: "session" | "token";
  /** The session row's id (never sent anywhere; logout and password changes use it). */
  sessionId?: string;
  /** The cookie's token, to re-send the cookie after a rolling refresh. */
  sessionToken?: string;
  /** The session's expiry was pushed ahead; the cookie should be re-sent. */
  refreshed?: boolean;
  /** The API token the request came with. */
  token?: { id: string; name: string; readOnly: boolean };
};

/** May this request change anything? Viewers and read-only tokens may not. */
export function canWrite(result: Pick<AuthResult, "operator" | "token">): boolean {
  return roleCanWrite(result.operator.role) && !result.token?.readOnly;
}

/** Why this request may not change anything (the refusal's text), or null when it may. */
export function writeRefusal(result: Pick<AuthResult, "operator" | "token">): string | null {
  if (!roleCanWrite(result.operator.role)) return VIEWER_REFUSAL;
  if (result.token?.readOnly) return READ_ONLY_TOKEN_REFUSAL;
  return null;
}

type AuthContext = { result: AuthResult | null };

// remember(): the gate and the routes must see the same storage, across dev reloads too.
const authContext = remember("auth-context", () => new AsyncLocalStorage<AuthContext>());
const g: { sessionCookie?: { key: string; cookie: Cookie } } = {};

/** The gate's verdict for the request being served, when it authenticated one (Express handlers). */
export function gateVerdict(): AuthResult | null {
  return authContext.getStore()?.result ?? null;
}

/** Runs `fn` (the rest of the request) with the gate's verdict attached. */
export function runWithAuth<T>(result: AuthResult | null, fn: () => T): T {
  return authContext.run({ result }, fn);
}

export function sessionCookie(): Cookie {
  // Derived per call (cheap, cached master key) so tests that switch APP_SECRET get a new cookie.
  const secret = deriveKey("session-cookie").toString("base64");
  const secure = getEnv().SECURE_COOKIES;
  const key = `${secure}:${secret}`;
  if (g.sessionCookie?.key !== key) {
    g.sessionCookie = {
      key,
      cookie: createCookie(SESSION_COOKIE_NAME, {
        httpOnly: true,
        sameSite: "lax",
        secure,
        path: "/",
        maxAge: SESSION_TTL_MS / 1000,
        secrets: [secret],
      }),
    };
  }
  return g.sessionCookie.cookie;
}

/** The session token from a Cookie header, when present and correctly signed. */
export async function readSessionToken(cookieHeader: string | null | undefined): Promise<string | null> {
  if (!cookieHeader || !cookieHeader.includes(SESSION_COOKIE_NAME)) return null;
  const value: unknown = await sessionCookie().parse(cookieHeader);
  return typeof value === "string" && SESSION_TOKEN.test(value) ? value : null;
}

/** The token of an `Authorization: Bearer …` header: undefined without the header, null when it is not a usable bearer token. */
export function bearerToken(authorization: string | null | undefined): string | null | undefined {
  if (!authorization) return undefined; // no header at all
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return m ? m[1]! : null; // null: a header that is not a usable bearer token
}

/**
 * Who is making this request: one indexed query at most (session join operator, or token
 * hash join operator). A request that sends an Authorization header is judged by it alone.
 */
export async function authenticate(headers: { cookie?: string | null; authorization?: string | null }): Promise<AuthResult | null> {
  const bearer = bearerToken(headers.authorization);
  if (bearer !== undefined) {
    if (!bearer) return null;
    const found = await findToken(bearer);
    return found ? { operator: found.operator, via: "token", token: found.token } : null;
  }
  const token = await readSessionToken(headers.cookie);
  if (!token) return null;
  const found = await findSession(token);
  if (!found) return null;
  return { operator: found.operator, via: "session", sessionId: found.session.id, sessionToken: token, refreshed: found.refreshed };
}

/** Who is making this request and how (session or token), or null: the gate's verdict when it gave one. */
export async function getAuth(request: Request): Promise<AuthResult | null> {
  const ctx = authContext.getStore();
  if (ctx?.result) return ctx.result;
  return authenticate({ cookie: request.headers.get("Cookie"), authorization: request.headers.get("Authorization") });
}

/** The logged-in operator (session or API token), or null. */
export async function getOperator(request: Request): Promise<AuthOperator | null> {
  const result = await getAuth(request);
  return result ? { id: result.operator.id, name: result.operator.name, role: result.operator.role } : null;
}

/** Where the login should send the operator back to: the path and query of this request. */
export function returnPath(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  url.searchParams.delete("_data");
  const search = url.searchParams.toString();
  return url.pathname + (search ? `?${search}` : "");
}

export function loginPath(redirectTo?: string): string {
  return redirectTo && redirectTo !== "/" ? `/login?${new URLSearchParams({ redirectTo })}` : "/login";
}

/**
 * The logged-in operator, else throws a redirect: to /setup while no operator exists,
 * otherwise to /login?redirectTo=<this page>.
 */
export async function requireOperator(request: Request): Promise<AuthOperator> {
  const operator = await getOperator(request);
  if (operator) return operator;
  if (!(await operatorExists())) throw redirect("/setup");
  throw redirect(loginPath(returnPath(request)));
}

/**
 * For pages and actions only some roles may use (operator management, backups): the
 * operator, else a redirect to the login, else 403 `{ error, message }` for another role.
 */
export async function requireRole(request: Request, roles: readonly Role[]): Promise<AuthOperator> {
  const operator = await requireOperator(request);
  if (!roles.includes(operator.role)) {
    throw Response.json({ error: ADMIN_ONLY, message: ADMIN_ONLY }, { status: 403, headers: { "Cache-Control": "no-store" } });
  }
  return operator;
}

/** For /api resource routes: session cookie or bearer token, else a 401 JSON `{ error }`. */
export async function requireApiAuth(request: Request): Promise<AuthOperator> {
  const operator = await getOperator(request);
  if (operator) return operator;
  throw Response.json(
    { error: AUTH_REQUIRED, message: AUTH_REQUIRED },
    { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="api"', "Cache-Control": "no-store" } },
  );
}

/** The row id of the session this request is made with (for logout and password changes). */
export async function getSessionId(request: Request): Promise<string | null> {
  const ctx = authContext.getStore();
  if (ctx?.result?.sessionId) return ctx.result.sessionId;
  const token = await readSessionToken(request.headers.get("Cookie"));
  return token ? ((await findSession(token))?.session.id ?? null) : null;
}

/** Starts a session; returns the Set-Cookie header value (the cookie carries the token, the database its hash). */
export async function logIn(operatorId: string): Promise<string> {
  const session = await createSession(operatorId);
  return sessionCookie().serialize(session.token);
}

/** Ends this request's session (row deleted, so the cookie is dead everywhere); returns the clearing Set-Cookie. */
export async function logOut(request: Request): Promise<string> {
  const sessionId = await getSessionId(request);
  if (sessionId) await deleteSession(sessionId);
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/**
 * A redirect target from user input, limited to paths on this site: "/x?y" passes;
 * "//evil.com", "/\\evil.com", "https://…" and anything odd fall back.
 *
 * Checked twice: the raw text, and the value we would return after the URL parser has
 * normalised it ("/.//evil" and "/x/../..//evil" both become "//evil", which a browser
 * reads as another host). Both are also checked percent-decoded (up to three rounds), so
 * "/%2F%2Fevil" or "/%5Cevil" cannot turn into a host-relative path further down the line.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (!to || typeof to !== "string") return fallback;
  if (!isSafeLocalPath(to)) return fallback;
  try {
    const url = new URL(to, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return fallback;
    const result = url.pathname + url.search + url.hash;
    if (!isSafeLocalPath(result) || !isSafeLocalPath(url.pathname)) return fallback;
    // Never bounce back into the auth pages themselves.
    if (/^\/(login|setup|logout)(\/|$|\.data)/i.test(fullyDecoded(url.pathname) ?? "")) return fallback;
    return result;
  } catch {
    return fallback;
  }
}

/** Percent-decodes until stable; null when that takes more than 3 rounds or the text is not valid percent-encoding. */
function fullyDecoded(text: string): string | null {
  let current = text;
  for (let round = 0; round <= 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null; // nobody encodes a real path that deeply
}

/**
 * One leading "/", then neither "/" nor "\\"; no backslash or control character anywhere;
 * the same once decoded, and once the decoded path is normalised ("/.%2F/x" → "/.//x" → "//x").
 */
function isSafeLocalPath(path: string): boolean {
  const decoded = fullyDecoded(path);
  if (decoded === null) return false;
  for (const p of [path, decoded]) {
    if (!p.startsWith("/") || p.startsWith("//") || p.startsWith("/\\")) return false;
    // eslint-disable-next-line no-control-regex -- a redirect target with control characters is refused.
    if (/[\u0000-\u001f\u007f\\]/.test(p)) return false;
  }
  const normalised = new URL(decoded, "http://local.invalid");
  return normalised.origin === "http://local.invalid" && !normalised.pathname.startsWith("//");
}

/** The client's IP as the gate saw it ("unknown" outside the gate, e.g. in direct action calls). */
export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) || "unknown";
}
