import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { collectionCounts, dailyStatsOf, giftStatsOf, inventoryOf, resetServicesFigures, servicesState } from "#sim/services-data";
import { buildServicesConfig, resetServicesConfig, type ServicesConfig } from "./services-config";
import { GalaxyServiceError } from "./services-parse";
import { recall } from "~/utils/remember.server";
import { GalaxyServices } from "./services.server";
import { getGalaxyServices, resetGalaxyServices } from "~/platform/galaxy-services.server";
import { getUserAgent, registerUserAgent } from "~/models/user-agent.server";

/**
 * The HTTP services client against the simulator's /services/ (reference §7): request
 * conventions, per-account headers, cache and X-Skip-Cache semantics, concurrency and rate
 * limits, timeouts, and every documented and configured action.
 */

let sim: Simulator;
const clients: GalaxyServices[] = [];

function client(limits: Partial<ServicesConfig["limits"]> = {}) {
  const c = new GalaxyServices({ baseUrl: sim.servicesUrl, config: buildServicesConfig({ limits }), userAgents: getUserAgent });
  clients.push(c);
  return c;
}

const account = (i: number) => sim.world.accounts[i];
const creds = (i: number) => ({ userID: account(i).id, password: account(i).password });
const state = () => servicesState(sim.world);
const calls = (action: string) => state().counts.get(action) ?? 0;
const lastRequest = () => state().recent.at(-1)!;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await sim.close();
});
beforeEach(() => {
  sim.world.reset();
  resetServicesFigures(sim.world);
});

describe("request conventions and X-Galaxy-* headers (reference §7.1)", () => {
  it("sends userID, password, a, usercur, random and ajax=1, and web headers by default", async () => {
    const c = client();
    await c.giftStats(creds(0), account(1).id);
    const r = lastRequest();
    expect(r.method).toBe("GET");
    expect(r.params).toMatchObject({ userID: account(0).id, password: "***", a: "gift_stats_ajax", usercur: account(1).id, ajax: "1" });
    expect(Number(r.params.random)).toBeGreaterThanOrEqual(0);
    expect(r.headers).toMatchObject({
      "x-galaxy-kbv": "352",
      "x-galaxy-platform": "web",
      "x-galaxy-client-ver": "9.5",
      "x-galaxy-lng": "en",
      "x-galaxy-orientation": "portrait",
    });
    expect(r.headers["x-galaxy-app-source-id"]).toBeUndefined();
  });

  it("builds headers from the account's stored iHeaders; a sek marks an Android device", async () => {
    await registerUserAgent(account(2).id, {
      headers: JSON.stringify({ "X-Galaxy-Lng": "ru", "X-Galaxy-Model": "Pixel 7", Cookie: "session=1", "X-Galaxy-Scr-W": 1080 }),
      sek: "SEK-SECRET-1",
      nick: account(2).nick,
    });
    const c = client();
    await c.status(creds(2), account(2).id);
    const h = lastRequest().headers;
    expect(h).toMatchObject({
      "x-galaxy-platform": "android",
      "x-galaxy-app-source-id": "4",
      "x-galaxy-lng": "ru",
      "x-galaxy-model": "Pixel 7",
      "x-galaxy-scr-w": "1080",
      "x-galaxy-kbv": "352",
    });
    // Only X-Galaxy-* (and the user agent) are forwarded; the sek stays off the wire by default.
    expect(JSON.stringify(lastRequest())).not.toContain("session=1");
    expect(JSON.stringify(lastRequest())).not.toContain("SEK-SECRET-1");
  });

  it("an explicit platform header in iHeaders wins over the default web", async () => {
    await registerUserAgent(account(3).id, { headers: { "X-Galaxy-Platform": "ios", "X-Galaxy-Kbv": "353" } });
    await client().status(creds(3), account(3).id);
    expect(lastRequest().headers).toMatchObject({ "x-galaxy-platform": "ios", "x-galaxy-kbv": "353" });
  });

  it("POST actions carry a/usercur/ajax in the form and credentials in the query (search_ajax)", async () => {
    const target = account(5);
    const found = await client().search(creds(0), target.nick.slice(0, 4));
    expect(found.some((f) => f.userId === target.id && f.nick === target.nick)).toBe(true);
    expect(found[0].lastOnline).toBeTruthy();
    const r = lastRequest();
    expect(r.method).toBe("POST");
    expect(r.params).toMatchObject({ a: "search_ajax", type: "1", search_value: target.nick.slice(0, 4), ajax: "1" });
  });
});

