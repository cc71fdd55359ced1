import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { characterDetails, users } from "~/db/schema";
import { removeUser } from "./account.server";
import { bowlingTotals } from "./bowling-page.server";
import { giftTotalsOfAll } from "./character-page.server";
import { saveCharacterDetails } from "./character-details.server";
import { fleetFingerprint, forgetFleetMemo, memoByFleet } from "./fleet-memo.server";
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

  it("the fingerprint does not depend on the order rows were written in", async () => {
    await upsertUser({ accountId: "81000001", nick: "Ann", password: "p".repeat(32), type: "bowling" });
    await upsertUser({ accountId: "81000002", nick: "Bob", password: "p".repeat(32), type: "bowling" });
    const forward = await fleetFingerprint();
    const db = await getDb();
    await db.delete(users);
    await upsertUser({ accountId: "81000002", nick: "Bob", password: "p".repeat(32), type: "bowling" });
    await upsertUser({ accountId: "81000001", nick: "Ann", password: "p".repeat(32), type: "bowling" });
    expect(await fleetFingerprint()).toBe(forward);
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
