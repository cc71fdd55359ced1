/**
 * Issue 32 item 1 ("Cost follows the page, not the fleet"): All Characters reads one page
 * of users in the list's order from an index, not by sorting every user, and without a
 * search it takes the fleet's size from fleet_state instead of counting the table. Real
 * PostgreSQL; the plan is PostgreSQL's own at 5,000 users.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { characterDetails, users } from "~/db/schema";
import { forgetFleetMemo } from "./fleet-memo.server";
import { loadCharacterPage, usersPageQuery } from "./character-page.server";

type PlanNode = { "Node Type": string; "Index Name"?: string; "Relation Name"?: string; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

beforeAll(async () => {
  const db = await getDb();
  await db.delete(characterDetails);
  await db.delete(users);
  forgetFleetMemo();
  await db.execute(sql`insert into users (account_id, nick, password, type)
    select (84000000 + i)::text, 'Plan char ' || lpad(i::text, 5, '0'), 'x',
      case when i % 20 = 1 then 'stalker' when i % 4 = 0 then 'trading' when i % 4 = 1 then 'bowling' when i % 4 = 2 then ' recipients ' else null end
    from generate_series(1, 5000) i`);
  await db.execute(sql`analyze users`);
});

describe("All Characters at 5,000 users", () => {
  it("the page is read in the index's order: no sort of every user, whatever page", async () => {
    const db = await getDb();
    for (const offset of [0, 2500]) {
      const res = (await db.execute(sql`explain (format json) ${usersPageQuery(db, "", 50, offset).getSQL()}`)) as unknown as {
        rows: Array<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>;
      };
      const all = nodes(res.rows[0]!["QUERY PLAN"][0]!.Plan);
      expect(all.map((n) => n["Node Type"])).not.toContain("Sort");
      expect(all.some((n) => n["Index Name"] === "users_page_order_index")).toBe(true);
    }
  });

  it("the page the index gives is the spec's order (stalker, trading, bowling, then the rest alphabetically; unknown for no type)", async () => {
    const first = await loadCharacterPage({ query: "", giftFilter: [], page: 1, pageSize: 3 });
    expect(first.matched).toBe(5000);
    expect(first.pageCount).toBe(1667);
    expect(first.users.map((u) => [u.group, u.nick])).toEqual([
      ["stalker", "Plan char 00001"],
      ["stalker", "Plan char 00021"],
      ["stalker", "Plan char 00041"],
    ]);
    const last = await loadCharacterPage({ query: "", giftFilter: [], page: 1667, pageSize: 3 });
    expect(last.users.map((u) => [u.group, u.nick])).toEqual([
      ["unknown", "Plan char 04995"],
      ["unknown", "Plan char 04999"],
    ]);
    const searched = await loadCharacterPage({ query: "char 0499", giftFilter: [], page: 1, pageSize: 50 });
    expect(searched.matched).toBe(10);
    expect(searched.users.map((u) => u.group)).toEqual([
      "trading",
      "trading",
      "bowling",
      "bowling",
      "recipients",
      "recipients",
      "recipients",
      "unknown",
      "unknown",
      "unknown",
    ]);
  });
});
