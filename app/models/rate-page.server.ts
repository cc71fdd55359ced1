import { sql, type SQL } from "drizzle-orm";
import type { RatesMap, Tier } from "#api/rates";
import { GIFTS, GIFT_NAMES, giftMatches } from "~/data/gifts";
import { getDb } from "~/db/client.server";
import { ratesSnapshot, toRateData, type RatesSnapshot } from "~/models/rate.server";
import { remember } from "~/utils/remember.server";

/**
 * One page of the Exchange Rates section (issue 20 "Bounded pages"; spec 1 §2 "Exchange
 * Rates section"). The pairs are listed as the section always listed them — grouped by
 * input gift, groups by their oldest pair, outputs by creation — and the filters are the
 * spec's (incoming and outgoing search: case-insensitive substring of the gift's name or
 * nick; the item dropdown). What is new: the page holds at most `RATE_PAGE_SIZE` pairs of
 * that list, page `page` of it; a group may start on one page and go on on the next.
 *
 * Two queries, neither bringing the table into the process:
 * 1. one row per input gift (`group by input_item`): its place, how many outputs it has,
 *    how many match the outgoing search, and which catalogue gifts it already uses (the add
 *    dialogs' '(already used)'). The item dropdown, the group counts, the totals and which
 *    slice of which groups the page covers come from it.
 * 2. the page's pairs only: for each group the page covers, its matching outputs from
 *    offset `lo`, at most `n` of them (a lateral `offset … limit` per group, served by the
 *    pair index).
 * See docs/decisions/0005-rates-api.md, "The section's page".
 */

export const RATE_PAGE_SIZE = 40;

export type RatesPageQuery = {
  /** Incoming-gift search (spec 1 §2). */
  incoming?: string;
  /** Outgoing-gift search. */
  outgoing?: string;
  /** One input gift ('All Items' = ""). */
  item?: string;
  /** 1-based; beyond the last page means the last page. */
  page?: number;
  /** Pairs per page (tests use small pages). */
  size?: number;
};

export type RatesPageGroup = {
  input: string;
  /** Every output the input has (the header's count, spec 1 §2). */
  total: number;
  /** Outputs matching the outgoing search. */
  matching: number;
  /** Index, among the matching outputs, of the first one on this page (0 unless continued). */
  from: number;
};

export type RatesPage = {
  /** The page's pairs, in list order (the same nested shape as GET /api/rates). */
  rates: RatesMap;
  /** The groups the page shows, in order. */
  groups: RatesPageGroup[];
  /** Every input gift, sorted (the item dropdown). */
  inputs: string[];
  /** Per input gift, the catalogue gifts it already has as outputs (the add dialogs). */
  used: Record<string, string[]>;
  page: number;
  pages: number;
  size: number;
  /** Pairs matching the filters, and pairs in the table. */
  matching: number;
  total: number;
};

type GroupRow = { input: string; total: number; matching: number; used: string[] };
type PairRow = { id: string; input: string; output: string; tiers: Tier[]; status: boolean };

/** The outgoing search as SQL: the name holds the text, or the name is one whose nick does. */
function outputMatch(query: string): SQL {
  const q = query.trim().toLowerCase();
  if (!q) return sql`true`;
  const byNick = GIFTS.filter((g) => g.nick.toLowerCase().includes(q)).map((g) => g.name);
  const nick = byNick.length
    ? sql` or output_item in (${sql.join(
        byNick.map((n) => sql`${n}`),
        sql`, `,
      )})`
    : sql``;
  return sql`(strpos(lower(output_item), ${q}) > 0${nick})`;
}

