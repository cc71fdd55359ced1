import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { COLLECTIONS_TEXTS as T } from "#api/collections";
import { startSimulator, type Simulator } from "#sim/server";
import { applyMastic, collectionCounts, collectionGoodsId, inventoryOf, resetServicesFigures, servicesState } from "#sim/services-data";
import { apiArgs, errorBody, testApiToken } from "#tests/kit/api";
import { resetGalaxyServices } from "~/platform/galaxy-services.server";
import { saveProfile } from "~/models/collections.server";
import { upsertUser } from "~/models/user.server";
import { getDb } from "~/db/client.server";
import { apiTokens } from "~/db/schema";
import { resetEnv } from "~/utils/env.server";
import { action as statusAction } from "./api.clay.collection.$id.status";
import { action as inventoryAction } from "./api.clay.gifts.inventory";
import { action as sendAction } from "./api.clay.gifts.send";
import { action as masticAction } from "./api.clay.mastic.run";

/**
 * POST /api/clay/* (spec 2 §7 "Collections", §8, §5) end to end: resource route → GalaxyServices
 * → the simulator's /services/, checked in the simulator's per-account inventories.
 */

let sim: Simulator;
type Action = (args: { request: Request; params: Record<string, string>; context: object }) => Promise<Response> | Response;

const account = (i: number) => sim.world.accounts[i]!;
const creds = (i: number, extra: object = {}) => ({ userID: account(i).id, password: account(i).password, ...extra });

function post(url: string, json: unknown, headers: Record<string, string> = {}) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof json === "string" ? json : JSON.stringify(json),
  });
}
async function call(fn: unknown, url: string, json: unknown, params: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const res = await (fn as Action)((await apiArgs(post(url, json, headers), params)) as Parameters<Action>[0]);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
const mastic = (json: unknown) => call(masticAction, "/api/clay/mastic/run", json);
const inventory = (json: unknown) => call(inventoryAction, "/api/clay/gifts/inventory", json);
const send = (json: unknown) => call(sendAction, "/api/clay/gifts/send", json);
const status = (id: string, json: unknown, skip = true) =>
  call(statusAction, `/api/clay/collection/${id}/status`, json, { id }, skip ? { "X-Skip-Cache": "true" } : {});

const calls = (action: string) => servicesState(sim.world).counts.get(action) ?? 0;
const pieces = (id: string, set: number) =>
  inventoryOf(sim.world, id)
    .filter((i) => i.goodsId !== undefined && Math.floor(i.goodsId / 1000) === set)
    .map((i) => String(i.goodId));
const snapshot = () => sim.world.accounts.slice(0, 6).map((a) => inventoryOf(sim.world, a.id).map((i) => i.goodId));

async function operatorId() {
  await testApiToken();
  const db = await getDb();
  const [row] = await db.select({ operatorId: apiTokens.operatorId }).from(apiTokens).limit(1);
  return row!.operatorId;
}

beforeAll(async () => {
  process.env.COLLECTIONS_TIME_SCALE = "0.001";
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
  resetGalaxyServices();
});

describe("POST /api/clay/mastic/run (spec 2 §7; §9 'Mastic requests per run: 16')", () => {
  it("runs 16 requests, answers 'Mastic used successfully', and the pieces show in status and inventory", async () => {
    const a = account(0);
    const before = collectionCounts(sim.world, a.id, 178).reduce((x, y) => x + y, 0);
    const piecesBefore = pieces(a.id, 178).length;
    const res = await mastic(creds(0, { collectionId: 178, numberOfRequests: 16 }));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, collectionId: 178, requested: 16, succeeded: 16, message: "Mastic used successfully" });
    expect(calls("collection_mastic_ajax")).toBe(16);
    expect(collectionCounts(sim.world, a.id, 178).reduce((x, y) => x + y, 0)).toBe(before + 16);
    expect(pieces(a.id, 178)).toHaveLength(piecesBefore + 16);
    // The status call reads the same counts.
    const st = await status("178", creds(0));
    const counts = [...(st.json.status as { firstRow: { count: string }[] }).firstRow, ...(st.json.status as { secondRow: { count: string }[] }).secondRow].map(
      (r) => Number(r.count),
    );
    expect(counts).toEqual(collectionCounts(sim.world, a.id, 178));
  });

  it.each([
    [{ numberOfRequests: 16 }, T.noSet],
    [{ collectionId: "", numberOfRequests: 16 }, T.noSet],
    [{ collectionId: 151, numberOfRequests: 16 }, T.badSet],
    [{ collectionId: 999, numberOfRequests: 16 }, T.badSet],
    [{ collectionId: 178, numberOfRequests: 0 }, T.badRequests],
    [{ collectionId: 178, numberOfRequests: 17 }, T.badRequests],
    [{ collectionId: 178, numberOfRequests: 2.5 }, T.badRequests],
    [{ collectionId: 178, numberOfRequests: "16" }, T.badRequests],
  ])("bad input %j → 400 with a message, no request made (spec 2 §5 'A collection set must be chosen for Run')", async (extra, text) => {
    const res = await mastic(creds(0, extra));
    expect(res.status).toBe(400);
    expect(res.json).toEqual(errorBody(text));
    expect(calls("collection_mastic_ajax")).toBe(0);
  });

  it("a wrong password is a 400 'Failed to run mastic requests…' and nothing moves; a platform failure is a 502 (spec 2 §8)", async () => {
    const before = snapshot();
    const wrong = await mastic({ userID: account(0).id, password: "nope", collectionId: 178, numberOfRequests: 3 });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe(`${T.masticFailed}: wrong user ID or password`);
    expect(wrong.json.error).toBe(wrong.json.message);
    servicesState(sim.world).failActions.add("collection_mastic_ajax");
    const down = await mastic(creds(0, { collectionId: 178, numberOfRequests: 2 }));
    expect(down).toEqual({ status: 502, json: errorBody("Failed to run mastic requests") });
    expect(snapshot()).toEqual(before);
  });

  it("malformed JSON and a missing body are 400s", async () => {
    expect((await mastic("{not json")).status).toBe(400);
    expect((await mastic("")).json).toEqual(errorBody(T.badBody));
    expect((await mastic([1])).json).toEqual(errorBody(T.badBody));
    expect((await mastic({ collectionId: 178 })).json).toEqual(errorBody(T.badUserId));
  });
});

