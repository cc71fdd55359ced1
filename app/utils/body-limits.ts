/**
 * How large a request body each route may send (issue 21 item 5): a 2 MB deeply nested JSON
 * body stalled the app ~190 ms, and 20 of them in parallel pushed /api/health to 7 s. Each
 * route gets what it needs; the Express gate refuses a larger declared Content-Length with
 * 413 before anything is read, and `readJson` / `readFormData` stop reading a chunked body
 * at the same limit. JSON nested deeper than MAX_JSON_DEPTH is refused before JSON.parse.
 *
 * Paths are matched lower-case without a `.data` suffix; the first match wins.
 */
const KB = 1024;
const MB = 1024 * KB;

/** Most /api bodies are ids, a name, a credential pair: 64 KB is generous. */
export const DEFAULT_API_BODY_BYTES = 64 * KB;
/** Page forms post a few fields; the Exchange Rates import posts a pasted export. */
export const DEFAULT_FORM_BODY_BYTES = 256 * KB;

const LIMITS: Array<[RegExp, number]> = [
  // Import (spec 1 §5) goes through the batch: up to 20,000 updates.
  [/^\/api\/rates\/(batch|update)$/, 2 * MB],
  [/^\/exchange-rates$/, 2 * MB],
  // A user-agent map for every account; picture lists for every bowling user.
  [/^\/api\/user-agent$/, 2 * MB],
  [/^\/api\/(bowling-users|user-details)\/user-pics$/, 256 * KB],
  // Sequences (reorder posts up to 1,000 ids), custom planets and multi-line ads.
  [/^\/api\/(planet-sequences|custom-planets|ads)(\/|$)/, 256 * KB],
  [/^\/api\/gift-rates$/, 256 * KB],
  // The queue board's "add job" posts job data.
  [/^\/admin\/queues\/api\//, 256 * KB],
];

export function bodyLimitFor(path: string): number {
  const p = path.toLowerCase().replace(/\.data$/, "");
  for (const [re, bytes] of LIMITS) if (re.test(p)) return bytes;
  return p === "/api" || p.startsWith("/api/") ? DEFAULT_API_BODY_BYTES : DEFAULT_FORM_BODY_BYTES;
}

/** Deeper JSON is no request of ours (the deepest contract body nests 4 levels). */
export const MAX_JSON_DEPTH = 32;

/**
 * The deepest nesting of arrays and objects in a JSON text, counted without parsing (one
 * pass, strings skipped), so a pathological body is refused before JSON.parse works on it.
 * Stops counting once past `limit`.
 */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}