/** Both drivers (node-postgres, PGlite) answer `{ rows }`; the Db type does not say so. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

async function readGroups(match: SQL): Promise<GroupRow[]> {
  const db = await getDb();
  const catalogue = sql.join(
    GIFT_NAMES.map((n) => sql`${n}`),
    sql`, `,
  );
  return rowsOf<GroupRow>(
    await db.execute(sql`
      select input_item as input,
             count(*)::int as total,
             (count(*) filter (where ${match}))::int as matching,
             coalesce(json_agg(output_item order by position) filter (where output_item in (${catalogue})), '[]'::json) as used
        from exchange_rates
       group by input_item
       order by min(position)`),
  );
}

/** The last unfiltered group summary and the rates snapshot it belongs to (one entry: bounded). */
const groupMemo = remember("rates-page-groups", () => ({ snapshot: null as RatesSnapshot | null, rows: null as GroupRow[] | null }));

/**
 * The group summary without an outgoing search (every render of the section but a search's),
 * remembered for as long as the rates snapshot of GET /api/rates stays the same (issue 32
 * item 1: the `group by` reads every pair, 10,000 at the bench's largest size). The snapshot
 * is dropped at once by a write in this process and within RATES_RECHECK_MS of a write by
 * another (rate.server.ts); a summary read while a write landed is stored under the snapshot
 * read before it, so the next change of snapshot reads it again.
 */
async function unfilteredGroups(): Promise<GroupRow[]> {
  const snapshot = await ratesSnapshot();
  // The same snapshot object until a write drops it (rate.server.ts builds a new one).
  const memo = groupMemo;
  if (memo.snapshot === snapshot && memo.rows) return memo.rows;
  const rows = await readGroups(sql`true`);
  memo.snapshot = snapshot;
  memo.rows = rows;
  return rows;
}

/** Forget the remembered group summary (tests). */
export function forgetRatesPageMemo() {
  groupMemo.snapshot = null;
  groupMemo.rows = null;
}

export async function ratesPage(query: RatesPageQuery = {}): Promise<RatesPage> {
  const db = await getDb();
  const size = Math.max(1, Math.floor(query.size ?? RATE_PAGE_SIZE));
  const match = outputMatch(query.outgoing ?? "");
  const groupRows = (query.outgoing ?? "").trim() ? await readGroups(match) : await unfilteredGroups();

  const inputs = groupRows.map((g) => g.input).sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }));
  const used = Object.fromEntries(groupRows.filter((g) => g.used.length).map((g) => [g.input, g.used]));
  const total = groupRows.reduce((sum, g) => sum + g.total, 0);
  const shown = groupRows.filter((g) => g.matching > 0 && (!query.item || g.input === query.item) && giftMatches(g.input, query.incoming ?? ""));
  const matching = shown.reduce((sum, g) => sum + g.matching, 0);
  const pages = Math.max(1, Math.ceil(matching / size));
  const page = Math.min(pages, Math.max(1, Math.floor(query.page ?? 1) || 1));

  // Which slice of which group the page covers.
  const start = (page - 1) * size;
  const end = start + size;
  const want: Array<{ input: string; lo: number; n: number }> = [];
  const groups: RatesPageGroup[] = [];
  let at = 0;
  for (const g of shown) {
    const lo = Math.max(start, at);
    const hi = Math.min(end, at + g.matching);
    if (lo < hi) {
      want.push({ input: g.input, lo: lo - at, n: hi - lo });
      groups.push({ input: g.input, total: g.total, matching: g.matching, from: lo - at });
    }
    at += g.matching;
    if (at >= end) break;
  }

  const rates: RatesMap = {};
  if (want.length) {
    const pairs = rowsOf<PairRow>(
      await db.execute(sql`
        select r.id, r.input_item as input, r.output_item as output, r.tiers, r.status
          from rows from (jsonb_to_recordset(${JSON.stringify(want)}::jsonb) as (input text, lo int, n int))
               with ordinality as w(input, lo, n, k)
          cross join lateral (
            select id, input_item, output_item, tiers, status, position
              from exchange_rates
             where input_item = w.input and ${match}
             order by position
            offset w.lo limit w.n
          ) r
         order by w.k, r.position`),
    );
    for (const g of groups) rates[g.input] = {};
    for (const p of pairs) rates[p.input]![p.output] = toRateData(p);
  }
  return { rates, groups, inputs, used, page, pages, size, matching, total };
}