describe("userID alone names a stored account (passwords never reach the browser)", () => {
  it("an unknown account without a password is a 400 'password is required'", async () => {
    const res = await inventory({ userID: "12345" });
    expect(res).toEqual({ status: 400, json: errorBody(T.badPassword) });
  });

  it("the operator's saved Collections profile, or a stored character, supplies the password", async () => {
    const op = await operatorId();
    await saveProfile(op, { accountId: account(1).id, nick: account(1).nick, password: account(1).password, loginMethod: "recovery" });
    const viaProfile = await inventory({ userID: account(1).id, collectionId: 178 });
    expect(viaProfile.status).toBe(200);
    expect(viaProfile.json.giftIds).toEqual(pieces(account(1).id, 178));
    await upsertUser({ accountId: account(2).id, nick: account(2).nick, password: account(2).password });
    const viaUser = await status("161", { userID: account(2).id });
    expect(viaUser.status).toBe(200);
  });
});

describe("POST /api/clay/gifts/inventory → {giftIds} (spec 2 §7)", () => {
  it("lists the set's pieces the account holds (matched by goodsID), not its other gifts", async () => {
    const i = sim.world.accounts.findIndex((a) => pieces(a.id, 161).length > 0 && inventoryOf(sim.world, a.id).some((x) => x.goodsId === undefined));
    const res = await inventory(creds(i, { collectionId: 161 }));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ giftIds: pieces(account(i).id, 161) });
    const other = inventoryOf(sim.world, account(i).id).find((x) => x.goodsId === undefined)!;
    expect(res.json.giftIds).not.toContain(String(other.goodId));
    // Default set: 178.
    expect((await inventory(creds(i))).json).toEqual({ giftIds: pieces(account(i).id, 178) });
  });

  it("a platform failure is a 502 'Failed to fetch gift inventory' in error and message (spec 2 §8)", async () => {
    servicesState(sim.world).failActions.add("show_inventory");
    expect(await inventory(creds(0))).toEqual({ status: 502, json: errorBody("Failed to fetch gift inventory") });
  });
});

