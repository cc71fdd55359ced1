import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "./server";
import { createWorld } from "./world";
import { collectionCounts, dailyStatsOf, giftStatsOf, inventoryOf, resetServicesFigures, servicesState } from "./services-data";

/** The simulated /services/ as a raw HTTP peer (reference §7), without our client in between. */

let sim: Simulator;
const account = (i: number) => sim.world.accounts[i];

function url(params: Record<string, string>, i = 0) {
  const u = new URL(sim.servicesUrl);
  u.searchParams.set("userID", account(i).id);
  u.searchParams.set("password", account(i).password);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.world.reset();
  resetServicesFigures(sim.world);
});

describe("simulated services: access and faults", () => {
  it("checks userID/password against the world", async () => {
    const u = url({ a: "gift_stats_ajax" });
    u.searchParams.set("password", "wrong");
    const res = await fetch(u);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Wrong user ID or password" });
    expect((await fetch(url({ a: "gift_stats_ajax" }))).status).toBe(200);
  });

  it("waits world.faults.latencyMs before answering (fault injection applies to HTTP too)", async () => {
    sim.world.faults.latencyMs = 120;
    const start = performance.now();
    await fetch(url({ a: "user_status_ajax" }));
    expect(performance.now() - start).toBeGreaterThanOrEqual(115);
  });

  it("the control endpoint's latency applies to the services", async () => {
    const r = await fetch(`${sim.controlUrl}faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ latencyMs: 80 }),
    });
    expect(r.ok).toBe(true);
    const start = performance.now();
    await fetch(url({ a: "pay_get_balance" }));
    expect(performance.now() - start).toBeGreaterThanOrEqual(75);
  });

  it("POST /__sim/faults {hold}: every answer waits until hold is off, then all come", async () => {
    const faults = (body: unknown) =>
      fetch(`${sim.controlUrl}faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(((await (await faults({ hold: true })).json()) as { faults: unknown }).faults).toMatchObject({ hold: true });
    let answered = 0;
    const pending = Array.from({ length: 3 }, (_, i) => fetch(url({ a: "user_status_ajax" }, i)).then((r) => (answered++, r.status)));
    await expect.poll(() => servicesState(sim.world).inFlight).toBe(3);
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(0);
    await faults({ hold: false });
    expect(await Promise.all(pending)).toEqual([200, 200, 200]);
    expect((await faults({ hold: "yes" })).status).toBe(400);
  });

  it("answers 404 for unknown actions and paths, 500 for actions set to fail", async () => {
    expect((await fetch(url({ a: "no_such_action" }))).status).toBe(404);
    expect((await fetch(`${sim.url}/services/elsewhere`)).status).toBe(404);
    servicesState(sim.world).failActions.add("gift_stats_ajax");
    expect((await fetch(url({ a: "gift_stats_ajax" }))).status).toBe(500);
  });

  it("POST /__sim/faults {failAccounts, failActions}: every call about those accounts / of those actions answers 500 with the platform's error text; [] clears", async () => {
    const faults = (body: unknown) =>
      fetch(`${sim.controlUrl}faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const r = await faults({ failAccounts: [account(1).id], failActions: ["pay_get_balance"] });
    expect(((await r.json()) as { faults: unknown }).faults).toMatchObject({ failAccounts: [account(1).id], failActions: ["pay_get_balance"] });
    const about1 = url({ a: "gift_stats_ajax", usercur: account(1).id });
    expect((await fetch(about1)).status).toBe(500);
    expect(await (await fetch(url({ a: "gift_stats_ajax" }, 1))).json()).toEqual({ error: "Simulated service failure" });
    expect((await fetch(url({ a: "gift_stats_ajax", usercur: account(2).id }))).status).toBe(200);
    expect((await fetch(url({ a: "pay_get_balance" }))).status).toBe(500);
    await faults({ failAccounts: [] });
    expect((await fetch(about1)).status).toBe(200);
    expect((await (await fetch(`${sim.controlUrl}faults`)).json()) as { faults: unknown }).toMatchObject({
      faults: { failAccounts: [], failActions: ["pay_get_balance"] },
    });
    expect((await faults({ failAccounts: ["not-an-id"] })).status).toBe(400);
  });

  it("counts requests per action and the peak of concurrent requests", async () => {
    sim.world.faults.latencyMs = 300;
    await Promise.all(Array.from({ length: 5 }, () => fetch(url({ a: "user_status_ajax" }))));
    const s = servicesState(sim.world);
    expect(s.counts.get("user_status_ajax")).toBe(5);
    expect(s.maxInFlight).toBe(5);
    expect(s.recent.at(-1)!.params.password).toBe("***");
  });
});

describe("simulated services: documented actions (reference §7.2)", () => {
  it("user_pics_ajax: JSON keyed by user id, each a map of picture URLs keyed by numeric size (the official client reads avatars.2)", async () => {
    const ids = [account(0).id, account(1).id, "5"];
    const json = await (await fetch(url({ a: "user_pics_ajax", users_ids: ids.join(",") }))).json();
    expect(Object.keys(json).sort()).toEqual([account(0).id, account(1).id].sort());
    const pics = Object.values(json) as Record<string, string>[];
    expect(pics.some((p) => typeof p["2"] === "string")).toBe(true);
    for (const p of pics) expect(Object.keys(p).every((k) => /^\d+$/.test(k))).toBe(true);
    const avatar = pics.find((p) => p["2"])!["2"];
    const img = await fetch(avatar);
    expect(img.headers.get("content-type")).toBe("image/svg+xml");
    expect(await img.text()).toMatch(/^<svg/);
  });

  it("show_inventory: div.s__item with goodID links and div.s__name, page counter cur/total", async () => {
    const i = sim.world.accounts.findIndex((a) => inventoryOf(sim.world, a.id).length > 20);
    const items = inventoryOf(sim.world, account(i).id);
    const html = await (await fetch(url({ a: "show_inventory", usercur: account(i).id, page: "2", sock: "0" }, i))).text();
    const pages = Math.ceil(items.length / 20);
    expect(html).toContain(`<div class="s__pages__counter">2/${pages}</div>`);
    const second = items.slice(20, 40);
    expect([...html.matchAll(/goodID=(\d+)/g)].map((m) => Number(m[1]))).toEqual(second.map((x) => x.goodId));
    expect(html).toContain(`<div class="s__name">${second[0].name}</div>`);
  });

  it("present_make: multipart or urlencoded checked_items move gifts; bad sends are refused in HTML", async () => {
    const i = sim.world.accounts.findIndex((a) => inventoryOf(sim.world, a.id).length >= 2);
    const [g1, g2] = inventoryOf(sim.world, account(i).id);
    const to = account(i === 0 ? 1 : 0);
    const form = new FormData();
    form.set(`checked_items[${g1.goodId}]`, "1");
    form.set("give_anonymous", "1");
    const ok = await (await fetch(url({ a: "present_make", usercur: to.id, confirm: "1" }, i), { method: "POST", body: form })).text();
    // No invented confirming class (issue 34 item 3): the answer is a plain page.
    expect(ok).not.toContain(`s__present__ok`);
    expect(ok).toContain(`Gifts sent: 1 to`);
    expect(inventoryOf(sim.world, to.id).some((x) => x.goodId === g1.goodId)).toBe(true);

    const again = await (
      await fetch(url({ a: "present_make", usercur: to.id }, i), { method: "POST", body: new URLSearchParams({ [`checked_items[${g1.goodId}]`]: "1" }) })
    ).text();
    expect(again).toContain("s__present__error");
    const unknownUser = await (
      await fetch(url({ a: "present_make", usercur: "3" }, i), { method: "POST", body: new URLSearchParams({ [`checked_items[${g2.goodId}]`]: "1" }) })
    ).text();
    expect(unknownUser).toContain("User not found");
  });

  it("search_ajax: searchResult.initialMatchList with userId, userNickData.nick, lastOnline", async () => {
    const target = account(9);
    const res = await fetch(url({}), { method: "POST", body: new URLSearchParams({ a: "search_ajax", type: "1", search_value: target.nick, ajax: "1" }) });
    const json = await res.json();
    const hit = json.searchResult.initialMatchList.find((m: { userId: number }) => String(m.userId) === target.id);
    expect(hit).toMatchObject({ userNickData: { nick: target.nick }, lastOnline: expect.any(String) });
  });
});

describe("simulated services: per-account data (deterministic from the seed)", () => {
  it("the same seed gives the same gift stats, collections and daily figures", () => {
    const a = createWorld(7);
    const b = createWorld(7);
    const c = createWorld(8);
    const id = a.accounts[0].id;
    expect(giftStatsOf(a, id)).toEqual(giftStatsOf(b, id));
    expect(collectionCounts(a, id, 151)).toEqual(collectionCounts(b, id, 151));
    expect(dailyStatsOf(a, a.accounts[0], 10)).toEqual(dailyStatsOf(b, b.accounts[0], 10));
    expect(giftStatsOf(a, id)).not.toEqual(giftStatsOf(c, id));
  });

  it("regular gift amounts straddle the spec's thresholds across accounts (spec 1 §9)", () => {
    const w = createWorld(1);
    const amounts = w.accounts.map((a) => giftStatsOf(w, a.id).find((g) => g.type === 12)!.amount);
    expect(amounts.some((n) => n >= 200)).toBe(true);
    expect(amounts.some((n) => n < 200)).toBe(true);
  });

  it("daily figures: 7+ days for bowling accounts, empty days for others", () => {
    const w = createWorld(1);
    const bowler = w.accounts.find((a) => a.kind === "bowling")!;
    const plain = w.accounts.find((a) => a.kind === "plain")!;
    const days = dailyStatsOf(w, bowler, 14);
    expect(days).toHaveLength(14);
    expect(days.some((d) => Object.keys(d.spent).length)).toBe(true);
    expect(dailyStatsOf(w, plain, 7).every((d) => !Object.keys(d.spent).length && !Object.keys(d.awards).length)).toBe(true);
  });

  it("World.reset() undoes the services' writes too", async () => {
    const w = createWorld(3);
    const id = w.accounts[0].id;
    const before = [...collectionCounts(w, id, 151)];
    collectionCounts(w, id, 151)[0] += 5;
    w.reset();
    expect(collectionCounts(w, id, 151)).toEqual(before);
  });

  it("mastic over HTTP adds one piece to the chosen collection", async () => {
    const before = collectionCounts(sim.world, account(0).id, 178).reduce((a, b) => a + b, 0);
    const res = await fetch(url({}), { method: "POST", body: new URLSearchParams({ a: "collection_mastic_ajax", collection_id: "178" }) });
    expect(await res.json()).toMatchObject({ success: true });
    expect(collectionCounts(sim.world, account(0).id, 178).reduce((a, b) => a + b, 0)).toBe(before + 1);
  });
});
