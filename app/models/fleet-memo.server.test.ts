import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { characterDetails, users } from "~/db/schema";
import { removeUser } from "./account.server";
import { bowlingTotals } from "./bowling-page.server";
import { giftTotalsOfAll } from "./character-page.server";
import { saveCharacterDetails } from "./character-details.server";
import { fleetFingerprint, fleetFingerprintQuery, fleetUserCount, forgetFleetMemo, memoByFleet } from "./fleet-memo.server";
import { upsertUser } from "./user.server";

/**
 * Issue 20: the fleet's gift totals are remembered until the fleet changes, and any change —
 * a details write, a user added, removed, retyped or renamed — is seen by the next read.
 * Real PostgreSQL.
 */
const gift = (type: number, amount: number) => ({ type, name: `Gift ${type}`, img: "", amount });

beforeEach(async () => {
  const db = await getDb();
  await db.delete(characterDetails);
  await db.delete(users);
  forgetFleetMemo();
});

describe("memoByFleet", () => {
  it("computes once while nothing changes; every kind of change makes the next read compute again", async () => {
    await upsertUser({ accountId: "81000001", nick: "Ann", password: "p".repeat(32), type: "bowling" });
    let runs = 0;
    const read = () => memoByFleet("test-count", async () => ++runs);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);

    await saveCharacterDetails("81000001", { gifts: [gift(15, 3)] });
    expect(await read()).toBe(2);
    await saveCharacterDetails("81000001", { picUrl: "/p.png" }); // a write that leaves the gifts: still a new fingerprint
    expect(await read()).toBe(3);
    await upsertUser({ accountId: "81000002", nick: "Bob", password: "p".repeat(32), type: "bowling" });
    expect(await read()).toBe(4);
    await (await getDb()).update(users).set({ type: "stalker" }).where(eq(users.accountId, "81000002"));
    expect(await read()).toBe(5);
    await (await getDb()).update(users).set({ nick: "Bobby" }).where(eq(users.accountId, "81000002"));
    expect(await read()).toBe(6);
    await removeUser("81000002");
    expect(await read()).toBe(7);
    expect(await read()).toBe(7);
  });

  it("issue 32 item 1: the fingerprint and the fleet's size read one row of fleet_state, never the users or their details", async () => {
    const db = await getDb();
    await db.execute(sql`insert into users (account_id, nick, password, type)
      select (82000000 + i)::text, 'Plan ' || i, 'x', 'bowling' from generate_series(1, 2000) i`);
    await db.execute(sql`insert into character_details (account_id, gifts) select (82000000 + i)::text, '[]'::jsonb from generate_series(1, 2000) i`);
    await db.execute(sql`analyze users`);
    await db.execute(sql`analyze character_details`);
    const plan = JSON.stringify((await db.execute(sql`explain (format json) ${fleetFingerprintQuery()}`)) as unknown as { rows: unknown[] });
    expect(plan).toContain('"Relation Name":"fleet_state"');
    expect(plan).not.toContain('"Relation Name":"users"');
    expect(plan).not.toContain('"Relation Name":"character_details"');
    expect(await fleetUserCount()).toBe(2000);
  });

  it("the fleet's size follows inserts, upserts, deletes and a truncate; the version follows every write", async () => {
    const db = await getDb();
    const real = async () => ((await db.execute(sql`select count(*)::int as n from users`)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
    const versions = new Set<string>([await fleetFingerprint()]);
    const step = async () => {
      expect(await fleetUserCount()).toBe(await real());
      const v = await fleetFingerprint();
      expect(versions.has(v)).toBe(false);
      versions.add(v);
    };
    await upsertUser({ accountId: "81000001", nick: "Ann", password: "p".repeat(32), type: "bowling" });
    await step();
    await upsertUser({ accountId: "81000001", nick: "Ann B", password: "p".repeat(32), type: "bowling" }); // the same account again
    await step();
    await db.execute(sql`insert into users (account_id, nick, password) select (83000000 + i)::text, 'Bulk ' || i, 'x' from generate_series(1, 50) i`);
    await step();
    await db.execute(
      sql`insert into users (account_id, nick, password) values ('83000001', 'Dup', 'x'), ('83000099', 'New', 'x') on conflict (account_id) do update set nick = excluded.nick`,
    );
    await step();
    await db.delete(users).where(sql`${users.accountId} like '8300000%'`);
    await step();
    await saveCharacterDetails("81000001", { picUrl: "/p.png" });
    await step();
    await db.execute(sql`truncate users, character_details cascade`);
    await step();
    expect(await fleetUserCount()).toBe(0);
  });

  it("the Bowling Bots and All Characters totals follow a refresh's new gifts and a deleted account", async () => {
    await upsertUser({ accountId: "81000001", nick: "Ann", password: "p".repeat(32), type: "bowling" });
    await upsertUser({ accountId: "81000002", nick: "Bob", password: "p".repeat(32), type: "bowling" });
    await saveCharacterDetails("81000001", { gifts: [gift(15, 3)] });
    await saveCharacterDetails("81000002", { gifts: [gift(15, 4)] });
    expect((await bowlingTotals()).gifts).toEqual([expect.objectContaining({ type: 15, amount: 7 })]);
    expect(await giftTotalsOfAll()).toEqual([expect.objectContaining({ type: 15, amount: 7 })]);
    await saveCharacterDetails("81000002", { gifts: [gift(15, 10)] });
    expect((await bowlingTotals()).gifts).toEqual([expect.objectContaining({ type: 15, amount: 13 })]);
    expect(await giftTotalsOfAll()).toEqual([expect.objectContaining({ type: 15, amount: 13 })]);
    await removeUser("81000001");
    expect((await bowlingTotals()).gifts).toEqual([expect.objectContaining({ type: 15, amount: 10 })]);
    expect(await giftTotalsOfAll()).toEqual([expect.objectContaining({ type: 15, amount: 10 })]);
  });
});
