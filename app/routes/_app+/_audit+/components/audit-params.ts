/**
 * The audit page's URL (CONVENTIONS rule 6: list state lives in the URL): the filters as
 * /api/audit names them, and where the page starts (a `before` / `after` cursor; `page` for
 * links made before cursors). Client-safe.
 */
export const AUDIT_FILTER_KEYS = ["operator", "action", "target", "from", "to"] as const;

export type AuditPageParams = {
  operator?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
  before?: string;
  after?: string;
  /** Entries per page, when the URL asks for another size than the default. */
  limit?: string;
  page: number;
};

export function auditPageParams(search: URLSearchParams): AuditPageParams {
  const text = (k: string) => search.get(k)?.trim() || undefined;
  const page = Number(search.get("page"));
  return {
    operator: text("operator"),
    action: text("action"),
    target: text("target"),
    from: text("from"),
    to: text("to"),
    before: text("before"),
    after: text("after"),
    limit: text("limit"),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

export function auditPageUrl(p: Partial<AuditPageParams>): string {
  const q = new URLSearchParams();
  for (const k of [...AUDIT_FILTER_KEYS, "limit", "before", "after"] as const) if (p[k]) q.set(k, p[k]!);
  if (p.page && p.page > 1) q.set("page", String(p.page));
  const s = q.toString();
  return s ? `/audit?${s}` : "/audit";
}

/** The filters and the page size (a page link keeps them, drops the position). */
export function auditFilters(p: AuditPageParams): Partial<AuditPageParams> {
  return { ...Object.fromEntries(AUDIT_FILTER_KEYS.map((k) => [k, p[k]])), limit: p.limit };
}
