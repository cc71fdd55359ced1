import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GALAXY_ERRORS } from "#api/galaxy";
import { startSimulator, type Simulator } from "#sim/server";
import { collectionCounts, giftStatsOf, resetServicesFigures, servicesState } from "#sim/services-data";
import { resetServicesConfig } from "~/galaxy/services-config";
import { resetGalaxyServices } from "~/platform/galaxy-services.server";
import { getUserAgent, resetUserAgentMemory } from "~/models/user-agent.server";
import { listLogs } from "~/models/log.server";
import { resetEnv } from "~/utils/env.server";
import { action as bowlingCollection } from "../_bowling-bots+/api.bowling-users.collection-stats.$id";
import { action as bowlingGifts, loader as bowlingGiftsLoader } from "../_bowling-bots+/api.bowling-users.gift-stats.$id";
import { action as bowlingStatus } from "../_bowling-bots+/api.bowling-users.status.$id";
import { action as bowlingPic } from "../_bowling-bots+/api.bowling-users.user-pic.$id";
import { action as bowlingPics } from "../_bowling-bots+/api.bowling-users.user-pics";
import { action as userAgentAction, loader as userAgentLoader } from "./api.user-agent";
import { action as detailAction, loader as detailLoader } from "./api.user-details.$kind.$id";
import { action as picsAction } from "./api.user-details.user-pics";
import { apiArgs } from "#tests/kit/api";

/**
 * The /api calls of spec 1 §7 "Bowling users" and spec 2 §7 "Collections", end to end:
 * resource route → GalaxyServices → the simulator's /services/.
 */

let sim: Simulator;
type Action = (args: { request: Request; params: Record<string, string>; context: object }) => Promise<Response> | Response;

const account = (i: number) => sim.world.accounts[i];
const body = (i: number, extra: object = {}) => ({ userID: account(i).id, password: account(i).password, ...extra });

function post(url: string, json: unknown, headers: Record<string, string> = {}) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof json === "string" ? json : JSON.stringify(json),
  });
}

async function call(fn: Action, request: Request, params: Record<string, string> = {}) {
  const res = await fn((await apiArgs(request, params)) as Parameters<Action>[0]);
  return { status: res.status, type: res.headers.get("content-type"), json: await res.json() };
}

const detail = (kind: string, id: string, json: unknown, headers?: Record<string, string>) =>
  call(detailAction as Action, post(`/api/user-details/${kind}/${id}`, json, headers), { kind, id });

const BOWLING: Record<string, Action> = {
  "gift-stats": bowlingGifts as Action,
  "user-pic": bowlingPic as Action,
  status: bowlingStatus as Action,
  "collection-stats": bowlingCollection as Action,
};
const bowling = (kind: string, id: string, json: unknown, headers?: Record<string, string>) =>
  call(BOWLING[kind], post(`/api/bowling-users/${kind}/${id}`, json, headers), { id });

const calls = (action: string) => servicesState(sim.world).counts.get(action) ?? 0;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
  resetEnv();
  resetGalaxyServices();
});
afterAll(async () => {
  resetGalaxyServices();
  await sim.close();
});
beforeEach(() => {
  sim.world.reset();
  resetServicesFigures(sim.world);
  resetGalaxyServices(); // a fresh answer cache per test
});