describe("POST /api/clay/gifts/send (spec 2 §7, §5 'Send gifts needs a recipient and at least one gift')", () => {
  it("moves the gifts to the recipient: 'Sent n gifts to user {id}', inventories and statuses agree", async () => {
    const from = account(0);
    const to = account(3);
    const ids = pieces(from.id, 178).slice(0, 3);
    expect(ids).toHaveLength(3);
    const fromCounts = collectionCounts(sim.world, from.id, 178);
    const toCounts = collectionCounts(sim.world, to.id, 178);
    const res = await send(creds(0, { receiverUserId: to.id, giftIdsToSend: ids }));
    expect(res).toEqual({
      status: 200,
      json: { success: true, sent: 3, receiverUserId: to.id, message: `Sent 3 gifts to user ${to.id} (confirmed by re-reading the inventory)` },
    });
    expect(pieces(from.id, 178).filter((id) => ids.includes(id))).toEqual([]);
    expect(pieces(to.id, 178).filter((id) => ids.includes(id))).toHaveLength(3);
    const moved = collectionCounts(sim.world, from.id, 178).map((c, k) => fromCounts[k]! - c);
    expect(moved.reduce((x, y) => x + y, 0)).toBe(3);
    expect(collectionCounts(sim.world, to.id, 178).map((c, k) => c - toCounts[k]!)).toEqual(moved);
    // The sender's inventory and status calls see it at once.
    expect((await inventory(creds(0))).json.giftIds).toEqual(pieces(from.id, 178));
    const st = await status("178", creds(3));
    const rows = st.json.status as { firstRow: { count: string }[]; secondRow: { count: string }[] };
    expect([...rows.firstRow, ...rows.secondRow].map((r) => Number(r.count))).toEqual(collectionCounts(sim.world, to.id, 178));
  });

  it("sends more than 50 gifts in chunks of 50 (galaxy-runtime.md §3.3)", async () => {
    const i = sim.world.accounts.findIndex((a) => inventoryOf(sim.world, a.id).length > 60);
    const ids = inventoryOf(sim.world, account(i).id)
      .slice(0, 60)
      .map((x) => String(x.goodId));
    const to = account(i === 0 ? 1 : 0);
    const res = await send(creds(i, { receiverUserId: to.id, giftIdsToSend: ids }));
    expect(res.json.message).toBe(`Sent 60 gifts to user ${to.id} (confirmed by re-reading the inventory)`);
    expect(calls("present_make")).toBe(2);
  });

  it.each([
    ["no recipient", { receiverUserId: "", giftIdsToSend: ["1"] }, 400, T.noRecipient],
    ["missing recipient", { giftIdsToSend: ["1"] }, 400, T.noRecipient],
    ["a recipient that is not an id", { receiverUserId: "bob", giftIdsToSend: ["1"] }, 400, T.badRecipient],
    ["no gifts", { receiverUserId: "10000001", giftIdsToSend: [] }, 400, T.noGifts],
    ["gifts not a list", { receiverUserId: "10000001", giftIdsToSend: "1,2" }, 400, T.badGiftIds],
    ["gift ids that are not numbers", { receiverUserId: "10000001", giftIdsToSend: ["x"] }, 400, T.badGiftIds],
  ])("%s → %i, nothing moved", async (_name, extra, code, text) => {
    const before = snapshot();
    const res = await send(creds(0, extra));
    expect(res).toEqual({ status: code, json: errorBody(text) });
    expect(calls("present_make")).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it("gifts the sender does not hold → 400, nothing moved; yourself → 400; an unknown recipient → 502 'Failed to send gifts'", async () => {
    const before = snapshot();
    const mine = pieces(account(0).id, 178).slice(0, 1);
    const notMine = pieces(account(1).id, 178).slice(0, 1);
    expect(await send(creds(0, { receiverUserId: account(2).id, giftIdsToSend: [...mine, ...notMine] }))).toEqual({ status: 400, json: errorBody(T.notHeld) });
    expect(await send(creds(0, { receiverUserId: account(0).id, giftIdsToSend: mine }))).toEqual({ status: 400, json: errorBody(T.selfRecipient) });
    expect(await send(creds(0, { receiverUserId: "55555", giftIdsToSend: mine }))).toEqual({ status: 502, json: errorBody("Failed to send gifts") });
    expect(await send({ userID: account(0).id, password: "wrong", receiverUserId: account(2).id, giftIdsToSend: mine })).toMatchObject({ status: 400 });
    expect(snapshot()).toEqual(before);
  });
});

describe("POST /api/clay/collection/{id}/status with X-Skip-Cache (spec 2 §7)", () => {
  it("answers {status: {firstRow, secondRow}}: 8 + 8 items with goodsID, count and imageUrl", async () => {
    const res = await status("161", creds(4));
    expect(res.status).toBe(200);
    const rows = res.json.status as { firstRow: Record<string, unknown>[]; secondRow: Record<string, unknown>[] };
    expect(rows.firstRow).toHaveLength(8);
    expect(rows.secondRow).toHaveLength(8);
    expect(rows.firstRow[0]).toMatchObject({ goodsID: collectionGoodsId(161, 1), index: 1, imageUrl: expect.stringContaining("/collection/161/1") });
    expect([...rows.firstRow, ...rows.secondRow].map((r) => Number(r.count))).toEqual(collectionCounts(sim.world, account(4).id, 161));
  });

  it("without X-Skip-Cache a repeated read may come from the cache; with it the platform is asked again", async () => {
    await status("178", creds(0), false);
    applyMastic(sim.world, account(0).id, 178);
    const cached = await status("178", creds(0), false);
    const fresh = await status("178", creds(0), true);
    const sum = (r: { json: Record<string, unknown> }) => {
      const s = r.json.status as { firstRow: { count: string }[]; secondRow: { count: string }[] };
      return [...s.firstRow, ...s.secondRow].reduce((x, y) => x + Number(y.count), 0);
    };
    expect(sum(fresh)).toBe(sum(cached) + 1);
  });

  it("an unknown set is a 404; a platform failure a 502 'Failed to fetch collection status'", async () => {
    expect(await status("151", creds(0))).toEqual({ status: 404, json: errorBody(T.badSet) });
    expect(await status("abc", creds(0))).toEqual({ status: 404, json: errorBody(T.badSet) });
    servicesState(sim.world).failActions.add("collection_stats_ajax");
    expect(await status("178", creds(0))).toEqual({ status: 502, json: errorBody("Failed to fetch collection status") });
  });
});

describe("bad input of every kind on every /api/clay call → 4xx with {error, message}, nothing moved (spec 2 §7 'Error message is read from the field message')", () => {
  const routes: Array<[string, unknown, string, Record<string, string>]> = [
    ["mastic", masticAction, "/api/clay/mastic/run", {}],
    ["inventory", inventoryAction, "/api/clay/gifts/inventory", {}],
    ["send", sendAction, "/api/clay/gifts/send", {}],
    ["status", statusAction, "/api/clay/collection/178/status", { id: "178" }],
  ];
  async function raw(fn: unknown, url: string, params: Record<string, string>, init: RequestInit) {
    const res = await (fn as Action)((await apiArgs(new Request(`http://localhost${url}`, init), params)) as Parameters<Action>[0]);
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }
  const platformCalls = () => ["collection_mastic_ajax", "show_inventory", "present_make", "collection_stats_ajax"].map(calls).reduce((x, y) => x + y, 0);
  const good = (name: string) =>
    name === "mastic"
      ? creds(0, { collectionId: 178, numberOfRequests: 1 })
      : name === "send"
        ? creds(0, { receiverUserId: account(1).id, giftIdsToSend: pieces(account(0).id, 178).slice(0, 1) })
        : creds(0);

  it.each(routes)("%s: malformed JSON, a non-object, wrong types, a wrong content type and an oversized body", async (name, fn, url, params) => {
    const before = snapshot();
    const json = (body: string) => ({ method: "POST", headers: { "content-type": "application/json" }, body });
    const cases: Array<[RequestInit, number]> = [
      [json("{not json"), 400],
      [json('"just a string"'), 400],
      [json("null"), 400],
      [json(JSON.stringify({ ...good(name), userID: { id: 1 } })), 400],
      [json(JSON.stringify({ ...good(name), userID: true })), 400],
      [json(JSON.stringify({ ...good(name), password: 12345 })), 400],
      [json(JSON.stringify({ ...good(name), password: ["x"] })), 400],
      [{ method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify(good(name)) }, 415],
      [json(JSON.stringify({ ...good(name), padding: "x".repeat(3 * 1024 * 1024) })), 413],
    ];
    if (name === "mastic")
      cases.push([json(JSON.stringify({ ...good(name), collectionId: [178] })), 400], [json(JSON.stringify({ ...good(name), numberOfRequests: null })), 400]);
    if (name === "send")
      cases.push(
        [json(JSON.stringify({ ...good(name), receiverUserId: { id: 1 } })), 400],
        [json(JSON.stringify({ ...good(name), giftIdsToSend: [{ id: 1 }] })), 400],
        [json(JSON.stringify({ ...good(name), giftIdsToSend: Array.from({ length: 5_001 }, (_, i) => String(i + 1)) })), 400],
      );
    for (const [init, code] of cases) {
      const res = await raw(fn, url, params, init);
      expect(res.status, `${name} ${String(init.body).slice(0, 60)}`).toBe(code);
      expect(typeof res.json.message).toBe("string");
      expect(res.json.message).not.toBe("");
      expect(res.json.error).toBe(res.json.message);
    }
    expect(platformCalls()).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it.each(routes)("%s: GET is a 405 with {error, message}", async (_name, _fn, url) => {
    const mod = (await import(
      {
        "/api/clay/mastic/run": "./api.clay.mastic.run",
        "/api/clay/gifts/inventory": "./api.clay.gifts.inventory",
        "/api/clay/gifts/send": "./api.clay.gifts.send",
        "/api/clay/collection/178/status": "./api.clay.collection.$id.status",
      }[url]!
    )) as { loader: unknown };
    const res = await raw(mod.loader, url, {}, { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.json.error).toBe(res.json.message);
    expect(res.json.message).toMatch(/POST/);
  });

  it("without a token every call is refused with {error, message}, nothing moved", async () => {
    const before = snapshot();
    for (const [name, fn, url, params] of routes) {
      const res = await (fn as Action)({ request: post(url, good(name)), params, context: {} });
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      expect(res.status, name).toBeLessThan(500);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.error).toBe(body.message);
    }
    expect(platformCalls()).toBe(0);
    expect(snapshot()).toEqual(before);
  });
});
