/**
 * Issue 19 item 8: a user just added gets its picture, status and gift stats without a Refresh
 * (one status-refresh job for that user), through a real in-process worker, PostgreSQL, Redis and the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeLive } from "~/queue/live.server";
import { closeQueues, getQueue } from "~/queue/queues.server";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { startWorkers } from "#jobs/worker";
import { startSimulator, type Simulator } from "#sim/server";
import { callRoute, createTestOperator, makeRequest } from "#tests/kit";
import { getDb } from "~/db/client.server";
import { appSettings, characterDetails, users } from "~/db/schema";
import { resetGalaxyServices } from "~/platform/galaxy-services.server";
import { getCharacterDetails } from "~/models/character-details.server";
import { loadNewUserDetails } from "~/models/character-refresh.server";
import { upsertUser } from "~/models/user.server";
import { loader as charactersLoader, type CharacterRow } from "~/routes/_app+/_characters+/characters";
import { getEnv, resetEnv } from "~/utils/env.server";

let sim: Simulator;
let operatorId: string;
let cookie: string;
const accounts = () => sim.world.accounts.slice(0, 4);

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
  process.env.GALAXY_WS_URL = sim.wsUrl;
  resetEnv();
  resetGalaxyServices();
  const op = await createTestOperator({ name: "new-user-details" });
  operatorId = op.id;
  cookie = op.cookie;
  const db = await getDb();
  await db.delete(characterDetails);
  await db.delete(users);
  await db.delete(appSettings);
  for (const [i, a] of accounts().entries()) await upsertUser({ accountId: a.id, nick: `M${i} ${a.nick}`, password: a.password, type: "bowling" });
});
afterAll(async () => {
  await closeLive();
  await closeQueues();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
  resetGalaxyServices();
  await sim.close();
});

type Page = { groups: Array<{ rows: CharacterRow[] }> };
const page = async () => (await callRoute<Page>(charactersLoader, makeRequest("/characters", { cookie }))).data;

describe("issue 19 item 8: a user just added gets its details without a Refresh", () => {
  it("loadNewUserDetails queues one job for that user; the worker stores its picture, status and gifts, and no other user's", async () => {
    await getQueue("status-refresh").obliterate({ force: true });
    const added = accounts()[3]!.id;
    expect(await loadNewUserDetails(added, operatorId)).toBe(true);
    const pool = startWorkers({ mode: "in-process" });
    try {
      const d = await waitFor("the new user's details", async () => (await getCharacterDetails()).get(added)?.gifts ?? undefined);
      expect(d.length).toBeGreaterThan(0);
      const details = await getCharacterDetails();
      expect(details.get(added)).toMatchObject({ isOnline: expect.any(Boolean) });
      expect(details.get(added)?.picUrl).not.toBeUndefined();
      expect([...details.keys()]).toEqual([added]);
    } finally {
      await pool.close(5_000);
    }
    const row = (await page()).groups.flatMap((g) => g.rows).find((r) => r.account_id === added);
    expect(row?.gifts?.length).toBeGreaterThan(0);
  });
});
