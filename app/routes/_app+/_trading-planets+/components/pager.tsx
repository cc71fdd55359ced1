import { Link, useLocation } from "@remix-run/react";

/**
 * Pages of the Trading Planets lists (issue 20 "Bounded pages"; docs/trading-planets.md
 * "Pages"): the server renders one page of sequences and one page of each ads section. The
 * page is URL state (`seqPage`, `adsPage`, `msgPage`, `traderPage`), so the plain links work without
 * JavaScript and the other lists, the Custom Planets tab and multi-select stay as they are.
 */
export const PAGE_PARAMS = { sequences: "seqPage", ads: "adsPage", msg: "msgPage", traders: "traderPage" } as const;

/**
 * The searches (issue 32 item 2: any row in a few steps without JavaScript): `seqQ` the
 * sequences by name, `adQ` both ads sections by text; GET forms, like the pages.
 */
export const SEARCH_PARAMS = { sequences: "seqQ", ads: "adQ" } as const;

/** A page of a list: which one is shown (1-based), how many there are, all rows, rows per page. */
export type ListPage = { page: number; pages: number; total: number; per: number };

/** URL state that belongs to one row or one question: dropped when the page changes. */
const TRANSIENT = ["confirm", "ad", "ids", "sequence"];

/** This URL with `param` on `page` (page 1 is the bare URL). */
export function pageHref(pathname: string, search: string, param: string, page: number): string {
  const next = new URLSearchParams(search);
  for (const p of TRANSIENT) next.delete(p);
  if (page > 1) next.set(param, String(page));
  else next.delete(param);
  const s = next.toString();
  return `${pathname}${s ? `?${s}` : ""}`;
}

const LINK = "rt-reset rt-BaseButton rt-r-size-1 rt-variant-soft rt-Button gt-touch";

/** "Showing 51–100 of 1,000" and "← Previous" / "Next →" links; nothing when everything fits on one page. */
export function Pager({ label, param, of }: { label: string; param: string; of?: ListPage }) {
  const location = useLocation();
  if (!of || of.pages <= 1) return null;
  const first = (of.page - 1) * of.per + 1;
  const last = Math.min(of.total, of.page * of.per);
  const href = (page: number) => pageHref(location.pathname, location.search, param, page);
  return (
    <nav className="gt-pager" aria-label={label}>
      {of.page > 1 ? (
        <Link to={href(of.page - 1)} className={LINK} data-accent-color="gray" rel="prev" preventScrollReset>
          ← Previous
        </Link>
      ) : null}
      <span className="rt-Text rt-r-size-1" data-accent-color="gray">
        {`Showing ${first.toLocaleString("en-US")}–${last.toLocaleString("en-US")} of ${of.total.toLocaleString("en-US")} · page ${of.page} of ${of.pages}`}
      </span>
      {of.page < of.pages ? (
        <Link to={href(of.page + 1)} className={LINK} data-accent-color="gray" rel="next" preventScrollReset>
          Next →
        </Link>
      ) : null}
    </nav>
  );
}
