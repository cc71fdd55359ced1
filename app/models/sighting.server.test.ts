/**
 * The sightings recorder's batch survives a deadlock (docs/stalker.md "Sightings"): PostgreSQL
 * aborts one side of it, and before this the recorder dropped its whole batch with a warning,
 * so an arrival it had seen was never stored. CI met it as a test's delete of character_details
 * running beside a flush.
 */
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { characterDetails, sightings } from "~/db/schema";
import { sightingsRecorder } from "./sighting.server";
import { upsertUser } from "./user.server";

const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
afterAll(() => other.end());

it("a flush that PostgreSQL aborts as a deadlock victim is written again: the arrival and the departure are stored", async () => {
  await upsertUser({ accountId: "7001", nick: "Alpha", password: "pw-a", type: "stalker" });
  await upsertUser({ accountId: "7002", nick: "Bravo", password: "pw-b", type: "stalker" });
  const recorder = sightingsRecorder();
  recorder.observe("s1", "Orion");
  recorder.arrived("s1", "Orion", [
    { id: "7001", nick: "Alpha" },
    { id: "7002", nick: "Bravo" },
  ]);
  await recorder.flush();
  const db = await getDb();
  expect((await db.select().from(characterDetails)).map((r) => [r.accountId, r.room]).sort()).toEqual([
    ["7001", "Orion"],
    ["7002", "Orion"],
  ]);

  // Another writer holds Bravo's row; the flush then locks Alpha's (its arrival elsewhere) and
  // waits for Bravo's (the departure); the other writer asks for Alpha's: a cycle. Whichever
  // side's deadlock check runs first is aborted; the flush waited first, but on a loaded machine
  // the two checks (1 s after each wait began) came close enough that the other writer's ran
  // first once (a fresh-clone CI run). The other writer checks only after 30 s, so the flush's
  // check is always the one that finds the cycle.
  await other.connect();
  await other.query("set deadlock_timeout = '30s'");
  await other.query("begin");
  await other.query("update character_details set updated_at = now() where account_id = '7002'");
  recorder.observe("s2", "Sirius");
  recorder.arrived("s2", "Sirius", [{ id: "7001", nick: "Alpha" }]);
  recorder.left("Orion", "7002", "sleep");
  const flushed = recorder.flush();
  // The flush waits on Bravo's row before the cycle closes (else there would be no deadlock).
  for (let waiting = 0; waiting === 0;) {
    const { rows } = await other.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    waiting = rows[0].n;
  }
  await other.query("update character_details set updated_at = now() where account_id = '7001'");
  await other.query("commit");
  await flushed;

  const rows = await db.select().from(characterDetails);
  const byId = new Map(rows.map((r) => [r.accountId, r]));
  expect(byId.get("7001")).toMatchObject({ room: "Sirius", isOnline: true });
  expect(byId.get("7002")).toMatchObject({ room: null, isOnline: false });
  const [alpha] = await db.select().from(sightings).where(eq(sightings.userId, "7001"));
  expect(alpha).toMatchObject({ planet: "Sirius", leftAt: null });
});
