import type { Job } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GALAXY_ERRORS } from "#api/galaxy";
import { processBulkRefreshJob, processStatusRefreshJob } from "#jobs/processors/characters";
import { closeQueues, getQueue, type BulkRefreshJob, type StatusRefreshJob } from "~/queue/queues.server";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { startWorkers } from "#jobs/worker";
import { startSimulator, type Simulator } from "#sim/server";
import { giftStatsOf, resetServicesFigures, servicesState } from "#sim/services-data";
import { apiArgs } from "#tests/kit/api";
import { createTestOperator } from "#tests/kit/auth";
import { getDb } from "~/db/client.server";
import { appSettings, characterDetails, users } from "~/db/schema";
import { getGalaxyServices, resetGalaxyServices } from "~/platform/galaxy-services.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { action as detailAction } from "~/routes/_app+/_galaxy+/api.user-details.$kind.$id";
import { action as picsAction } from "~/routes/_app+/_galaxy+/api.user-details.user-pics";
import { getCharacterDetails, getSelectedCharacter, saveCharacterDetails } from "./character-details.server";
import {
  CHARACTERS_REFRESH_JOB_ID,
  getCharactersRefreshProgress,
  requestCharactersRefresh,
  selectCharacter,
  STATUS_EVERY_MS,
  STATUS_SCHEDULER_ID,
} from "./character-refresh.server";
import { removeUser } from "./account.server";
import { upsertUser } from "./user.server";

/**
 * Spec 2 §4 "Stalker" (selection loads pictures, statuses and gift stats; statuses every 5
 * minutes while a user is selected; Refresh reloads all with a force flag) and §6 (act with
 * the selected or first user's credentials): real PostgreSQL, Redis and the simulator.
 */

let sim: Simulator;
const N = 6;
const accounts = () => sim.world.accounts.slice(0, N);
const fakeJob = <T>(name: string, data: T) => ({ name, data, id: "test", attemptsMade: 0, opts: { attempts: 1 } }) as unknown as Job<T>;
const counts = (action: string) => servicesState(sim.world).counts.get(action) ?? 0;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
  process.env.GALAXY_WS_URL = sim.wsUrl;
  resetEnv();
  resetGalaxyServices();
});
afterAll(async () => {
  await getQueue("status-refresh")
    .removeJobScheduler(STATUS_SCHEDULER_ID)
    .catch(() => {});
  await closeQueues();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
  resetGalaxyServices();
  await sim.close();
});
beforeEach(async () => {
  sim.world.reset();
  resetServicesFigures(sim.world);
  resetGalaxyServices();
  const db = await getDb();
  await db.delete(characterDetails);
  await db.delete(users);
  await db.delete(appSettings);
  for (const [i, a] of accounts().entries()) await upsertUser({ accountId: a.id, nick: `N${i} ${a.nick}`, password: a.password, type: "bowling" });
});

const actions = () => getGalaxyServices().config.undocumented;

