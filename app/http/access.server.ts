import type { AuthResult } from "./auth.server";
import { canWrite } from "./auth.server";
import { ADMIN_ONLY, READ_ONLY_TOKEN_REFUSAL, roleCanWrite, VIEWER_REFUSAL } from "../utils/roles";

/**
 * May this credential make this write? One rule, in one place, for every present and future
 * route (issue 28; docs/decisions/0024, which replaced 0016's path-first order): the Express
 * gate asks before any route runs, the route guard (app/http/route-guard.server.ts) asks
 * around every action of the build, `apiRoute()` asks again for /api. All three call
 * `writeAccessRefusal`, nothing else decides.
 *
 * The credential is judged first, the path second:
 *
 * 1. Reads (GET, HEAD, OPTIONS) are never refused here.
 * 2. An API token that is read-only writes nothing, anywhere — /settings, /resources/theme,
 *    /logout, /admin/queues/api/* included. (Before issue 28, "personal" paths were let
 *    through first, and a read-only token could mint a full one on /settings.)
 * 3. A viewer's API token writes nothing either: personal writes (own tokens, password,
 *    theme, logout) belong to the viewer's own browser session, and a script of a viewer
 *    has nothing it may change. So no token can ever do more than read for a viewer.
 * 4. /logout ends a browser session: a request that authenticates with a token cannot log
 *    out (there is nothing to end; its token is revoked on /settings).
 * 5. Only then the path: "personal" paths (/settings' own-token and own-password intents,
 *    /resources/theme, /logout) are open to every role's cookie session and to writing
 *    tokens; "admin" paths (the queue board, backups, the operators' intents on /settings)
 *    need an admin; everything else ("team", the default: a new route is a team write
 *    without being listed) needs the operator or admin role.
 *
 * Per-intent rules exist only where one route mixes personal and admin forms (/settings):
 * the gate cannot see the intent (it never reads a body), so it applies the path's rule,
 * and the route guard, which reads the body, applies the intent's.
 */
export type WriteRule = "team" | "personal" | "admin";

// /login and /setup are public forms that carry their own password: a cookie session of any
// role may post them (logging in as someone else); a token still may not (rule 2, 3).
const PERSONAL = new Set(["/logout", "/resources/theme", "/settings", "/login", "/setup"]);
const ADMIN = [/^\/admin(\/|$)/, /^\/settings\/backup$/, /^\/api\/backup$/, /^\/api\/alerts(\/|$)/];

/**
 * The admin forms of a route whose other forms are personal: the route guard refuses them
 * before the action runs (as the gate does for an admin path), so a refusal is the same
 * 403 `{ error, message }` from every route.
 */
const ADMIN_INTENTS: Record<string, ReadonlySet<string>> = {
  "/settings": new Set(["create-operator", "set-role", "reset-password", "delete-operator", "alert-add", "alert-remove", "alert-test"]),
};

/** The path a rule is looked up by: lower case, no `.data` suffix (Remix's fetch form of a page), no trailing slash. */
export function rulePath(path: string): string {
  const p = path.toLowerCase().replace(/\.data$/, "");
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}

export function writeRuleFor(path: string, intent?: string | null): WriteRule {
  const p = rulePath(path);
  if (ADMIN.some((re) => re.test(p))) return "admin";
  if (intent && ADMIN_INTENTS[p]?.has(intent)) return "admin";
  if (PERSONAL.has(p)) return "personal";
  return "team";
}

/** The intents of this path that need an admin (for the route guard and the standing test). */
export function adminIntentsOf(path: string): readonly string[] {
  return [...(ADMIN_INTENTS[rulePath(path)] ?? [])];
}

export const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const TOKEN_CANNOT_LOG_OUT = "An API token cannot log out: revoke it on Settings instead";

type Credential = Pick<AuthResult, "operator" | "token"> & { via?: AuthResult["via"] };

/**
 * The refusal text for this write by this credential, or null when it may go ahead.
 * `intent` is the form's intent when the caller has read the body (the route guard).
 */
export function writeAccessRefusal(method: string, path: string, auth: Credential, intent?: string | null): string | null {
  if (!WRITE_METHODS.has(method.toUpperCase())) return null;
  // The credential first: nothing below may let a read-only or a viewer's token write.
  if (auth.token) {
    if (auth.token.readOnly) return READ_ONLY_TOKEN_REFUSAL;
    if (!roleCanWrite(auth.operator.role)) return VIEWER_REFUSAL;
  }
  const rule = writeRuleFor(path, intent);
  if (rule === "personal") {
    if (auth.token && rulePath(path) === "/logout") return TOKEN_CANNOT_LOG_OUT;
    return null;
  }
  if (!roleCanWrite(auth.operator.role)) return VIEWER_REFUSAL;
  if (rule === "admin" && auth.operator.role !== "admin") return ADMIN_ONLY;
  return null;
}

/**
 * Whether an API token this credential creates must be read-only whatever the form says:
 * a viewer's token can never exceed the viewer's rights, today or after a promotion.
 * (A read-only token never gets this far: rule 2.)
 */
export function mintsReadOnlyTokens(auth: Credential): boolean {
  return !canWrite(auth);
}

export { canWrite };