describe("cache per account and call; X-Skip-Cache", () => {
  it("reuses an answer for the same account and call, and skipCache forces a fresh call", async () => {
    const c = client();
    const a = await c.giftStats(creds(0), account(0).id);
    const b = await c.giftStats(creds(0), account(0).id);
    expect(b).toEqual(a);
    expect(calls("gift_stats_ajax")).toBe(1);
    await c.giftStats(creds(0), account(0).id, { skipCache: true });
    expect(calls("gift_stats_ajax")).toBe(2);
    // Another target, another account: their own entries.
    await c.giftStats(creds(0), account(1).id);
    await c.giftStats(creds(1), account(0).id);
    expect(calls("gift_stats_ajax")).toBe(4);
  });

  it("shares one platform call between simultaneous identical requests", async () => {
    sim.world.faults.latencyMs = 50;
    const c = client();
    await Promise.all([c.status(creds(0), account(4).id), c.status(creds(0), account(4).id), c.status(creds(0), account(4).id)]);
    expect(calls("user_status_ajax")).toBe(1);
  });

  it("a cached answer is never served to a wrong password, and keys hold no password", async () => {
    const c = client();
    await c.giftStats(creds(0), account(0).id);
    const wrong = { userID: account(0).id, password: "0".repeat(32) };
    const err = await c.giftStats(wrong, account(0).id).catch((e) => e);
    expect(err).toBeInstanceOf(GalaxyServiceError);
    expect(err.kind).toBe("auth");
    expect(err.message).not.toContain(account(0).password);
    const keys = [...(c as unknown as { cache: { entries: Map<string, unknown> } }).cache.entries.keys()];
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).not.toContain(account(0).password);
  });

  it("the answer expires after cacheTtlMs", async () => {
    const c = client({ cacheTtlMs: 400 });
    await c.status(creds(0), account(0).id);
    await c.status(creds(0), account(0).id);
    expect(calls("user_status_ajax")).toBe(1);
    await new Promise((r) => setTimeout(r, 450));
    await c.status(creds(0), account(0).id);
    expect(calls("user_status_ajax")).toBe(2);
  });
});

