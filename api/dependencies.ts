/**
 * What the web says when a dependency it needs is unreachable (issue 29 item 3, "A web that
 * degrades"; docs/decisions/0029). Client-safe: the shell's banner, the error page and the
 * server's 503 answers read the same texts from here.
 */
export type Dependency = "database" | "redis";
export type DependencyState = "up" | "down";

/** The one text per dependency: the 503 `{ error, message }`, the error page, the banner. */
export const DEPENDENCY_DOWN: Record<Dependency, string> = {
  database: "The database is unreachable",
  // Also the job endpoints' 503 (api/jobs.ts JOB_ERRORS.offline), so every Redis answer reads the same.
  redis: "Job engine offline: Redis is not reachable",
};

/** The error page's heading per dependency. */
export const DEPENDENCY_TITLE: Record<Dependency, string> = {
  database: "Database unreachable",
  redis: "Job engine unreachable",
};

/** Seconds a client should wait before trying again (`Retry-After`, the error page's refresh). */
export const DEPENDENCY_RETRY_S = 5;

/**
 * The live stream's `degraded` event (GET /api/events): sent when a stream opens and whenever
 * a dependency of this web process goes down or comes back; `down` empty means all is well.
 */
export type DegradedEvent = { down: Dependency[]; messages: string[]; at: number };

/** Extra fields of a 503 body that names the dependency (next to `error` and `message`). */
export type DependencyDownBody = { error: string; message: string; dependency: Dependency };

export function isDependencyDownBody(value: unknown): value is DependencyDownBody {
  if (!value || typeof value !== "object") return false;
  const v = value as Partial<DependencyDownBody>;
  return (v.dependency === "database" || v.dependency === "redis") && typeof v.message === "string";
}