describe("characters bulk refresh (spec 2 §4 Stalker: pictures, statuses, gift stats for all users)", () => {
  it("writes one character_details row per user and the progress", async () => {
    const data: BulkRefreshJob = { kind: "refresh", section: "characters", skipCache: true, requestedAt: new Date().toISOString() };
    const result = await processBulkRefreshJob(fakeJob("refresh", data));
    expect(result).toMatchObject({ total: N, done: N, failed: 0 });
    const details = await getCharacterDetails();
    expect(details.size).toBe(N);
    for (const a of accounts()) {
      const d = details.get(a.id)!;
      expect(d.giftsFailed).toBe(false);
      expect(d.gifts!.map((g) => g.amount)).toEqual(giftStatsOf(sim.world, a.id).map((g) => g.amount));
      expect(typeof d.isOnline).toBe("boolean");
      expect(d.picUrl === null || typeof d.picUrl === "string").toBe(true);
    }
    expect(counts(actions().giftStats.action)).toBe(N);
    expect(counts(actions().onlineStatus.action)).toBe(N);
    // one batched user_pics call, not one per user
    expect(counts(getGalaxyServices().config.documented.userPics.action)).toBe(1);
    expect(await getCharactersRefreshProgress()).toMatchObject({ running: false, done: N, total: N, failed: 0, finishedAt: expect.any(String) });
  });

  it("a failed gift stats call marks the row giftsFailed ('Failed to load gifts') and counts it; the rest is written", async () => {
    servicesState(sim.world).failActions.add(actions().giftStats.action);
    const result = await processBulkRefreshJob(
      fakeJob("refresh", { kind: "refresh", section: "characters", skipCache: true, requestedAt: new Date().toISOString() } satisfies BulkRefreshJob),
    );
    expect(result).toMatchObject({ total: N, done: N, failed: N });
    const details = await getCharacterDetails();
    for (const a of accounts()) expect(details.get(a.id)).toMatchObject({ giftsFailed: true, gifts: null, isOnline: expect.any(Boolean) });
    expect(await getCharactersRefreshProgress()).toMatchObject({ running: false, failed: N });
  });

  it("acts with the selected user's credentials, else the first user's (spec 2 §6)", async () => {
    const [first, , third] = accounts();
    await processStatusRefreshJob(fakeJob("statuses", { kind: "statuses", actingAccountId: third!.id, force: true } satisfies StatusRefreshJob));
    expect(new Set(servicesState(sim.world).recent.map((r) => r.userID))).toEqual(new Set([third!.id]));
    resetServicesFigures(sim.world);
    await processStatusRefreshJob(fakeJob("statuses", { kind: "statuses", actingAccountId: "99999999", force: true } satisfies StatusRefreshJob));
    expect(new Set(servicesState(sim.world).recent.map((r) => r.userID))).toEqual(new Set([first!.id])); // "N0 …" sorts first
  });

  it("a status refresh with accountIds reads only those users", async () => {
    const [a, b] = accounts();
    const result = await processStatusRefreshJob(
      fakeJob("statuses", { kind: "statuses", actingAccountId: a!.id, accountIds: [b!.id], force: true } satisfies StatusRefreshJob),
    );
    expect(result).toMatchObject({ total: 1, done: 1 });
    expect(counts(actions().onlineStatus.action)).toBe(1);
    expect([...(await getCharacterDetails()).keys()]).toEqual([b!.id]);
  });

  it("keeps a status a stalker saw in the last 5 minutes unless forced (galaxy-runtime §1.3 item 3)", async () => {
    const a = accounts()[0]!;
    await saveCharacterDetails(a.id, { status: { isOnline: true, room: "StalkerSeen", source: "stalker" } });
    await processStatusRefreshJob(fakeJob("statuses", { kind: "statuses", actingAccountId: a.id, force: false } satisfies StatusRefreshJob));
    expect(counts(actions().onlineStatus.action)).toBe(N - 1);
    expect((await getCharacterDetails()).get(a.id)).toMatchObject({ isOnline: true, room: "StalkerSeen" });

    // an old sighting is refreshed over HTTP (fresh answer cache, so every call reaches the sim)
    await (await getDb()).update(characterDetails).set({ statusAt: new Date(Date.now() - 6 * 60_000) });
    resetServicesFigures(sim.world);
    resetGalaxyServices();
    await processStatusRefreshJob(fakeJob("statuses", { kind: "statuses", actingAccountId: a.id, force: false } satisfies StatusRefreshJob));
    expect(counts(actions().onlineStatus.action)).toBe(N);

    await saveCharacterDetails(a.id, { status: { isOnline: true, room: "StalkerSeen", source: "stalker" } });
    resetServicesFigures(sim.world);
    await processStatusRefreshJob(fakeJob("statuses", { kind: "statuses", actingAccountId: a.id, force: true } satisfies StatusRefreshJob));
    expect(counts(actions().onlineStatus.action)).toBe(N);
    expect((await getCharacterDetails()).get(a.id)!.room).not.toBe("StalkerSeen");
  });

  it("refuses an unknown section without retries", async () => {
    await expect(
      processBulkRefreshJob(
        fakeJob("refresh", {
          kind: "refresh",
          section: "nope" as BulkRefreshJob["section"],
          skipCache: false,
          requestedAt: new Date().toISOString(),
        } satisfies BulkRefreshJob),
      ),
    ).rejects.toThrow(/not built yet/);
  });
});

