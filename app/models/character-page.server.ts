import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { FIRST_GROUPS, UNKNOWN_TYPE, type PublicUser } from "#api/accounts";
import { getDb } from "~/db/client.server";
import { fleetUserCount, memoByFleet } from "./fleet-memo.server";
import { characterDetails, users } from "~/db/schema";
import { deviceOf, parseHeaders } from "~/galaxy/user-agent";
import { toDetails, type CharacterDetails } from "./character-details.server";

/**
 * One page of All Characters (spec 2 §2 "All Characters screen", §4 "Gift filter"; issue 20
 * "Bounded pages"): the database orders, searches and pages the users, and only the shown
 * page's rows are read with their details. docs/accounts.md "All Characters at scale".
 *
 * Order of the whole list (every page is a slice of it): the spec's group order (stalker,
 * trading, bowling, then the other groups alphabetically; no type is "unknown"), within a
 * group the §4 gift filter (users with every selected gift type above zero first, then by
 * the summed amount of the selected types, descending), then the nick case-insensitively and
 * the account id. `?q=` keeps the users whose nick or account id holds it, case-insensitively.
 */

/** Rows per page (issue 20 aim: a bounded document at any fleet size). */
export const CHARACTERS_PAGE_SIZE = 50;

export type CharacterPageQuery = {
  /** The search (already trimmed; "" = everyone). */
  query: string;
  /** Selected gift types (§4 sort), in URL order. */
  giftFilter: number[];
  /** 1-based; past the last page shows the last page. */
  page: number;
  pageSize?: number;
};

export type CharacterPageUser = PublicUser & { group: string; details: CharacterDetails | undefined };

export type CharacterPage = {
  users: CharacterPageUser[];
  /** Users matching the search (all users without one). */
  matched: number;
  /** The page shown (clamped to 1..pageCount). */
  page: number;
  pageCount: number;
  pageSize: number;
};

/** A constant as SQL text, not a parameter: the order's expressions must match the index's text (below). */
const literal = (value: string) => sql.raw(`'${value.replace(/'/g, "''")}'`);
/** groupOf() in SQL: the trimmed type, "unknown" when missing or blank. */
const groupExpr = sql<string>`coalesce(nullif(btrim(${users.type}), ''), ${literal(UNKNOWN_TYPE)})`;
/** compareGroups() in SQL: the first groups in their order, then the rest alphabetically. */
const groupRank = sql.join(
  [
    sql`(case ${groupExpr}`,
    ...FIRST_GROUPS.map((g, i) => sql`when ${literal(g)} then ${sql.raw(String(i))}`),
    sql`else ${sql.raw(String(FIRST_GROUPS.length))} end)`,
  ],
  sql` `,
);
/**
 * The whole list's order without the gift filter, read from `users_page_order_index`
 * (app/db/schema/accounts.ts; issue 32 item 1: sorting every user to show one page cost
 * ≈ 44 ms a render at 20,000 characters). Same expressions, same text, same order.
 */
const USERS_ORDER: SQL[] = [sql`${groupRank}`, sql`lower(${groupExpr})`, sql`(${groupExpr})`];

function searchWhere(query: string): SQL | undefined {
  const q = query.trim().toLowerCase();
  if (!q) return undefined;
  return sql`(strpos(lower(${users.nick}), ${q}) > 0 or strpos(lower(${users.accountId}), ${q}) > 0)`;
}

/** Per user, over its stored gifts: the summed amount of the selected types and how many of them are above zero. */
function giftSortExprs(selected: number[]) {
  const types = sql`array[${sql.join(
    selected.map((t) => sql`${t}`),
    sql`, `,
  )}]::int[]`;
  const cells = sql`jsonb_array_elements(coalesce(${characterDetails.gifts}, '[]'::jsonb))`;
  const sum = sql`(select coalesce(sum((g->>'amount')::numeric), 0) from ${cells} g where (g->>'type')::int = any(${types}))`;
  // §4: "every selected gift type above zero" (amounts of one type summed, as the screen shows them).
  const allAbove = sql`(select count(*) from (select (g->>'type')::int t from ${cells} g where (g->>'type')::int = any(${types}) group by 1 having sum((g->>'amount')::numeric) > 0) s) = ${selected.length}`;
  return [sql`${allAbove} desc`, sql`${sum} desc`];
}

function safeHeaders(text: string | null): Record<string, string> | null {
  if (!text) return null;
  try {
    return parseHeaders(text);
  } catch {
    return null;
  }
}

const pageColumns = {
  id: users.id,
  accountId: users.accountId,
  nick: users.nick,
  type: users.type,
  iHeaders: users.iHeaders,
  // Only whether there is one (it marks an Android device); the token itself stays in the database.
  hasSek: sql<boolean>`${users.sek} is not null`,
  group: groupExpr,
};

/**
 * One page of users in the whole list's order without the gift filter (the narrow users
 * alone, walked in `users_page_order_index` order; the details are read for the page after).
 * Exported for the test that checks the plan reads an index, not a sort of every user.
 */
export function usersPageQuery(db: Awaited<ReturnType<typeof getDb>>, query: string, limit: number, offset: number) {
  return db
    .select(pageColumns)
    .from(users)
    .where(searchWhere(query))
    .orderBy(...USERS_ORDER, sql`lower(${users.nick})`, asc(users.nick), asc(users.accountId))
    .limit(limit)
    .offset(offset);
}

