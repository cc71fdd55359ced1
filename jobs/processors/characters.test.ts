/**
 * The All Characters Refresh tells its real outcome (issue 18 item 5; spec 2 §4 "Manual
 * Refresh", §8 "Failed to fetch user details"; CONVENTIONS rule 17): a real in-process worker,
 * PostgreSQL, Redis, the live-events bus and the simulator's per-account failure switch.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeLive, liveBusUp, onLive } from "~/queue/live.server";
import { closeQueues, getQueue } from "~/queue/queues.server";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { startWorkers } from "#jobs/worker";
import { startSimulator, type Simulator } from "#sim/server";
import { resetServicesFigures, servicesState } from "#sim/services-data";
import { callRoute, createTestOperator, makeRequest } from "#tests/kit";
import { getDb } from "~/db/client.server";
import { appSettings, characterDetails, users } from "~/db/schema";
import { getGalaxyServices, resetGalaxyServices } from "~/platform/galaxy-services.server";
import { getCharacterDetails } from "~/models/character-details.server";
import { charactersRefreshNotice, getCharactersRefreshProgress, requestCharactersRefresh } from "~/models/character-refresh.server";
import { upsertUser } from "~/models/user.server";
import { loader as charactersLoader, type CharacterRow } from "~/routes/_app+/_characters+/characters";
import { getEnv, resetEnv } from "~/utils/env.server";

let sim: Simulator;
let operatorId: string;
let cookie: string;
const N = 6;
const accounts = () => sim.world.accounts.slice(0, N);
const nick = (i: number) => `N${i} ${accounts()[i]!.nick}`;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
  process.env.GALAXY_WS_URL = sim.wsUrl;
  resetEnv();
  resetGalaxyServices();
  const op = await createTestOperator({ name: "refresh-outcome" });
  operatorId = op.id;
  cookie = op.cookie;
});
afterAll(async () => {
  await closeLive();
  await closeQueues();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
  resetGalaxyServices();
  await sim.close();
});
beforeEach(async () => {
  sim.world.reset();
  resetServicesFigures(sim.world);
  resetGalaxyServices();
  await getQueue("bulk-refresh").obliterate({ force: true });
  const db = await getDb();
  await db.delete(characterDetails);
  await db.delete(users);
  await db.delete(appSettings);
  // "N0 …" sorts first: the acting account (spec 2 §6) when nobody is selected.
  for (const [i, a] of accounts().entries()) await upsertUser({ accountId: a.id, nick: nick(i), password: a.password, type: "bowling" });
});

/** One Refresh through a real worker; the progress as it ended. */
async function refresh() {
  const pool = startWorkers({ mode: "in-process" });
  try {
    await requestCharactersRefresh({ operatorId, force: true });
    return await waitFor("the characters refresh finished", async () => {
      const p = await getCharactersRefreshProgress();
      return p && !p.running ? p : undefined;
    });
  } finally {
    await pool.close(5_000);
  }
}

type Page = { groups: Array<{ rows: CharacterRow[] }>; totals: Array<{ type: number; amount: number }>; notice: unknown; progress: unknown };
const page = async () => (await callRoute<Page>(charactersLoader, makeRequest("/characters", { cookie }))).data;

