/**
 * The /api contract of the audit trail (issue 21; docs/decisions/0016). Client-safe: the
 * /audit page parses its URL with the same function.
 *
 *   GET /api/audit?operator&action&target&from&to&before&after&limit
 *     → { entries: AuditEntryDto[], page, limit, hasMore, next, prev }   newest first
 *
 * operator: an operator's name (exact, any case; "(command line)" for CLI commands) or id;
 * action: part of the action's name; target: part of the target's text (any case);
 * from / to (also since / until): ISO times or dates (YYYY-MM-DD: from the day's start, to its
 * end, UTC); limit: 1–200 (default 50).
 * Paging is by keyset on (at, id) (issue 28; docs/decisions/0025): `next` is the cursor of the
 * page of older entries (pass it as `before`), `prev` of the newer ones (pass it as `after`);
 * null when there is none. `page` (1-based, offset paging) is still read for old scripts, up to
 * MAX_OFFSET entries deep.
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

export type AuditListDto = { entries: AuditEntryDto[]; page: number; limit: number; hasMore: boolean; next: string | null; prev: string | null };

/** A position in the trail: the time (to the microsecond, as stored) and id of an entry. */
export type AuditCursor = { at: string; id: number };

/** GET /api/audit's and /audit's query, as parseAuditQuery reads it (listAudit takes it too). */
export type AuditQuery = {
  /** An operator's name (exact, any case) or id. */
  operator?: string;
  /** Part of the action's name ("/api/rates", "create-user", "operator."). */
  action?: string;
  /** Part of the target's text, any case ("Kazensar", "123456", "Gold Ring"). */
  target?: string;
  from?: Date;
  to?: Date;
  /** Keyset paging on (at, id): entries older than this one (the `next` cursor)… */
  before?: AuditCursor;
  /** …or newer than this one (the `prev` cursor). */
  after?: AuditCursor;
  /** 1-based offset paging, kept for old scripts (bounded by AUDIT_MAX_OFFSET). */
  page: number;
  limit: number;
};

export const AUDIT_QUERY_KEYS = ["operator", "action", "target", "from", "to", "since", "until", "before", "after", "page", "limit"] as const;

/** Offset paging (`page`) reads no deeper than this: past it, the cursors page at any depth. */
export const AUDIT_MAX_OFFSET = 10_000;

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)~(\d{1,18})$/;

export function encodeAuditCursor(c: AuditCursor): string {
  return `${c.at}~${c.id}`;
}

export function decodeAuditCursor(text: string): AuditCursor | null {
  const m = CURSOR.exec(text);
  if (!m || Number.isNaN(Date.parse(m[1]!))) return null;
  return { at: m[1]!, id: Number(m[2]) };
}
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
  query.target = text("target");
  for (const key of ["before", "after"] as const) {
    const v = text(key);
    if (!v) continue;
    const c = decodeAuditCursor(v);
    if (!c) return { error: `Invalid ${key}: use the next or prev cursor of an answer` };
    query[key] = c;
  }
  if (query.before && query.after) return { error: "Use before or after, not both" };
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
  if ((page - 1) * limit > AUDIT_MAX_OFFSET)
    return { error: `Invalid page: offset paging reaches ${AUDIT_MAX_OFFSET} entries; page further with the next cursor (before)` };
  if (page > 1 && (query.before || query.after)) return { error: "Use page or a cursor (before / after), not both" };
  query.page = page;
  query.limit = limit;
  return { query };
}
