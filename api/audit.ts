/**
 * The /api contract of the audit trail (issue 21; docs/decisions/0016). Client-safe: the
 * /audit page parses its URL with the same function.
 *
 *   GET /api/audit?operator&action&from&to&page&limit
 *     → { entries: AuditEntryDto[], page, limit, hasMore }   newest first
 *
 * operator: an operator's name (exact, any case; "(command line)" for CLI commands) or id;
 * action: part of the action's name; from / to (also since / until): ISO times or dates
 * (YYYY-MM-DD: from the day's start, to its end, UTC); page: 1-based; limit: 1–200 (default 50).
 */
export type AuditEntryDto = {
  _id: string;
  at: string;
  /** The operator's name at the time. */
  operator: string;
  /** The API token's name when the change came with one. */
  token: string | null;
  action: string;
  target: string;
  details: Record<string, unknown> | null;
};

export type AuditListDto = { entries: AuditEntryDto[]; page: number; limit: number; hasMore: boolean };

export type AuditQuery = { operator?: string; action?: string; from?: Date; to?: Date; page: number; limit: number };

export const AUDIT_QUERY_KEYS = ["operator", "action", "from", "to", "since", "until", "page", "limit"] as const;
/** Other names scripts reach for. */
const ALIASES: Record<"from" | "to", string[]> = { from: ["from", "since"], to: ["to", "until"] };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function parseTime(value: string, end: boolean): Date | null {
  const text = DATE_ONLY.test(value) ? `${value}T${end ? "23:59:59.999" : "00:00:00.000"}Z` : value;
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}

function parsePositive(value: string | null, fallback: number, max: number, what: string): number | string {
  if (value === null || value === "") return fallback;
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1) return `Invalid ${what}: use a whole number from 1`;
  return Math.min(Number(value), max);
}

/** The filters of a URL's query, or the first problem's text (a 400 for /api). */
export function parseAuditQuery(params: URLSearchParams): { query: AuditQuery } | { error: string } {
  const query: AuditQuery = { page: 1, limit: 50 };
  for (const key of AUDIT_QUERY_KEYS) {
    // eslint-disable-next-line no-control-regex -- control characters and lone surrogates are refused.
    if (/[\u0000-\u001f\u007f]|\p{Cs}/u.test(params.get(key) ?? "")) return { error: `Invalid ${key}: it contains control characters` };
  }
  const text = (key: string) => {
    const v = params.get(key)?.trim();
    return v ? v.slice(0, 200) : undefined;
  };
  query.operator = text("operator");
  query.action = text("action");
  for (const key of ["from", "to"] as const) {
    const v = ALIASES[key].map(text).find((x) => x !== undefined);
    if (!v) continue;
    const d = parseTime(v, key === "to");
    if (!d) return { error: `Invalid ${key}: use an ISO time or a date (YYYY-MM-DD)` };
    query[key] = d;
  }
  const page = parsePositive(params.get("page"), 1, 100_000, "page");
  if (typeof page === "string") return { error: page };
  const limit = parsePositive(params.get("limit"), 50, 200, "limit");
  if (typeof limit === "string") return { error: limit };
  query.page = page;
  query.limit = limit;
  return { query };
}
