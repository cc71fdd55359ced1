/**
 * The human text of an error answer's body — a refusal's `{ error, message }` (issue 28,
 * docs/decisions/0024) — for the error boundaries: they say the reason, never a status text
 * such as "Unexpected Server Error". Client-safe.
 */
export function refusalReason(body: unknown): string | null {
  if (typeof body === "string") return body.trim() && body.length < 300 && !/unexpected server error/i.test(body) ? body.trim() : null;
  if (!body || typeof body !== "object") return null;
  const { message, error } = body as { message?: unknown; error?: unknown };
  return typeof message === "string" && message ? message : typeof error === "string" && error ? error : null;
}