describe("characters Refresh outcome (issue 18 item 5)", () => {
  it("progress to the end, published as live events, then the completion message", async () => {
    // The platform holds its answers until running figures with the total have reached the
    // listeners (a 300 ms latency had to outlast the writer's 250 ms throttle on a loaded machine).
    sim.world.setFaults({ hold: true });
    const seen: Array<{ running: boolean; done: number; total: number } | null> = [];
    const off = onLive((m) => {
      if (m.topic === "refresh" && m.scope === "characters") void getCharactersRefreshProgress().then((p) => seen.push(p));
    });
    try {
      await waitFor("the live subscriber", () => liveBusUp(), 5_000, 20);
      const ended = refresh();
      await waitFor("running figures with the total, before the end", () => seen.some((p) => p?.running && p.total === N), 30_000, 20);
      expect(seen.some((p) => p && !p.running)).toBe(false);
      sim.world.setFaults({ hold: false });
      const end = await ended;
      expect(end).toMatchObject({ running: false, done: N, total: N, failed: 0, outcome: "success", finishedAt: expect.any(String) });
      await waitFor("the end's event", () => seen.some((p) => p && !p.running), 10_000, 20);
      expect(charactersRefreshNotice(end)).toEqual({ type: "success", message: "User details refreshed" });
      expect((await page()).notice).toEqual({ type: "success", message: "User details refreshed" });
    } finally {
      off();
    }
  });

  it("some users fail: a warning naming how many and which, with the platform's reason; the others refreshed", async () => {
    const failing = [2, 4];
    for (const i of failing) servicesState(sim.world).failAccounts.add(accounts()[i]!.id);
    const end = await refresh();
    expect(end).toMatchObject({ outcome: "partial", done: N, total: N, failed: 2, reason: expect.stringContaining("Simulated service failure") });
    expect(end.failedAccounts!.map((a) => a.nick).sort()).toEqual([nick(2), nick(4)]);
    const notice = charactersRefreshNotice(end)!;
    expect(notice.type).toBe("warning");
    expect(notice.message).toMatch(new RegExp(`^User details refreshed for 4 of ${N} users; 2 failed: N[24] .+, N[24] .+$`));
    expect(notice.description).toContain("Simulated service failure");
    const details = await getCharacterDetails();
    for (const [i, a] of accounts().entries()) {
      if (failing.includes(i)) expect(details.get(a.id)).toMatchObject({ gifts: null, giftsFailed: true });
      else expect(details.get(a.id)).toMatchObject({ gifts: expect.any(Array), giftsFailed: false });
    }
  });

  it("every user fails: 'Failed to fetch user details' with the reason; rows keep their last known gifts and status, marked stale; totals agree with the rows", async () => {
    expect((await refresh()).outcome).toBe("success");
    const before = await getCharacterDetails();
    for (const a of accounts()) servicesState(sim.world).failAccounts.add(a.id);
    const end = await refresh();
    expect(end).toMatchObject({ outcome: "failure", failed: N, total: N });
    expect(charactersRefreshNotice(end)).toEqual({
      type: "error",
      message: "Failed to fetch user details",
      description: expect.stringMatching(new RegExp(`^All ${N} users failed: .*Simulated service failure`)),
    });

    const after = await getCharacterDetails();
    for (const a of accounts()) {
      const was = before.get(a.id)!;
      expect(after.get(a.id)).toMatchObject({ gifts: was.gifts, isOnline: was.isOnline, room: was.room, picUrl: was.picUrl, giftsFailed: true });
      expect(after.get(a.id)!.fetchedAt.gifts).toBe(was.fetchedAt.gifts);
    }
    const data = await page();
    const rows = data.groups.flatMap((g) => g.rows);
    expect(rows).toHaveLength(N);
    for (const row of rows) {
      expect(row.gifts).not.toBeNull();
      expect(row.stale).toMatchObject({ since: expect.any(String), reason: expect.stringContaining("Simulated service failure") });
    }
    const summed = new Map<number, number>();
    for (const row of rows) for (const g of row.gifts!) summed.set(g.type, (summed.get(g.type) ?? 0) + g.amount);
    expect(new Map(data.totals.map((g) => [g.type, g.amount]))).toEqual(summed);
    expect(data.notice).toMatchObject({ type: "error", message: "Failed to fetch user details" });
  });

  it("only the batched pictures call fails: a warning, every user keeps its picture (stale), nobody counted as failed", async () => {
    expect((await refresh()).outcome).toBe("success");
    servicesState(sim.world).failActions.add(getGalaxyServices().config.documented.userPics.action);
    const end = await refresh();
    expect(end).toMatchObject({ outcome: "partial", failed: 0, reason: expect.stringContaining("Simulated service failure") });
    expect(charactersRefreshNotice(end)).toMatchObject({ type: "warning", message: "User details refreshed; pictures could not be loaded" });
    const rows = (await page()).groups.flatMap((g) => g.rows);
    for (const row of rows) expect(row.stale?.parts).toEqual(["pic"]);
  });
});
