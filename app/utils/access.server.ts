import type { AuthResult } from "./auth.server";
import { canWrite, writeRefusal } from "./auth.server";
import { ADMIN_ONLY } from "./roles";

/**
 * Who may make which write (issue 21; docs/decisions/0016), decided in one place for every
 * present and future route: the Express gate asks before any route runs, and the route
 * guard (app/utils/route-guard.server.ts) asks again inside Remix.
 *
 * - "team" (the default: every page action and /api write): operators and admins with a
 *   token that is not read-only. A new route is a team write without being listed here.
 * - "personal": the operator's own things — logging out, the theme cookie, their own
 *   password and API tokens on /settings (whose admin intents check the role themselves).
 *   Every role may make these.
 * - "admin": the queue board's writes (retry, add, clean, pause, remove jobs) and backups
 *   (/settings/backup, POST /api/backup).
 */
export type WriteRule = "team" | "personal" | "admin";

const PERSONAL = new Set(["/logout", "/resources/theme", "/settings"]);
const ADMIN = [/^\/admin(\/|$)/, /^\/settings\/backup$/, /^\/api\/backup$/];

/** The path a rule is looked up by: lower case, no `.data` suffix (Remix's fetch form of a page), no trailing slash. */
export function rulePath(path: string): string {
  const p = path.toLowerCase().replace(/\.data$/, "");
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}

export function writeRuleFor(path: string): WriteRule {
  const p = rulePath(path);
  if (ADMIN.some((re) => re.test(p))) return "admin";
  if (PERSONAL.has(p)) return "personal";
  return "team";
}

export const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The refusal text for this write by this requester, or null when it may go ahead. */
export function writeAccessRefusal(method: string, path: string, auth: Pick<AuthResult, "operator" | "token">): string | null {
  if (!WRITE_METHODS.has(method.toUpperCase())) return null;
  const rule = writeRuleFor(path);
  if (rule === "personal") return null;
  const refusal = writeRefusal(auth);
  if (refusal) return refusal;
  if (rule === "admin" && auth.operator.role !== "admin") return ADMIN_ONLY;
  return null;
}

export { canWrite };
