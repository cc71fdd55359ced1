/**
 * Search by nick or account id (issue 19 item 14), shared by All Characters and Bowling Bots:
 * `?q=` in the URL, read by the loader, so it filters every row on the server and works
 * without JavaScript. Client-safe (the search box reads the same param).
 *
 * [D] A case-insensitive substring of the nick or of the account id; surrounding blanks are
 * ignored; a blank query matches everything. The totals and the gift filter grid keep
 * counting every account (they describe the fleet, not the search); the page says how many
 * of how many match.
 */
export const SEARCH_PARAM = "q";
/** A longer query matches nothing a nick or id could hold; cut so a pasted essay stays cheap. */
export const SEARCH_MAX = 100;

/** The query of a URL: trimmed, lower-cased, at most SEARCH_MAX characters ("" = no search). */
export function searchQuery(params: URLSearchParams, param = SEARCH_PARAM): string {
  const values = params.getAll(param);
  return (values.length === 1 ? values[0]! : "").trim().slice(0, SEARCH_MAX);
}

/** Whether a row with this nick and account id matches the query. */
export function matchesSearch(query: string, row: { nick: string; account_id: string }): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return row.nick.toLowerCase().includes(q) || row.account_id.toLowerCase().includes(q);
}

/** "3 of 120 characters match "ab"" (singular for one). */
export function searchSummary(shown: number, total: number, noun: [singular: string, plural: string], query: string): string {
  return `${shown} of ${total} ${total === 1 ? noun[0] : noun[1]} ${shown === 1 ? "matches" : "match"} “${query}”`;
}