describe("selection and the 5-minute status scheduler (spec 2 §4 Stalker, §9)", () => {
  it("selecting adds the scheduler and a first load; clearing the last selection removes it", async () => {
    const op1 = await createTestOperator({ name: "sel-1" });
    const op2 = await createTestOperator({ name: "sel-2" });
    const a = accounts()[1]!;
    const queue = getQueue("status-refresh");
    const bulk = getQueue("bulk-refresh");
    await bulk.obliterate({ force: true });

    await selectCharacter(op1.id, a.id);
    expect(await getSelectedCharacter(op1.id)).toBe(a.id);
    const scheduler = await queue.getJobScheduler(STATUS_SCHEDULER_ID);
    expect(scheduler).toMatchObject({ every: STATUS_EVERY_MS });
    const first = await bulk.getJob(CHARACTERS_REFRESH_JOB_ID);
    expect(first?.data).toMatchObject({ kind: "refresh", section: "characters", actingAccountId: a.id, skipCache: false });
    expect(JSON.stringify(first?.data)).not.toContain(a.password);

    await selectCharacter(op2.id, a.id);
    await selectCharacter(op1.id, null);
    expect(await getSelectedCharacter(op1.id)).toBeNull();
    expect(await queue.getJobScheduler(STATUS_SCHEDULER_ID)).toBeTruthy(); // op2 still has one
    await selectCharacter(op2.id, null);
    expect(await queue.getJobScheduler(STATUS_SCHEDULER_ID)).toBeFalsy();
  });

  it("Refresh twice starts one job (idempotent id) with the force flag; a finished one is replaced", async () => {
    const op = await createTestOperator({ name: "refresh" });
    const bulk = getQueue("bulk-refresh");
    await bulk.obliterate({ force: true });
    const one = await requestCharactersRefresh({ operatorId: op.id, force: true });
    const two = await requestCharactersRefresh({ operatorId: op.id, force: true });
    expect(one).toEqual(two);
    expect(await bulk.getJobCounts("waiting", "active", "delayed")).toMatchObject({ waiting: 1 });
    expect((await bulk.getJob(one.jobId))!.data).toMatchObject({ skipCache: true, section: "characters" });
    expect(await getCharactersRefreshProgress()).toMatchObject({ running: true, done: 0 });
    await bulk.obliterate({ force: true });
  });

  it("a worker runs the Refresh job end to end: rows written, progress finished", async () => {
    const op = await createTestOperator({ name: "worker" });
    await getQueue("bulk-refresh").obliterate({ force: true });
    const pool = startWorkers({ mode: "in-process" });
    try {
      await requestCharactersRefresh({ operatorId: op.id, force: true });
      const done = await waitFor("refresh finished", async () => {
        const p = await getCharactersRefreshProgress();
        return p && !p.running ? p : undefined;
      });
      expect(done).toMatchObject({ done: N, total: N, failed: 0 });
      expect((await getCharacterDetails()).size).toBe(N);
    } finally {
      await pool.close(5_000);
    }
  });

  it("a deleted user's selection is forgotten (scheduler removed with the last one) and its details row removed", async () => {
    const op = await createTestOperator({ name: "del" });
    const a = accounts()[2]!;
    await selectCharacter(op.id, a.id);
    expect(await getQueue("status-refresh").getJobScheduler(STATUS_SCHEDULER_ID)).toBeTruthy();
    await saveCharacterDetails(a.id, { picUrl: "http://x/p.png" });
    await removeUser(a.id);
    expect(await getSelectedCharacter(op.id)).toBeNull();
    expect(await getQueue("status-refresh").getJobScheduler(STATUS_SCHEDULER_ID)).toBeFalsy();
    await getQueue("bulk-refresh").obliterate({ force: true });
    expect((await getCharacterDetails()).has(a.id)).toBe(false);
  });
});

describe("detail calls with {userID} alone (issue 9: our UI never sends passwords)", () => {
  const post = (path: string, body: unknown) =>
    new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("a stored account's password is loaded on the server", async () => {
    const [a, b] = accounts();
    const res = await detailAction(await apiArgs(post(`/api/user-details/gift-stats/${b!.id}`, { userID: a!.id }), { kind: "gift-stats", id: b!.id }));
    expect(res.status).toBe(200);
    const { stats } = (await res.json()) as { stats: Array<{ amount: number }> };
    expect(stats.map((s) => s.amount)).toEqual(giftStatsOf(sim.world, b!.id).map((g) => g.amount));
    const pics = await picsAction(await apiArgs(post("/api/user-details/user-pics", { userID: a!.id, userIds: [a!.id, b!.id] })));
    expect(pics.status).toBe(200);
  });

  it("{userID, password} still works for accounts we do not store", async () => {
    const stranger = sim.world.accounts[N + 1]!;
    const res = await detailAction(
      await apiArgs(post(`/api/user-details/status/${stranger.id}`, { userID: stranger.id, password: stranger.password }), { kind: "status", id: stranger.id }),
    );
    expect(res.status).toBe(200);
  });

  it("an unknown account without a password → 400 'password is required', no platform call", async () => {
    const stranger = sim.world.accounts[N + 1]!;
    const res = await detailAction(
      await apiArgs(post(`/api/user-details/status/${stranger.id}`, { userID: stranger.id }), { kind: "status", id: stranger.id }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: GALAXY_ERRORS.badPassword, message: GALAXY_ERRORS.badPassword });
    expect(servicesState(sim.world).recent).toEqual([]);
    const pics = await picsAction(await apiArgs(post("/api/user-details/user-pics", { userID: stranger.id, userIds: [stranger.id] })));
    expect(pics.status).toBe(400);
  });
});
