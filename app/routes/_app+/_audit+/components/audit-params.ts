/**
 * The audit page's URL (CONVENTIONS rule 6: list state lives in the URL): the filters as
 * /api/audit names them, and the page. Client-safe.
 */
export type AuditPageParams = { operator?: string; action?: string; from?: string; to?: string; page: number };

export function auditPageParams(search: URLSearchParams): AuditPageParams {
  const text = (k: string) => search.get(k)?.trim() || undefined;
  const page = Number(search.get("page"));
  return { operator: text("operator"), action: text("action"), from: text("from"), to: text("to"), page: Number.isInteger(page) && page > 1 ? page : 1 };
}

export function auditPageUrl(p: Partial<AuditPageParams>): string {
  const q = new URLSearchParams();
  for (const k of ["operator", "action", "from", "to"] as const) if (p[k]) q.set(k, p[k]!);
  if (p.page && p.page > 1) q.set("page", String(p.page));
  const s = q.toString();
  return s ? `/audit?${s}` : "/audit";
}
