import { DrizzleQueryError } from "drizzle-orm";
import { DEPENDENCY_DOWN, DEPENDENCY_RETRY_S, type Dependency } from "#api/dependencies";
import { AppError } from "./app-error";

/**
 * "This dependency is unreachable" (issue 29 item 3; docs/decisions/0029): the AppError every
 * edge answers as 503 `{ error, message, dependency }` with `Retry-After`, and pages render as
 * the error page naming what is unreachable.
 */
export class DependencyDownError extends AppError {
  constructor(
    readonly dependency: Dependency,
    options: { cause?: unknown } = {},
  ) {
    super(503, DEPENDENCY_DOWN[dependency], { headers: { "Retry-After": String(DEPENDENCY_RETRY_S) }, body: { dependency } });
    this.name = "DependencyDownError";
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "ECONNABORTED"]);
const PG_CONNECTION_TEXTS = [
  "timeout exceeded when trying to connect",
  "Connection terminated",
  "Query read timeout",
  "is not queryable",
  "Client was closed and is not queryable",
  "Connection terminated due to connection timeout",
];

/**
 * Is this a failure to reach PostgreSQL (not a failure of the query itself)? Refused or reset
 * sockets, node-postgres' connect and read timeouts, a connection that ended under a query,
 * and the server's own "shutting down / cannot connect now" (SQLSTATE 57P0x, class 08).
 */
export function isDbConnectivityError(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  if (NETWORK_CODES.has(code) || /^57P0[1-3]$/.test(code) || /^08/.test(code)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  return PG_CONNECTION_TEXTS.some((t) => message.includes(t));
}

/**
 * The DependencyDownError inside `err` (Drizzle wraps a driver's error as `cause`), if any.
 * A query's connectivity error that the pool did not translate (a transaction runs on its own
 * checked-out client) counts too, but only under Drizzle's wrapper: a reset socket of some
 * other call (the Galaxy platform) is not the database. `onDbError` hears about it.
 */
export function findDependencyDown(err: unknown, onDbError?: (cause: unknown) => void): DependencyDownError | null {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (e instanceof DependencyDownError) return e;
    const cause = (e as { cause?: unknown }).cause;
    if (e instanceof DrizzleQueryError && isDbConnectivityError(cause)) {
      onDbError?.(cause);
      return new DependencyDownError("database", { cause });
    }
    e = cause;
  }
  return null;
}
