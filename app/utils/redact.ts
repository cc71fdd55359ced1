import { errorText, scrubLogText } from "./errors";

/**
 * The one redaction rule (System Logs, the audit trail and the structured process log, issue
 * 31 item 4): keys that name a secret are blanked whatever the caller passes, errors reduced
 * to safe text, "Failed query: …" scrubbed from strings.
 */
const SECRET_KEYS = /pass(word)?|secret|token|rc$|recovery|authorization|cookie|sek/i;

/** Does a field of this name hold a secret (its value never reaches System Logs, the audit trail or the process log)? */
export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.test(key);
}

/** A copy of `value` with secret-looking keys blanked (see above). */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubLogText(value);
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) return { name: value.name, message: errorText(value) };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.test(k) ? "[redacted]" : redact(v, depth + 1);
  return out;
}
