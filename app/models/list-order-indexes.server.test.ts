/**
 * Issue 32 item 1 ("Cost follows the page, not the fleet"): every list page is read in its
 * order from an index, not sorted from the whole table — Bowling Bots, Trading Planets
 * sequences and ads. PostgreSQL's own plans at 5,000 rows each, first and a middle page.
 * (All Characters: character-page.server.test.ts.)
 */
import { eq, sql, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { ads, planetSequences } from "~/db/schema";
import { adsPageQuery } from "./ad.server";
import { auditPageQuery } from "./audit.server";
import { bowlingPageQuery } from "./bowling-page.server";
import { sequencesPageQuery } from "./planet-sequence.server";

type PlanNode = { "Node Type": string; "Index Name"?: string; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

async function planOf(query: { getSQL(): SQL }): Promise<PlanNode[]> {
  const db = await getDb();
  const res = (await db.execute(sql`explain (format json) ${query.getSQL()}`)) as unknown as { rows: Array<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }> };
  return nodes(res.rows[0]!["QUERY PLAN"][0]!.Plan);
}

beforeAll(async () => {
  const db = await getDb();
  await db.execute(sql`delete from ads`);
  await db.execute(sql`delete from planet_sequences`);
  await db.execute(sql`insert into users (account_id, nick, password, type)
    select (85000000 + i)::text, 'Idx bowler ' || i, 'x', case when i % 2 = 0 then 'bowling' else 'trading' end from generate_series(1, 10000) i
    on conflict do nothing`);
  await db.execute(sql`insert into planet_sequences (name, steps, position) select 'Idx route ' || i, '[]'::jsonb, i from generate_series(1, 5000) i`);
  await db.execute(sql`insert into ads (ads_message, category, created_at)
    select 'Idx ad ' || i, case when i % 2 = 0 then 'ads' else 'msg' end, now() - i * interval '1 second' from generate_series(1, 10000) i`);
  await db.execute(sql`insert into audit_log (at, operator, action, target)
    select now() - (i / 3) * interval '1 second', 'idx', 'rate.update', 'pair ' || i from generate_series(1, 10000) i`);
  await db.execute(sql`analyze users; analyze planet_sequences; analyze ads; analyze audit_log`);
});

describe("list pages read their order from an index at 5,000 rows", () => {
  for (const offset of [0, 2500]) {
    it(`Bowling Bots, offset ${offset}`, async () => {
      const plan = await planOf(bowlingPageQuery(await getDb(), "", 50, offset));
      expect(plan.map((n) => n["Node Type"])).not.toContain("Sort");
      expect(plan.some((n) => n["Index Name"] === "users_bowling_order_index")).toBe(true);
    });
    it(`Trading Planets sequences, offset ${offset}`, async () => {
      const plan = await planOf(sequencesPageQuery(await getDb(), 20, offset));
      expect(plan.map((n) => n["Node Type"])).not.toContain("Sort");
      expect(plan.some((n) => n["Index Name"] === "planet_sequences_order_index")).toBe(true);
    });
    it(`Trading Planets ads, offset ${offset}`, async () => {
      const plan = await planOf(adsPageQuery(await getDb(), eq(ads.category, "ads"), 40, offset));
      expect(plan.map((n) => n["Node Type"])).not.toContain("Sort");
      expect(plan.some((n) => n["Index Name"] === "ads_category_order_index")).toBe(true);
    });
    it(`the audit trail, offset ${offset}, both directions`, async () => {
      for (const newerFirst of [true, false]) {
        const plan = await planOf(auditPageQuery(await getDb(), undefined, newerFirst, 51, offset));
        expect(plan.map((n) => n["Node Type"])).not.toContain("Sort");
        expect(plan.map((n) => n["Node Type"])).not.toContain("Incremental Sort");
        expect(plan.some((n) => n["Index Name"] === "audit_log_at_id_index")).toBe(true);
      }
    });
  }
  it("the seeded tables are the size the plans were taken at", async () => {
    const db = await getDb();
    expect(await db.$count(planetSequences)).toBe(5000);
    expect(await db.$count(ads, eq(ads.category, "msg"))).toBe(5000);
  });
});
