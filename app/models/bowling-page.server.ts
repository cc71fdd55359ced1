import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { BOWLING_TYPES, type BowlingCandidate, type Companion } from "#api/bowling";
import { getDb } from "~/db/client.server";
import { memoByFleet } from "./fleet-memo.server";
import { bowlingCompanions, characterDetails, users } from "~/db/schema";
import { toDetails, type CharacterDetails } from "./character-details.server";

/**
 * What the Bowling Bots page reads (issue 20 "Bounded pages"; docs/bowling.md "Pages"): one
 * page of bowling accounts in the list's order (nick, case-insensitive, then account id),
 * filtered by the search in the database, and only that page's details and companions. The
 * totals bar describes the whole fleet, so it is summed by PostgreSQL (one aggregate, no rows
 * to this process). `GET /api/bowling-users` keeps its contract (every user; bowling-user.server.ts).
 */

/** Rows per page of /gifts. */
export const BOWLING_PAGE_SIZE = 50;

export type BowlingPageUser = { _id: string; account_id: string; nick: string };
export type BowlingPage = {
  users: BowlingPageUser[];
  /** The page shown (1-based; a page past the end shows the last one). */
  page: number;
  /** Pages of the matching accounts (at least 1). */
  pages: number;
  /** Accounts matching the search (all of them without one). */
  matching: number;
  /** Every bowling account. */
  total: number;
};

const isBowling = eq(users.type, BOWLING_TYPES.bowling);

/** `?q=`: a case-insensitive substring of the nick or of the account id (list-search.ts's rule, in SQL). */
function searchWhere(query: string): SQL | undefined {
  const q = query.trim();
  if (!q) return undefined;
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(ilike(users.nick, pattern), ilike(users.accountId, pattern));
}

/** The list's order: nick without regard to case, then account id (what GET /api/bowling-users answers, in SQL). */
const listOrder = [asc(sql`lower(${users.nick})`), asc(users.nick), asc(users.accountId)];

/** Page `page` (1-based) of the bowling accounts matching `query`, with the counts the pager and the search line need. */
export async function bowlingUsersPage({
  query = "",
  page = 1,
  size = BOWLING_PAGE_SIZE,
}: {
  query?: string;
  page?: number;
  size?: number;
}): Promise<BowlingPage> {
  const db = await getDb();
  const search = searchWhere(query);
  const [[all], [matched]] = await Promise.all([
    db.select({ n: count() }).from(users).where(isBowling),
    search ? db.select({ n: count() }).from(users).where(and(isBowling, search)) : Promise.resolve([undefined]),
  ]);
  const total = all?.n ?? 0;
  const matching = search ? (matched?.n ?? 0) : total;
  const pages = Math.max(1, Math.ceil(matching / size));
  const shown = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = await bowlingPageQuery(db, query, size, (shown - 1) * size);
  return { users: rows, page: shown, pages, matching, total };
}

/** One page of bowling accounts in list order, walked in `users_bowling_order_index` (exported for the plan test; issue 32 item 1). */
export function bowlingPageQuery(db: Awaited<ReturnType<typeof getDb>>, query: string, limit: number, offset: number) {
  return db
    .select({ _id: users.id, account_id: users.accountId, nick: users.nick })
    .from(users)
    .where(and(isBowling, searchWhere(query)))
    .orderBy(...listOrder)
    .limit(limit)
    .offset(offset);
}

/** The stored details of these accounts only. */
export async function bowlingDetailsOf(accountIds: string[]): Promise<Map<string, CharacterDetails>> {
  if (!accountIds.length) return new Map();
  const db = await getDb();
  const rows = await db.select().from(characterDetails).where(inArray(characterDetails.accountId, accountIds));
  return new Map(rows.map((r) => [r.accountId, toDetails(r)]));
}

export type PageCompanion = Companion & { supplierNick: string | null; consumerNick: string | null };

const supplierUser = alias(users, "supplier_user");
const consumerUser = alias(users, "consumer_user");

