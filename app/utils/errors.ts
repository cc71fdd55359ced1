/**
 * Turning errors into text that is safe to store or show (issue 7 #5).
 *
 * Drizzle wraps every failed query in a DrizzleQueryError whose message is
 * "Failed query: <sql>\nparams: <values>", so `${err.message}` copies the statement and its
 * parameters (names, passwords, recovery codes…) into System Logs. PostgreSQL's own
 * messages can carry a value too: `invalid input syntax for type uuid: "<value>"`.
 */

/** The message of a failed database query without the SQL and the parameters, e.g. `value too long for type character varying(32) (22001)`. */
export function errorText(err: unknown): string {
  if (isDrizzleQueryError(err)) {
    const cause = err.cause;
    if (!cause) return "Database query failed";
    const rawCode: unknown = (cause as { code?: unknown }).code;
    const code = typeof rawCode === "string" ? rawCode : null;
    const text = hideQuotedValue(cause instanceof Error ? errorText(cause) : scrubLogText(String(cause)));
    return code && !text.includes(code) ? `${text} (${code})` : text;
  }
  if (err instanceof Error) {
    const text = scrubLogText(err.message);
    // pg / PGlite errors: a SQLSTATE code marks a database error whose message may end in a value.
    const code: unknown = (err as Error & { code?: unknown }).code;
    return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? hideQuotedValue(text) : text;
  }
  return scrubLogText(String(err));
}

/**
 * The last line of defence for any text about to be stored: drops a Drizzle
 * "Failed query: … params: …" part (and anything after it) wherever it appears.
 */
export function scrubLogText(text: string): string {
  return text.replace(/Failed query:[\s\S]*$/, "Database query failed (statement hidden)").replace(/\bparams:[\s\S]*$/, "(parameters hidden)");
}

/** `invalid input syntax for type uuid: "s3cret"` → `…: "…"`: PostgreSQL puts the offending value last, in quotes. */
function hideQuotedValue(text: string): string {
  return text.replace(/: "[\s\S]*"$/, ': "…"');
}

type DrizzleQueryErrorLike = Error & { query: string; params: unknown[]; cause?: unknown };

function isDrizzleQueryError(err: unknown): err is DrizzleQueryErrorLike {
  return (
    err instanceof Error &&
    (err.name === "DrizzleQueryError" ||
      err.constructor?.name === "DrizzleQueryError" ||
      (typeof (err as { query?: unknown }).query === "string" && "params" in err))
  );
}