describe("POST /api/user-agent (spec 1 §7; skips per spec 1 §5)", () => {
  it("stores each account's record and reports what it skipped", async () => {
    const a = account(0);
    const b = account(1);
    const res = await call(
      userAgentAction as Action,
      post("/api/user-agent", {
        [a.id]: { headers: '{"X-Galaxy-Platform":"web","X-Galaxy-Lng":"pt"}', sek: null, device: "web", id: a.id, nick: a.nick },
        [b.id]: { headers: { "X-Galaxy-Model": "SM-A515F" }, sek: "android-sek-1", device: "android", id: b.id, nick: b.nick },
        "5550001": { headers: null, sek: null, device: "web", id: "5550001", nick: "NoHeaders" },
        "5550002": { headers: "{broken", id: "5550002", nick: "Broken" },
        "not-an-id": { headers: "{}" },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.registered.sort()).toEqual([a.id, b.id].sort());
    expect(res.json.skipped).toEqual([
      { id: "not-an-id", reason: "not an account id" },
      { id: "5550001", reason: "no iHeaders" },
      { id: "5550002", reason: "iHeaders is not valid JSON" },
    ]);
    resetUserAgentMemory();
    expect(await getUserAgent(b.id)).toMatchObject({ device: "android", sek: "android-sek-1", nick: b.nick });
    expect(await getUserAgent("5550001")).toBeNull();

    const logged = (await listLogs()).map((l) => l.message);
    expect(logged).toContain("User agent of 5550001 skipped: no iHeaders");
    expect(logged).toContain("User agent of 5550002 skipped: iHeaders is not valid JSON");
    expect(JSON.stringify(await listLogs())).not.toContain("android-sek-1");

    // The stored headers are what the services client now sends for b.
    await detail("status", b.id, body(1));
    expect(servicesState(sim.world).recent.at(-1)!.headers).toMatchObject({ "x-galaxy-platform": "android", "x-galaxy-model": "SM-A515F" });
  });

  it("answers 400 { error } for a body that is not a map, and 405 for GET", async () => {
    for (const bad of ["[1,2]", "{oops", '"text"']) {
      const res = await call(userAgentAction as Action, post("/api/user-agent", bad));
      expect(res.status).toBe(400);
      expect(typeof res.json.error).toBe("string");
    }
    const res = (await userAgentLoader(await apiArgs(new Request("http://localhost/api/user-agent")))) as Response;
    expect(res.status).toBe(405);
  });
});

describe("POST /api/user-details/{kind}/{id} and /api/bowling-users/{kind}/{id} (spec 1 §7)", () => {
  it.each([
    ["user-details", detail],
    ["bowling-users", bowling],
  ] as const)(
    "/api/%s: gift-stats → {stats}, user-pic → {picUrl}, status → {isOnline, room}, collection-stats → {stats: {firstRow, secondRow}}",
    async (_prefix, fn) => {
      const target = account(6);
      sim.world.moveTo(target.id, "Bowling*7");

      const gifts = await fn("gift-stats", target.id, body(0));
      expect(gifts.status).toBe(200);
      expect(gifts.type).toMatch(/application\/json/);
      expect(gifts.json.stats).toEqual(
        giftStatsOf(sim.world, target.id).map((g) => ({ type: g.type, name: g.name, img: expect.stringContaining("/services/img/gift/"), amount: g.amount })),
      );

      const pic = await fn("user-pic", target.id, body(0));
      expect(pic.status).toBe(200);
      expect(Object.keys(pic.json)).toEqual(["picUrl"]);

      const status = await fn("status", target.id, body(0));
      expect(status).toMatchObject({ status: 200, json: { isOnline: true, room: "Bowling*7" } });

      const coll = await fn("collection-stats", target.id, body(0));
      expect(coll.status).toBe(200);
      expect(coll.json.stats.firstRow).toHaveLength(8);
      expect(coll.json.stats.secondRow).toHaveLength(8);
      const counts = [...coll.json.stats.firstRow, ...coll.json.stats.secondRow].map((i: { count: string }) => i.count);
      expect(counts).toEqual(collectionCounts(sim.world, target.id, 151).map(String));
      expect(servicesState(sim.world).recent.at(-1)!.params.collection_id).toBe("151");
    },
  );

  it("collection-stats accepts collectionId 161 or 178 (spec 2 §3), nothing else", async () => {
    const res = await detail("collection-stats", account(0).id, body(0, { collectionId: 178 }));
    expect(res.status).toBe(200);
    expect(res.json.stats.firstRow[0]).toMatchObject({ index: 1, goodsID: 178001 });
    const bad = await detail("collection-stats", account(0).id, body(0, { collectionId: 999 }));
    expect(bad).toMatchObject({ status: 400, json: { error: GALAXY_ERRORS.badCollection } });
  });

  it("caches briefly per account and call; X-Skip-Cache: true makes a fresh platform call", async () => {
    const id = account(3).id;
    await detail("gift-stats", id, body(0));
    await detail("gift-stats", id, body(0), { "X-Skip-Cache": "false" });
    expect(calls("gift_stats_ajax")).toBe(1);
    await detail("gift-stats", id, body(0), { "X-Skip-Cache": "true" });
    expect(calls("gift_stats_ajax")).toBe(2);
    // The bowling-users prefix shares the same client and cache.
    await bowling("gift-stats", id, body(0));
    expect(calls("gift_stats_ajax")).toBe(2);
  });

  it("platform failures answer 502 with the spec 1 §8 default texts, logged without the password", async () => {
    const wrong = { userID: account(0).id, password: "f".repeat(32) };
    const expected: Record<string, string> = {
      "gift-stats": "Failed to fetch gift stats",
      "user-pic": "Failed to fetch user pic",
      status: "Failed to fetch user status",
      "collection-stats": "Failed to fetch collection stats",
    };
    for (const [kind, error] of Object.entries(expected)) {
      expect(await detail(kind, account(1).id, wrong)).toMatchObject({ status: 502, json: { error } });
      expect(await bowling(kind, account(1).id, wrong)).toMatchObject({ status: 502, json: { error } });
    }
    const pics = await call(picsAction as Action, post("/api/user-details/user-pics", { ...wrong, userIds: [account(1).id] }));
    expect(pics).toMatchObject({ status: 502, json: { error: "Failed to fetch user pics" } });
    const logs = await listLogs();
    expect(logs.some((l) => l.message.startsWith("Failed to fetch gift stats"))).toBe(true);
    expect(JSON.stringify(logs)).not.toContain("f".repeat(32));
  });

  it("a timed-out platform call is a 502 with the default text", async () => {
    // An operator's config file shortens the timeout (limits.timeoutMs) so the test is quick.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gsc-"));
    process.env.GALAXY_SERVICES_CONFIG = path.join(dir, "services.json");
    fs.writeFileSync(process.env.GALAXY_SERVICES_CONFIG, JSON.stringify({ limits: { timeoutMs: 300 } }));
    resetServicesConfig();
    resetGalaxyServices();
    try {
      sim.world.faults.latencyMs = 3_000;
      const start = Date.now();
      const res = await detail("status", account(1).id, body(0));
      expect(res).toMatchObject({ status: 502, json: { error: "Failed to fetch user status" } });
      expect(Date.now() - start).toBeLessThan(2_000);
      const [log] = await listLogs();
      expect(log.details).toMatchObject({ kind: "timeout", call: "status" });
    } finally {
      delete process.env.GALAXY_SERVICES_CONFIG;
      resetServicesConfig();
    }
  });

  it("a broken services configuration file answers 500 { error } with the default text, not an HTML page", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gsc-"));
    process.env.GALAXY_SERVICES_CONFIG = path.join(dir, "services.json");
    fs.writeFileSync(process.env.GALAXY_SERVICES_CONFIG, JSON.stringify({ limits: { concurrency: "many" } }));
    resetServicesConfig();
    resetGalaxyServices();
    try {
      expect(await detail("gift-stats", account(1).id, body(0))).toMatchObject({ status: 500, json: { error: "Failed to fetch gift stats" } });
      const [log] = await listLogs();
      expect(log.message).toBe("Failed to fetch gift stats: unexpected error");
      expect(JSON.stringify(log.details)).toContain("limits.concurrency");
    } finally {
      delete process.env.GALAXY_SERVICES_CONFIG;
      resetServicesConfig();
      resetGalaxyServices();
    }
  });

  it("bad input is a 400 { error }; an unknown kind a 404 JSON; GET a 405", async () => {
    // {userID} alone is for stored accounts (issue 9); this one is not stored.
    expect(await detail("gift-stats", account(1).id, { userID: account(0).id })).toMatchObject({
      status: 400,
      json: { error: GALAXY_ERRORS.badPassword },
    });
    expect(await detail("gift-stats", account(1).id, { userID: "abc", password: "x" })).toMatchObject({
      status: 400,
      json: { error: "userID: userID must be a numeric account id" },
    });
    expect(await detail("gift-stats", "12ab", body(0))).toMatchObject({ status: 400, json: { error: GALAXY_ERRORS.badAccountId } });
    expect((await detail("gift-stats", account(1).id, "{")).status).toBe(400);
    const unknown = await detail("avatar", account(1).id, body(0));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatch(/Unknown user detail "avatar"/);
    expect(((await detailLoader(await apiArgs(new Request("http://localhost/x"), { kind: "status", id: "1" }))) as Response).status).toBe(405);
    expect(((await detailLoader(await apiArgs(new Request("http://localhost/x"), { kind: "nope", id: "1" }))) as Response).status).toBe(404);
    expect(((await bowlingGiftsLoader(await apiArgs(new Request("http://localhost/x")))) as Response).status).toBe(405);
    // Numeric userIDs are accepted as well as text.
    expect((await detail("status", account(1).id, { userID: Number(account(0).id), password: account(0).password })).status).toBe(200);
  });
});

describe("POST /api/user-details/user-pics and /api/bowling-users/user-pics (spec 1 §7)", () => {
  it("answers {pics: {id: picUrl | null}} for every requested id", async () => {
    const ids = [account(2).id, account(3).id, "77"];
    for (const [fn, url] of [
      [picsAction, "/api/user-details/user-pics"],
      [bowlingPics, "/api/bowling-users/user-pics"],
    ] as const) {
      const res = await call(fn as Action, post(url, body(0, { userIds: ids })));
      expect(res.status).toBe(200);
      expect(Object.keys(res.json.pics).sort()).toEqual([...ids].sort());
      expect(res.json.pics["77"]).toBeNull();
    }
    const bad = await call(picsAction as Action, post("/api/user-details/user-pics", body(0, { userIds: "1,2" })));
    expect(bad).toMatchObject({ status: 400, json: { error: `userIds: ${GALAXY_ERRORS.badUserIds}` } });
  });
});