describe("limits: concurrency, per-account rate, timeouts", () => {
  it("never has more calls in flight than the configured concurrency", async () => {
    sim.world.faults.latencyMs = 80;
    const c = client({ concurrency: 4 });
    let peak = { inFlight: 0, waiting: 0 };
    const sampler = setInterval(() => {
      const s = c.stats();
      peak = { inFlight: Math.max(peak.inFlight, s.inFlight), waiting: Math.max(peak.waiting, s.waiting) };
    }, 5);
    const start = performance.now();
    await Promise.all(sim.world.accounts.slice(0, 16).map((a, i) => c.status(creds(i), a.id)));
    const elapsed = performance.now() - start;
    clearInterval(sampler);
    expect(peak.inFlight).toBe(4);
    expect(peak.waiting).toBeGreaterThan(0);
    expect(state().maxInFlight).toBe(4);
    expect(state().counts.get("user_status_ajax")).toBe(16);
    // 16 calls ÷ 4 slots × 80 ms is the floor.
    expect(elapsed).toBeGreaterThanOrEqual((16 / 4) * 80 - 5);
  });

  it("spaces one account's calls at its rate while other accounts go ahead", async () => {
    const c = client({ perAccountPerSecond: 5, perAccountBurst: 2 });
    const start = performance.now();
    const targets = sim.world.accounts.slice(10, 15);
    const one = Promise.all(targets.map((t) => c.status(creds(0), t.id).then(() => performance.now() - start)));
    const other = await Promise.all([c.status(creds(1), account(1).id), c.status(creds(2), account(2).id)]).then(() => performance.now() - start);
    const times = await one;
    // 2 at once, then one every 200 ms: the 5th after about 600 ms.
    expect(Math.max(...times)).toBeGreaterThanOrEqual(590);
    // Other accounts do not queue behind the throttled one.
    expect(other).toBeLessThan(Math.max(...times) - 150);
  });

  it("aborts a call that takes longer than timeoutMs", async () => {
    sim.world.faults.latencyMs = 1500;
    const c = client({ timeoutMs: 200 });
    const start = performance.now();
    const err = await c.giftStats(creds(0), account(0).id).catch((e) => e);
    expect(err).toBeInstanceOf(GalaxyServiceError);
    expect(err.kind).toBe("timeout");
    expect(performance.now() - start).toBeLessThan(1000);
  });

  it("a call given up before it starts (a worker closing) sends nothing: no platform call whose failure nobody would take", async () => {
    const c = client();
    const closing = new AbortController();
    closing.abort();
    const before = state().recent.length;
    for (const call of [
      () => c.status(creds(0), account(1).id, { signal: closing.signal }),
      () => c.giftStats(creds(0), account(1).id, { signal: closing.signal, skipCache: true }),
      () => c.userPics(creds(0), [account(1).id, account(2).id], { signal: closing.signal }),
    ]) {
      await expect(call()).rejects.toMatchObject({ kind: "aborted" });
    }
    expect(c.stats().inFlight).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(state().recent.length).toBe(before);
  });

  it("reports an unreachable platform as a network error", async () => {
    const c = new GalaxyServices({ baseUrl: "http://127.0.0.1:1/services/", config: buildServicesConfig(), userAgents: getUserAgent });
    clients.push(c);
    const err = await c.status(creds(0), account(0).id).catch((e) => e);
    expect(err).toMatchObject({ kind: "network" });
  });

  describe("a kept-alive connection the platform closed as the next request went out", () => {
    // In front of the simulator: a server that, like a platform dropping an idle connection in
    // that moment, closes the socket on the second request it reads there, unanswered.
    let proxy: http.Server;
    let connections = 0;
    const seen = new WeakMap<object, number>();
    beforeAll(async () => {
      const target = new URL(sim.servicesUrl);
      proxy = http.createServer((req, res) => {
        const n = (seen.get(req.socket) ?? 0) + 1;
        seen.set(req.socket, n);
        if (n === 2) return void req.socket.destroy();
        const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        req.pipe(upstream);
      });
      proxy.on("connection", () => connections++);
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    });
    afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const viaProxy = () => {
      const { port } = proxy.address() as AddressInfo;
      const c = new GalaxyServices({ baseUrl: `http://127.0.0.1:${port}/services/`, config: buildServicesConfig(), userAgents: getUserAgent });
      clients.push(c);
      return c;
    };

    it("a read goes again on a fresh connection and succeeds", async () => {
      const c = viaProxy();
      const before = connections;
      await c.giftStats(creds(0), account(1).id);
      const stats = await c.giftStats(creds(0), account(2).id);
      const amounts = (list: { type: number; amount: number }[]) => list.map(({ type, amount }) => ({ type, amount }));
      expect(amounts(stats)).toEqual(amounts(await client().giftStats(creds(0), account(2).id)));
      expect(connections - before).toBe(2);
      expect(calls("gift_stats_ajax")).toBe(3);
    });

    it("a POST is not sent again (a gift send must never repeat): the call fails as unreachable", async () => {
      const c = viaProxy();
      await c.search(creds(0), account(5).nick.slice(0, 4));
      const err = await c.search(creds(0), account(6).nick.slice(0, 4)).catch((e) => e);
      expect(err).toMatchObject({ kind: "network", message: "Cannot reach the Galaxy services (ECONNRESET)" });
      expect(calls("search_ajax")).toBe(1);
    });
  });

  it("a kept-alive socket is let go before the platform's announced idle timeout, so a POST after a pause goes on a new connection", async () => {
    // In front of the simulator: a server that closes an idle connection after 2 s and says so
    // (`Keep-Alive: timeout=2`), as Node's and most servers do; we must let go after 1 s.
    const target = new URL(sim.servicesUrl);
    const sockets: string[] = [];
    const proxy = http.createServer((req, res) => {
      const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        // Hop-by-hop: this server's own Connection and Keep-Alive go out, not the simulator's.
        const { connection: _c, "keep-alive": _k, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    proxy.keepAliveTimeout = 2_000;
    proxy.on("connection", (socket) => sockets.push(`${socket.remotePort}`));
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = proxy.address() as AddressInfo;
      const c = new GalaxyServices({ baseUrl: `http://127.0.0.1:${port}/services/`, config: buildServicesConfig(), userAgents: getUserAgent });
      clients.push(c);
      await c.search(creds(0), account(5).nick.slice(0, 4));
      // Soon after: the same connection (keep-alive still saves a connect).
      await new Promise((r) => setTimeout(r, 200));
      await c.search(creds(0), account(6).nick.slice(0, 4));
      expect(sockets).toHaveLength(1);
      // 1.5 s idle: past the hint less 1 s, before the server's 2 s. The old pool sent it on the
      // socket the server was about to close.
      await new Promise((r) => setTimeout(r, 1_500));
      await c.search(creds(0), account(7).nick.slice(0, 4));
      expect(sockets).toHaveLength(2);
      expect(calls("search_ajax")).toBe(3);
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it("maps a 5xx answer to an http error", async () => {
    state().failActions.add("user_status_ajax");
    const err = await client()
      .status(creds(0), account(0).id)
      .catch((e) => e);
    expect(err).toMatchObject({ kind: "http", status: 500 });
  });
});

describe("documented and configured actions against the simulator", () => {
  it("gift stats of the spec's gift types (spec 1 §3, §9)", async () => {
    const stats = await client().giftStats(creds(0), account(7).id);
    expect(stats.map((s) => s.type).sort((a, b) => a - b)).toEqual([1, 4, 8, 11, 12, 13, 15]);
    for (const s of stats) {
      expect(typeof s.amount).toBe("number");
      expect(s.name).toBeTruthy();
      expect(s.img).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/services\/img\/gift\//);
    }
    expect(stats.map((s) => s.amount)).toEqual(giftStatsOf(sim.world, account(7).id).map((g) => g.amount));
  });

  it("user pictures by position; unknown ids map to null", async () => {
    const ids = [account(0).id, account(1).id, "12"];
    const pics = await client().userPics(creds(0), ids);
    expect(Object.keys(pics).sort()).toEqual([...ids].sort());
    expect(pics["12"]).toBeNull();
    const withPic = Object.values(pics).filter(Boolean);
    for (const url of withPic) expect(url).toMatch(/\/services\/img\/avatar\/\d+\.svg$/);
    expect(lastRequest().params).toMatchObject({ a: "user_pics_ajax", users_ids: ids.join(",") });
  });

  it("online status and room follow the world", async () => {
    const c = client();
    const a = account(0);
    sim.world.setOffline(a.id);
    expect(await c.status(creds(1), a.id, { skipCache: true })).toEqual({ isOnline: false, room: null });
    sim.world.moveTo(a.id, "Bowling*3");
    expect(await c.status(creds(1), a.id, { skipCache: true })).toEqual({ isOnline: true, room: "Bowling*3" });
  });

  it("collection stats: parameter 151 by default, 16 items in two rows, counts as text", async () => {
    const c = client();
    const stats = await c.collectionStats(creds(0), account(0).id);
    expect(lastRequest().params.collection_id).toBe("151");
    expect(stats.firstRow).toHaveLength(8);
    expect(stats.secondRow).toHaveLength(8);
    const all = [...stats.firstRow, ...stats.secondRow];
    expect(all.map((i) => i.index)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(all.map((i) => i.count)).toEqual(collectionCounts(sim.world, account(0).id, 151).map(String));
    for (const i of all) expect(typeof i.count).toBe("string");
    const dragon = await c.collectionStats(creds(0), account(0).id, 178);
    expect(dragon.firstRow[0].goodsID).toBe(178001);
    await expect(c.collectionStats(creds(0), account(0).id, 999)).rejects.toMatchObject({ kind: "http", status: 404 });
  });

  it("mastic adds a piece to the collection and clears the cached stats", async () => {
    const c = client();
    const before = await c.collectionStats(creds(0), account(0).id, 161);
    const sum = (s: typeof before) => [...s.firstRow, ...s.secondRow].reduce((n, i) => n + Number(i.count), 0);
    const result = await c.runMastic(creds(0), 161);
    expect(result.success).toBe(true);
    expect(lastRequest()).toMatchObject({ method: "POST", params: { a: "collection_mastic_ajax", collection_id: "161" } });
    const after = await c.collectionStats(creds(0), account(0).id, 161);
    expect(sum(after)).toBe(sum(before) + 1);
  });

  it("inventory across pages (show_inventory HTML) and sending gifts (present_make)", async () => {
    const c = client();
    const idx = sim.world.accounts.findIndex((a) => inventoryOf(sim.world, a.id).length > 25);
    expect(idx).toBeGreaterThanOrEqual(0);
    const sender = account(idx);
    const expected = inventoryOf(sim.world, sender.id).map((i) => i.goodId);
    const items = await c.inventory(creds(idx));
    expect(items.map((i) => Number(i.goodId))).toEqual(expected);
    expect(calls("show_inventory")).toBe(Math.ceil(expected.length / 20));
    expect(items[0].name).toBeTruthy();

    const recipientIdx = idx === 0 ? 1 : 0;
    const recipient = account(recipientIdx);
    const toSend = items.slice(0, 3).map((i) => i.goodId);
    const recipientBefore = inventoryOf(sim.world, recipient.id).length;
    // Issue 34 item 3: no public source shows the answer; the send is confirmed by a fresh inventory read.
    const inventoryReads = calls("show_inventory");
    expect(await c.sendGifts(creds(idx), recipient.id, toSend)).toEqual({ sent: 3, confirmedBy: "inventory" });
    // One fresh read before (the items must be held) and one after (they left), page by page.
    expect(calls("show_inventory") - inventoryReads).toBe(Math.ceil(expected.length / 20) + Math.ceil((expected.length - 3) / 20));
    expect(
      state()
        .recent.filter((r) => r.params.a === "present_make")
        .at(-1),
    ).toMatchObject({
      method: "POST",
      usercur: recipient.id,
      params: { a: "present_make", confirm: "1", give_anonymous: "1", [`checked_items[${toSend[0]}]`]: "1" },
    });
    expect(inventoryOf(sim.world, recipient.id).length).toBe(recipientBefore + 3);
    // The sender's cached inventory was dropped with the send.
    const after = await c.inventory(creds(idx));
    expect(after.map((i) => i.goodId)).not.toContain(toSend[0]);
    // Sending gifts you no longer hold is refused, and nothing is posted.
    const posts = calls("present_make");
    await expect(c.sendGifts(creds(idx), recipient.id, [toSend[0]])).rejects.toMatchObject({ kind: "rejected" });
    expect(calls("present_make")).toBe(posts);
    // A 200 answer that moved nothing (the platform refused in its HTML) is not a send.
    const held = after.slice(0, 1).map((i) => i.goodId);
    await expect(c.sendGifts(creds(idx), sender.id, held, { held: true })).rejects.toMatchObject({
      kind: "rejected",
      message: "The platform did not confirm the gift",
    });
  });

  it("daily award and spend figures of a bowling account, oldest first", async () => {
    const idx = sim.world.accounts.findIndex((a) => a.kind === "bowling");
    const days = await client().dailyStats(creds(idx), account(idx).id, 7);
    expect(days).toHaveLength(7);
    expect(days.at(-1)!.date).toBe(new Date().toISOString().slice(0, 10));
    expect(days).toEqual(dailyStatsOf(sim.world, account(idx), 7));
    expect(days.some((d) => Object.keys(d.awards).length > 0 && Object.keys(d.spent).length > 0)).toBe(true);
  });
});

describe("an operator's configuration file renames actions and response fields", () => {
  let file: string;
  beforeAll(() => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gsc-")), "services.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        undocumented: {
          giftStats: { action: "stats_gifts_v2", response: { listPath: "data.items", amount: "qty" } },
          collectionStats: { collectionParam: "coll" },
        },
      }),
    );
  });
  afterEach(() => {
    delete process.env.GALAXY_SERVICES_CONFIG;
    resetServicesConfig();
  });

  it("client and simulator both follow it", async () => {
    process.env.GALAXY_SERVICES_CONFIG = file;
    resetServicesConfig();
    const c = new GalaxyServices({ baseUrl: sim.servicesUrl, userAgents: getUserAgent });
    clients.push(c);
    const stats = await c.giftStats(creds(0), account(0).id);
    expect(lastRequest().params.a).toBe("stats_gifts_v2");
    expect(stats.map((s) => s.amount)).toEqual(giftStatsOf(sim.world, account(0).id).map((g) => g.amount));
    await c.collectionStats(creds(0), account(0).id, 178);
    expect(lastRequest().params.coll).toBe("178");
  });
});

describe("one client per process (CONVENTIONS rule 13)", () => {
  it("getGalaxyServices keeps one client in the remember registry; resetGalaxyServices closes and forgets it", () => {
    const first = getGalaxyServices();
    expect(getGalaxyServices()).toBe(first);
    expect(recall("galaxy-services")).toBe(first);
    expect((globalThis as Record<string, unknown>).__gtGalaxyServices).toBeUndefined();
    resetGalaxyServices();
    expect(recall("galaxy-services")).toBeUndefined();
    const second = getGalaxyServices();
    expect(second).not.toBe(first);
    resetGalaxyServices();
    resetGalaxyServices(); // nothing left to close: no error
  });
});