/** The page of users (with their details) a URL asks for, and how many match. */
export async function loadCharacterPage(q: CharacterPageQuery): Promise<CharacterPage> {
  const db = await getDb();
  const pageSize = q.pageSize ?? CHARACTERS_PAGE_SIZE;
  const where = searchWhere(q.query);
  // Without a search the fleet's size is one row (fleet_state), not a count of the table.
  const n = where
    ? (
        (await db
          .select({ n: sql<number>`count(*)::int` })
          .from(users)
          .where(where)) as [{ n: number }]
      )[0].n
    : await fleetUserCount();
  const pageCount = Math.max(1, Math.ceil(n / pageSize));
  const page = Math.min(Math.max(1, Math.floor(q.page) || 1), pageCount);
  type PageRow = { id: string; accountId: string; nick: string; type: string | null; iHeaders: string | null; hasSek: boolean; group: string };
  let rows: Array<PageRow & { details: typeof characterDetails.$inferSelect | null }>;
  if (q.giftFilter.length) {
    // The §4 sort reads every user's gifts: one query, sorted with the details joined.
    const order: SQL[] = [...USERS_ORDER, ...giftSortExprs(q.giftFilter), sql`lower(${users.nick})`, asc(users.nick), asc(users.accountId)];
    rows = await db
      .select({ ...pageColumns, details: characterDetails })
      .from(users)
      .leftJoin(characterDetails, eq(characterDetails.accountId, users.accountId))
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize);
  } else {
    // Sort the narrow users alone, then read the page's details (the sort does not carry every
    // user's JSON along: issue 20, the page's time must not grow with the fleet).
    const shown = await usersPageQuery(db, q.query, pageSize, (page - 1) * pageSize);
    const ids = shown.map((r) => r.accountId);
    const details = ids.length ? await db.select().from(characterDetails).where(inArray(characterDetails.accountId, ids)) : [];
    const byAccount = new Map(details.map((d) => [d.accountId, d]));
    rows = shown.map((r) => ({ ...r, details: byAccount.get(r.accountId) ?? null }));
  }
  return {
    users: rows.map((r) => ({
      _id: r.id,
      account_id: r.accountId,
      nick: r.nick,
      type: r.type,
      device: deviceOf(safeHeaders(r.iHeaders) ?? {}, r.hasSek ? "sek" : null),
      group: r.group,
      details: r.details ? toDetails(r.details) : undefined,
    })),
    matched: n,
    page,
    pageCount,
    pageSize,
  };
}

/** How many users there are (the fleet; the search summary says "n of N"). */
export function countUsers(): Promise<number> {
  return fleetUserCount();
}

export type GiftTotal = { type: number; name: string; img: string; amount: number };

/**
 * The gift totals grid (spec 2 §2): every user's stored gifts summed per type, in the
 * database (one aggregate, no rows leave it). Types in the order the platform lists them
 * (their first position in a user's list), then by type; name and picture as stored.
 */
export function giftTotalsOfAll(): Promise<GiftTotal[]> {
  // Remembered until the fleet changes (fleet-memo.server.ts), not summed again for every page.
  return memoByFleet("character-gift-totals", sumGiftTotalsOfAll);
}

async function sumGiftTotalsOfAll(): Promise<GiftTotal[]> {
  const db = await getDb();
  const res = await db.execute(sql`
    select (g->>'type')::int as type, min(g->>'name') as name, min(g->>'img') as img, sum((g->>'amount')::numeric)::float8 as amount
    from ${users} u
    join ${characterDetails} d on d.account_id = u.account_id
    cross join lateral jsonb_array_elements(d.gifts) with ordinality as c(g, ord)
    where d.gifts is not null and jsonb_typeof(d.gifts) = 'array'
    group by 1
    order by min(c.ord), 1`);
  const rows = (res as unknown as { rows: Array<{ type: number; name: string | null; img: string | null; amount: number | string }> }).rows;
  return rows.map((r) => ({ type: Number(r.type), name: r.name ?? "", img: r.img ?? "", amount: Number(r.amount) }));
}

/** Stalker-group users among these account ids (the stalker card's candidates), by nick. */
export async function stalkerUsersAmong(accountIds: string[]): Promise<Array<{ accountId: string; nick: string }>> {
  const ids = [...new Set(accountIds.filter(Boolean))];
  if (!ids.length) return [];
  const db = await getDb();
  return db
    .select({ accountId: users.accountId, nick: users.nick })
    .from(users)
    .where(and(inArray(users.accountId, ids), sql`${groupExpr} = 'stalker'`))
    .orderBy(sql`lower(${users.nick})`, asc(users.accountId));
}

/** The first stalker-group user in the list's order (the card's default), if any. */
export async function firstStalkerUser(): Promise<{ accountId: string; nick: string } | null> {
  const db = await getDb();
  const [row] = await db
    .select({ accountId: users.accountId, nick: users.nick })
    .from(users)
    .where(sql`${groupExpr} = 'stalker'`)
    .orderBy(sql`lower(${users.nick})`, asc(users.nick), asc(users.accountId))
    .limit(1);
  return row ?? null;
}

/** The first user (any group, by nick) among these account ids: the running stalker that becomes the selection on load. */
export async function firstUserAmong(accountIds: string[]): Promise<string | null> {
  const ids = [...new Set(accountIds.filter(Boolean))];
  if (!ids.length) return null;
  const db = await getDb();
  const [row] = await db
    .select({ accountId: users.accountId })
    .from(users)
    .where(inArray(users.accountId, ids))
    .orderBy(sql`lower(${users.nick})`, asc(users.nick), asc(users.accountId))
    .limit(1);
  return row?.accountId ?? null;
}