/** The companions of these bowling accounts with their supplier's and consumer's nicks, and how many companions exist. */
export async function bowlingCompanionsOf(accountIds: string[]): Promise<{ byBowlingId: Map<string, PageCompanion>; count: number }> {
  const db = await getDb();
  const [rows, [all]] = await Promise.all([
    accountIds.length
      ? db
          .select({
            _id: bowlingCompanions.id,
            bowling_id: bowlingCompanions.bowlingId,
            supplier: bowlingCompanions.supplier,
            consumer: bowlingCompanions.consumer,
            supplierNick: supplierUser.nick,
            consumerNick: consumerUser.nick,
          })
          .from(bowlingCompanions)
          .leftJoin(supplierUser, eq(supplierUser.accountId, bowlingCompanions.supplier))
          .leftJoin(consumerUser, eq(consumerUser.accountId, bowlingCompanions.consumer))
          .where(inArray(bowlingCompanions.bowlingId, accountIds))
      : Promise.resolve([]),
    db.select({ n: count() }).from(bowlingCompanions),
  ]);
  return { byBowlingId: new Map(rows.map((r) => [r.bowling_id, r])), count: all?.n ?? 0 };
}

/** Suppliers and recipients a companion can name (spec 1 §3), each by nick then account id. */
export async function companionCandidates(): Promise<{ suppliers: BowlingCandidate[]; recipients: BowlingCandidate[] }> {
  const db = await getDb();
  const rows = await db
    .select({ _id: users.id, account_id: users.accountId, nick: users.nick, type: users.type })
    .from(users)
    .where(inArray(users.type, [BOWLING_TYPES.suppliers, BOWLING_TYPES.recipients]))
    .orderBy(...listOrder);
  const of = (type: string) => rows.filter((r) => r.type === type).map(({ _id, account_id, nick }) => ({ _id, account_id, nick }));
  return { suppliers: of(BOWLING_TYPES.suppliers), recipients: of(BOWLING_TYPES.recipients) };
}

export type GiftTotal = { type: number; name: string; img: string; amount: number };

/**
 * Spec 1 §2 totals bar over every bowling account: the stored gifts (the last known ones,
 * stale included) summed by type — in the order a type first appears down the list, with
 * the name and picture of that first appearance — and the Capybara items' counts
 * (`Number(count) || 0`, as the popup counts them).
 */
export function bowlingTotals(): Promise<{ gifts: GiftTotal[]; collection: number }> {
  // Remembered until the fleet changes (fleet-memo.server.ts): at 1,000 accounts these two sums were most of a page's time.
  return memoByFleet("bowling-totals", sumBowlingTotals);
}

async function sumBowlingTotals(): Promise<{ gifts: GiftTotal[]; collection: number }> {
  const db = await getDb();
  const bowlers = sql`select u.account_id, row_number() over (order by lower(u.nick), u.nick, u.account_id) as pos
    from ${users} u where u.type = ${BOWLING_TYPES.bowling}`;
  const giftRows = (await db.execute(sql`
    with b as (${bowlers})
    select (g->>'type')::int as type,
           (array_agg(g->>'name' order by b.pos, e.ord))[1] as name,
           (array_agg(coalesce(g->>'img', '') order by b.pos, e.ord))[1] as img,
           sum(case when jsonb_typeof(g->'amount') = 'number' then (g->>'amount')::numeric else 0 end) as amount
    from b join ${characterDetails} d on d.account_id = b.account_id
    cross join lateral jsonb_array_elements(case when jsonb_typeof(d.gifts) = 'array' then d.gifts else '[]'::jsonb end) with ordinality as e(g, ord)
    where jsonb_typeof(g->'type') = 'number'
    group by 1
    order by min(b.pos), min(e.ord)`)) as unknown as { rows: Array<{ type: number; name: string | null; img: string | null; amount: string | number }> };
  const [collection] = (
    (await db.execute(sql`
    select coalesce(sum(case when (i->>'count') ~ '^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)\\s*$' then (i->>'count')::numeric else 0 end), 0) as total
    from ${users} u join ${characterDetails} d on d.account_id = u.account_id
    cross join lateral jsonb_array_elements(
      coalesce(case when jsonb_typeof(d.collection->'firstRow') = 'array' then d.collection->'firstRow' end, '[]'::jsonb) ||
      coalesce(case when jsonb_typeof(d.collection->'secondRow') = 'array' then d.collection->'secondRow' end, '[]'::jsonb)) as i
    where u.type = ${BOWLING_TYPES.bowling}`)) as unknown as { rows: Array<{ total: string | number }> }
  ).rows;
  return {
    gifts: giftRows.rows.map((r) => ({ type: Number(r.type), name: r.name ?? `Gift ${r.type}`, img: r.img ?? "", amount: Number(r.amount) })),
    collection: Number(collection?.total ?? 0),
  };
}
