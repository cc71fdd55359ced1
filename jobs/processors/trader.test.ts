/**
 * The trading run against the simulator (issue 11 "The trading run"; galaxy-runtime.md §2.3
 * [D], docs/trading-planets.md): real PostgreSQL, real Redis (this file's prefix), a real
 * in-process BullMQ worker and real sockets. Pauses are scaled by TRADER_TIME_SCALE = 0.025
 * (the 4 s JOIN gap → 100 ms, a sequence second → 25 ms); what is checked is the rule (which
 * planets, in which order, what was posted and answered), never the clock.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PLANET_CATALOGUE } from "#api/planets";
import type { TraderPosition } from "#api/trading";
import { apiArgs } from "#tests/kit/api";
import { startSimulator, type Simulator } from "#sim/server";
import { getDb } from "~/db/client.server";
import { ads, customPlanets, logs, planetSequences, sessions, traderSessions } from "~/db/schema";
import { createAd } from "~/models/ad.server";
import { createCustomPlanet } from "~/models/custom-planet.server";
import { createSequence } from "~/models/planet-sequence.server";
import { getTraderStatus, startTrader, stopTrader } from "~/models/trader.server";
import { upsertUser } from "~/models/user.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { action as startAction } from "~/routes/_app+/_trading-planets+/api.trader.start";
import { action as stopAction } from "~/routes/_app+/_trading-planets+/api.trader.stop";
import { loader as statusLoader } from "~/routes/_app+/_trading-planets+/api.trader.status";
import { closeQueues, getQueue } from "../../app/queue/queues.server";
import { sessionJobId } from "../session-host.server";
import { deleteKeys, endsWithin, stopWhileConnecting, waitFor } from "../test-helpers";
import { startWorkers, type WorkerPool } from "../worker";
import { adLines, expandStep, flyWaitSeconds, nextInRotation, resolvePosition, runTrader } from "./trader";

let sim: Simulator;
let pool: WorkerPool;
const SCALE = 0.025;
const json = (url: string, body: unknown) => new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  Object.assign(process.env, { GALAXY_WS_URL: sim.wsUrl, TRADER_TIME_SCALE: String(SCALE), SESSION_POLL_MS: "300", SESSION_RECONCILE_MS: "1000" });
  resetEnv();
  pool = startWorkers({ mode: "in-process" });
  await Promise.all(pool.workers.map((w) => w.waitUntilReady()));
});
afterAll(async () => {
  await pool?.close(5_000);
  await sim?.close();
  await closeQueues();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

const traders = () => sim.world.accounts.filter((a) => a.kind === "trader");
let n = 0;
async function traderUser() {
  const acc = traders()[n++ % traders().length]!;
  await upsertUser({ accountId: acc.id, nick: acc.nick, password: acc.password, type: "trading" });
  return acc;
}
async function jobState(id: string) {
  const job = await getQueue("trader").getJob(sessionJobId("trader", id));
  return job ? job.getState() : "missing";
}

async function sequence(
  name: string,
  steps: { planetType: string; shuffle?: boolean }[],
  opts: { seconds?: number; open?: number; closed?: number; isActive?: boolean } = {},
) {
  return createSequence({
    name,
    sequence: steps.map((s) => ({ planetType: s.planetType, shuffle: s.shuffle ?? false })),
    seconds: opts.seconds ?? 0,
    openPlanetsLevel: opts.open ?? 0,
    closedPlanetsLevel: opts.closed ?? 999,
    isActive: opts.isActive ?? true,
  });
}
/** Planets of the english type for a test: the given custom english planets, the built-in trade zones blacklisted. */
async function englishPlanets(names: string[]) {
  for (const name of names) await createCustomPlanet({ name, type: "english" });
  for (const name of PLANET_CATALOGUE.english!) await createCustomPlanet({ name: name.toLowerCase(), type: "blacklisted" });
}
const population = (planet: string, count: number) => sim.sockets.trading.setPopulation(planet, count, (id) => sim.sockets.sessions(id).length > 0);
const flights = (id: string) => sim.sockets.trading.flights.filter((f) => f.accountId === id);
const okFlights = (id: string) =>
  flights(id)
    .filter((f) => f.result === "ok")
    .map((f) => f.planet!);
const posts = (id: string) => sim.sockets.trading.chat.filter((c) => c.fromId === id && c.toId === "0");
const replies = (id: string) => sim.sockets.trading.chat.filter((c) => c.fromId === id && c.toId !== "0");
async function position_(id: string): Promise<TraderPosition | null> {
  const [row] = await (await getDb()).select().from(traderSessions).where(eq(traderSessions.accountId, id));
  return row?.position ?? null;
}
async function botLogs() {
  return (await (await getDb()).select().from(logs)).filter((l) => l.source === "bot");
}

beforeEach(async () => {
  const db = await getDb();
  for (const s of await db.select().from(sessions).where(eq(sessions.purpose, "trader"))) {
    await stopTrader(s.key).catch(() => {});
    await waitFor(`job of ${s.key} gone`, async () => (await jobState(s.key)) === "missing", 10_000);
  }
  sim.sockets.dropAll();
  sim.world.reset();
  await db.delete(sessions);
  await db.delete(traderSessions);
  await db.delete(planetSequences);
  await db.delete(customPlanets);
  await db.delete(ads);
  await db.delete(logs);
});

describe("the run's building blocks (galaxy-runtime.md §2.3)", () => {
  it("expandStep: catalogue + custom english, blacklisted dropped case-insensitively, shuffled only when asked", () => {
    const custom = [
      { _id: "1", name: "Orion", type: "english" as const },
      { _id: "2", name: "TRADEZONE*2", type: "blacklisted" as const },
      { _id: "3", name: "cannon*3", type: "blacklisted" as const },
    ];
    expect(expandStep({ planetType: "english", shuffle: false }, custom)).toEqual(["TradeZone*1", "Orion"]);
    const cannon = expandStep({ planetType: "cannon", shuffle: false }, custom);
    expect(cannon).toHaveLength(34);
    expect(cannon).not.toContain("Cannon*3");
    expect(expandStep({ planetType: "russian", shuffle: false }, custom)).toEqual([]);
    let k = 0;
    const reversed = expandStep({ planetType: "ring", shuffle: true }, custom, () => (k++ % 2 ? 0 : 0.999));
    expect([...reversed].sort()).toEqual([...PLANET_CATALOGUE.ring!].sort());
    expect(reversed).not.toEqual(PLANET_CATALOGUE.ring);
  });

  it("adLines: text kept exactly, a line per line break, pieces of at most 200 characters (emoji count as one)", () => {
    expect(adLines("Swap 🌟 <b>&amp;</b>  x")).toEqual(["Swap 🌟 <b>&amp;</b>  x"]);
    expect(adLines("one\r\n\ntwo\n")).toEqual(["one", "two"]);
    const emoji = "🌟".repeat(200);
    expect(adLines(emoji)).toEqual([emoji]);
    const long = `${"word ".repeat(60)}end`;
    const parts = adLines(long);
    expect(parts.length).toBe(2);
    expect(parts.every((p) => [...p].length <= 200)).toBe(true);
    expect(parts.join("")).toBe(long);
  });

  it("rotation and fly-rate texts", () => {
    const list = [{ _id: "a" }, { _id: "b" }, { _id: "c" }];
    expect(nextInRotation(list, null)?._id).toBe("a");
    expect(nextInRotation(list, "a")?._id).toBe("b");
    expect(nextInRotation(list, "c")?._id).toBe("a");
    expect(nextInRotation(list, "gone")?._id).toBe("a");
    expect(nextInRotation([], "a")).toBeNull();
    expect(flyWaitSeconds("Oops! You can't go to X! You aren't allowed to change Planets that frequently. Please wait 7 seconds.")).toBe(7);
    expect(flyWaitSeconds("You can't fly more often than once in 3 s")).toBe(3);
    expect(flyWaitSeconds("go away")).toBeNull();
  });

  it("resolvePosition: active sequences in list order, steps without planets skipped, wrap counts a round", () => {
    const step = (id: string, planetType: string) => ({ id, planetType, shuffle: false });
    const base = { seconds: 0, closedPlanetsLevel: 51, openPlanetsLevel: 15 };
    const seqs = [
      { _id: "s1", name: "A", sequence: [step("a1", "english"), step("a2", "russian")], isActive: true, ...base },
      { _id: "s2", name: "B", sequence: [step("b1", "bowling")], isActive: false, ...base },
      { _id: "s3", name: "C", sequence: [step("c1", "ring")], isActive: true, ...base },
    ];
    const first = resolvePosition(null, seqs, [])!;
    expect(first.pos).toMatchObject({ sequenceId: "s1", stepId: "a1", planets: ["TradeZone*1", "TradeZone*2"], planetIndex: 0 });
    expect(first.wrapped).toBe(false);
    const second = resolvePosition({ ...first.pos, planetIndex: 2 }, seqs, [])!;
    expect(second.pos).toMatchObject({ sequenceId: "s3", stepId: "c1", sequenceIndex: 2 });
    expect(second.skippedSteps).toEqual(["A step 2 (russian)"]);
    const third = resolvePosition({ ...second.pos, planetIndex: 15 }, seqs, [])!;
    expect(third.pos).toMatchObject({ sequenceId: "s1", stepId: "a1" });
    expect(third.wrapped).toBe(true);
    expect(
      resolvePosition(
        null,
        seqs.map((s) => ({ ...s, isActive: false })),
        [],
      ),
    ).toBeNull();
  });
});

describe("issue 11 'The trading run' against the simulator", () => {
  it("walks the active sequences in list order (inactive skipped), shuffles a step when set, drops blacklisted planets, loops", async () => {
    const acc = await traderUser();
    await createCustomPlanet({ name: "Orion", type: "english" });
    await createCustomPlanet({ name: "Nebula", type: "english" });
    await createCustomPlanet({ name: "tradezone*2", type: "blacklisted" });
    await createCustomPlanet({ name: "NEBULA", type: "blacklisted" });
    await sequence("English first", [{ planetType: "english", shuffle: false }]);
    await sequence("Bowling off", [{ planetType: "bowling" }], { isActive: false });
    await sequence("Rings shuffled", [{ planetType: "russian" }, { planetType: "ring", shuffle: true }]);
    await startTrader(acc.id);

    const seen = await waitFor("two rounds", () => (okFlights(acc.id).length >= 2 + 15 + 2 + 15 ? okFlights(acc.id) : false), 30_000);
    expect(seen.slice(0, 2)).toEqual(["TradeZone*1", "Orion"]);
    const rings1 = seen.slice(2, 17);
    expect([...rings1].sort()).toEqual([...PLANET_CATALOGUE.ring!].sort());
    expect(rings1).not.toEqual(PLANET_CATALOGUE.ring);
    expect(seen.slice(17, 19)).toEqual(["TradeZone*1", "Orion"]);
    const rings2 = seen.slice(19, 34);
    expect([...rings2].sort()).toEqual([...PLANET_CATALOGUE.ring!].sort());
    expect(rings2).not.toEqual(rings1);
    expect(seen.some((p) => /bowling|tradezone\*2|nebula/i.test(p))).toBe(false);
    const status = await getTraderStatus(acc.id);
    expect(status!.counts.rounds).toBeGreaterThanOrEqual(1);
    expect((await botLogs()).map((l) => l.message)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Trader ${acc.nick.replace(/[[\]]/g, "\\$&")} finished a round of the active sequences \\(1 rounds, \\d+ visits, \\d+ posts, 0 replies, 0 skipped, 0 failures since the start\\); starting over$`,
        ),
      ),
    );
    expect((await botLogs()).some((l) => l.message.includes("skipped Rings shuffled step 1 (russian): no planets"))).toBe(true);
  });

  it("levels (our reading): posts only where openPlanetsLevel ≤ head-count ≤ closedPlanetsLevel; others left at once, logged", async () => {
    const acc = await traderUser();
    await englishPlanets(["Galaxy", "Paradise", "Orion", "Vega"]);
    population("Galaxy", 3); // = open: posts
    population("Paradise", 2); // below open: skipped
    population("Orion", 8); // = closed: posts
    population("Vega", 9); // above closed: skipped
    await createAd({ adsMessage: "Trading gifts, PM me", category: "ads", isActive: true });
    await sequence("Levels", [{ planetType: "english" }], { open: 3, closed: 8 });
    await startTrader(acc.id);

    await waitFor("a round", () => okFlights(acc.id).length >= 5);
    expect(okFlights(acc.id).slice(0, 4)).toEqual(["Galaxy", "Paradise", "Orion", "Vega"]);
    const round1 = posts(acc.id).filter((p) => p.at < flights(acc.id).filter((f) => f.result === "ok")[4]!.at);
    expect(round1.map((p) => p.planet)).toEqual(["Galaxy", "Orion"]);
    expect(round1.every((p) => p.text === "Trading gifts, PM me")).toBe(true);
    const messages = (await botLogs()).map((l) => l.message);
    expect(messages).toContain(`Trader ${acc.nick}: Paradise has 2 users, fewer than the open level 3; not posting`);
    expect(messages).toContain(`Trader ${acc.nick}: Vega has 9 users, more than the closed level 8; not posting`);
    expect(messages).toContain(`Trader ${acc.nick} posted an ad on Galaxy (3 users)`);
  });

  it("posts the active ads in rotation (inactive ads and msgs never), each line ≤ 200 characters, text exactly", async () => {
    const acc = await traderUser();
    await englishPlanets(["Galaxy"]);
    const a1 = "Swap 🌟 <b>rare</b> & gifts :) «ok»";
    await createAd({ adsMessage: a1, category: "ads", isActive: true });
    await createAd({ adsMessage: "never posted", category: "ads", isActive: false });
    await createAd({ adsMessage: "line one\nline two", category: "ads", isActive: true });
    await createAd({ adsMessage: "a reply text", category: "msg", isActive: true });
    await sequence("One planet", [{ planetType: "english" }]);
    await startTrader(acc.id);

    const texts = await waitFor("5 lines", () => (posts(acc.id).length >= 5 ? posts(acc.id).map((p) => p.text) : false));
    expect(texts.slice(0, 5)).toEqual([a1, "line one", "line two", a1, "line one"]);
    expect(texts).not.toContain("never posted");
    expect(texts).not.toContain("a reply text");
    // What other clients on the planet see: PRIVMSG <traderId> 0 0 :<text>.
    expect(posts(acc.id)[0]).toMatchObject({ planet: "Galaxy", toId: "0" });
  });

  it("answers users who address it with the active msgs, once per sender per visit (rotating msgs), again on the next visit", async () => {
    const acc = await traderUser();
    await englishPlanets(["Galaxy"]);
    population("Galaxy", 3);
    const [c1, c2, c3] = sim.world.occupants("Galaxy").filter((id) => id !== acc.id);
    const nick = (id: string) => sim.world.people.get(id)!.nick;
    await createAd({ adsMessage: "first msg", category: "msg", isActive: true });
    await createAd({ adsMessage: "second msg", category: "msg", isActive: true });
    await createAd({ adsMessage: "off msg", category: "msg", isActive: false });
    await sequence("Long stay", [{ planetType: "english" }], { seconds: 400 }); // 10 s scaled
    await startTrader(acc.id);
    // The visit is counted just after the state says "on planet": wait for both.
    await waitFor("on Galaxy", async () => {
      const s = await getTraderStatus(acc.id);
      return s?.state === "on_planet" && s.counts.visits > 0;
    });
    const visits = (await getTraderStatus(acc.id))!.counts.visits;

    sim.sockets.say("Galaxy", c1!, "hi, what do you trade?", acc.id);
    sim.sockets.say("Galaxy", c1!, "hello again", acc.id); // same sender, same visit: no reply
    sim.sockets.say("Galaxy", c3!, "general chat"); // not addressed: no reply
    sim.sockets.say("Galaxy", c2!, `${acc.nick}, got roses?`); // addressed by nick
    const got = await waitFor("two replies", () => (replies(acc.id).length >= 2 ? replies(acc.id) : false));
    expect(got.map((r) => [r.toId, r.text])).toEqual([
      [c1, `${nick(c1!)}, first msg`],
      [c2, `${nick(c2!)}, second msg`],
    ]);
    const pos = await waitFor("reply memory stored", async () => ((await position_(acc.id))?.repliedTo.length === 2 ? position_(acc.id) : false));
    expect(pos!.repliedTo).toEqual([c1, c2]);
    expect((await getTraderStatus(acc.id))!.counts.visits).toBe(visits);

    // The next visit forgets who was answered.
    await waitFor(
      "next visit",
      async () => (await getTraderStatus(acc.id))!.counts.visits > visits && (await getTraderStatus(acc.id))!.state === "on_planet",
      20_000,
    );
    sim.sockets.say("Galaxy", c1!, "me again", acc.id);
    const again = await waitFor("third reply", () => (replies(acc.id).length >= 3 ? replies(acc.id) : false));
    expect(again[2]).toMatchObject({ toId: c1, text: `${nick(c1!)}, first msg` });
    expect(replies(acc.id).some((r) => r.toId === c3)).toBe(false);
  });

  it("keeps ≥ 4 s (scaled) between JOINs: a platform with a shorter fly interval never refuses a flight", async () => {
    const acc = await traderUser();
    await englishPlanets(["Galaxy", "Paradise", "Orion"]);
    sim.world.faults.flyIntervalMs = 60; // the run's gap is 100 ms at this scale
    sim.world.faults.flyPenalty = "kick";
    await sequence("Hop", [{ planetType: "english" }]);
    await startTrader(acc.id);
    await waitFor("8 flights", () => flights(acc.id).length >= 8);
    expect(flights(acc.id).map((f) => f.result)).toEqual(flights(acc.id).map(() => "ok"));
  });

  it("respects the fly-rate kick: waits the seconds the text names, flies to the same planet again, nothing skipped", async () => {
    const acc = await traderUser();
    await englishPlanets(["Galaxy", "Paradise"]);
    sim.world.faults.flyIntervalMs = 400; // longer than the run's gap: the 2nd flight is refused with a KICK
    sim.world.faults.flyPenalty = "kick";
    await sequence("Hop", [{ planetType: "english" }]);
    await startTrader(acc.id);
    await waitFor("Paradise reached", () => okFlights(acc.id).includes("Paradise"));
    const results = flights(acc.id).map((f) => `${f.planet}:${f.result}`);
    expect(results.slice(0, 3)).toEqual(["Galaxy:ok", "Paradise:fly-rate", "Paradise:ok"]);
    const messages = (await botLogs()).map((l) => l.message);
    expect(messages.some((m) => m.startsWith(`Trader ${acc.nick}: refused flight to Paradise (Oops! You can't go to Paradise!`))).toBe(true);
    expect((await getTraderStatus(acc.id))!.counts.failures).toBe(0);
  });

  it("join failures (no such planet, locked, full) are logged to System Logs (error, source bot) and skipped", async () => {
    const acc = await traderUser();
    await englishPlanets(["Nowhere", "Vault", "Tiny", "Galaxy"]);
    await createAd({ adsMessage: "still posting", category: "ads", isActive: true });
    await sequence("Failures", [{ planetType: "english" }]);
    await startTrader(acc.id);
    await waitFor("posted on Galaxy", () => posts(acc.id).some((p) => p.planet === "Galaxy"));
    expect(
      flights(acc.id)
        .slice(0, 4)
        .map((f) => `${f.planet}:${f.result}`),
    ).toEqual(["Nowhere:403", "Vault:473", "Tiny:471", "Galaxy:ok"]);
    const errors = (await botLogs()).filter((l) => l.type === "error").map((l) => l.message);
    expect(errors).toEqual(
      expect.arrayContaining([
        `Trader ${acc.nick}: could not join Nowhere: Planet with such name doesn't exist! (403); skipped`,
        `Trader ${acc.nick}: could not join Vault: This Planet is locked! (473); skipped`,
        `Trader ${acc.nick}: could not join Tiny: This Planet is full! (471); skipped`,
      ]),
    );
    const status = await waitFor("counts", async () => ((await getTraderStatus(acc.id))!.counts.posts >= 1 ? getTraderStatus(acc.id) : false));
    expect(status!.counts.failures).toBeGreaterThanOrEqual(3);
  });

  it("PRISON during a stay: the visit ends, state error, logged; the run pauses, then goes on", async () => {
    const acc = await traderUser();
    await englishPlanets(["Galaxy", "Orion"]);
    await sequence("Long stay", [{ planetType: "english" }], { seconds: 400 });
    await startTrader(acc.id);
    await waitFor("on Galaxy", async () => (await getTraderStatus(acc.id))?.planet === "Galaxy" && (await getTraderStatus(acc.id))?.state === "on_planet");
    sim.sockets.imprison(acc.id);
    const jailed = await waitFor("error state", async () => ((await getTraderStatus(acc.id))?.state === "error" ? getTraderStatus(acc.id) : false));
    expect(jailed!.error).toBe("In prison: You were sent to prison");
    expect((await botLogs()).map((l) => [l.type, l.message])).toContainEqual([
      "error",
      `Trader ${acc.nick} was imprisoned (You were sent to prison); the run pauses 2 s`,
    ]);
    await waitFor("flies on to Orion", () => okFlights(acc.id).includes("Orion"), 20_000);
  });

  it("451: the run stops with “Login failed: Invalid credentials” (state error, shown until started again)", async () => {
    const acc = traders()[n++ % traders().length]!;
    await upsertUser({ accountId: acc.id, nick: acc.nick, password: "f".repeat(32), type: "trading" });
    await englishPlanets(["Galaxy"]);
    await sequence("Any", [{ planetType: "english" }]);
    await startTrader(acc.id);
    const s = await waitFor("error", async () => ((await getTraderStatus(acc.id))?.state === "error" ? getTraderStatus(acc.id) : false));
    expect(s).toMatchObject({ desired: "stop", actual: "failed", error: "Login failed: Invalid credentials", holder: null });
    await waitFor("job ended", async () => (await jobState(acc.id)) === "missing");
    expect(await stopTrader(acc.id)).toMatchObject({ state: "error", error: "Login failed: Invalid credentials" });
  });

  it("a dropped connection: reconnects and resumes the run after the visit that had posted", async () => {
    const acc = await traderUser();
    await englishPlanets(["Galaxy", "Orion", "Vega"]);
    await createAd({ adsMessage: "resume me", category: "ads", isActive: true });
    await sequence("Long stay", [{ planetType: "english" }], { seconds: 400 });
    await startTrader(acc.id);
    await waitFor("posted on Galaxy", () => posts(acc.id).length === 1);
    sim.sockets.dropAccount(acc.id);
    await waitFor("posted on Orion", () => posts(acc.id).length === 2, 20_000);
    expect(posts(acc.id).map((p) => p.planet)).toEqual(["Galaxy", "Orion"]);
    expect((await botLogs()).some((l) => l.type === "disconnect" && l.message.startsWith(`Trader ${acc.nick}: Connection to Galaxy lost; reconnecting`))).toBe(
      true,
    );
  });

  it("picks up changes at the next step: a sequence switched off is left, a new ad is posted", async () => {
    const acc = await traderUser();
    await englishPlanets(["Galaxy"]);
    const s1 = await sequence("First", [{ planetType: "english" }]);
    await sequence("Second", [{ planetType: "bowling" }], { isActive: false });
    await createAd({ adsMessage: "old ad", category: "ads", isActive: true });
    await startTrader(acc.id);
    await waitFor("posted old ad", () => posts(acc.id).some((p) => p.text === "old ad"));
    const db = await getDb();
    await db.update(ads).set({ isActive: false });
    await createAd({ adsMessage: "new ad", category: "ads", isActive: true });
    await db.update(planetSequences).set({ isActive: false }).where(eq(planetSequences.id, s1._id));
    await db.update(planetSequences).set({ isActive: true }).where(eq(planetSequences.name, "Second"));
    await waitFor("on bowling planets", () => okFlights(acc.id).some((p) => p.startsWith("Bowling*")), 20_000);
    const firstBowling = okFlights(acc.id).findIndex((p) => p.startsWith("Bowling*"));
    expect(
      okFlights(acc.id)
        .slice(firstBowling)
        .every((p) => p.startsWith("Bowling*")),
    ).toBe(true);
    await waitFor("new ad posted", () => posts(acc.id).some((p) => p.text === "new ad"));
  });

  it("a stop that lands while it is still writing 'connecting' (before the socket exists) ends it without logging in", async () => {
    const acc = await traderUser();
    await englishPlanets(["Galaxy"]);
    await sequence("Stay", [{ planetType: "english" }], { seconds: 400 });
    const { ctx, reports } = stopWhileConnecting("trader", acc.id);
    const t0 = Date.now();
    expect(await endsWithin(runTrader(ctx))).toBe("returned");
    expect(reports).not.toContain("active");
    const { open, closed } = sim.sockets.snapshot();
    expect([...open, ...closed].filter((c) => c.accountId === acc.id && Date.parse(c.openedAt) >= t0)).toHaveLength(0);
  });

  it("/api/trader/start|stop|status: 202 started, listed with its state, 400 for a non-trading user, 404 unknown; stop sends QUIT :ds and shows idle", async () => {
    const acc = await traderUser();
    const plain = sim.world.accounts.find((a) => a.kind === "plain")!;
    await upsertUser({ accountId: plain.id, nick: plain.nick, password: plain.password, type: "bowling" });
    await englishPlanets(["Galaxy"]);
    await sequence("Stay", [{ planetType: "english" }], { seconds: 400 });

    const bad = (await startAction(await apiArgs(json("http://localhost/api/trader/start", { account_id: plain.id })))) as Response;
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: "Only users of type trading can run the trading planets",
      message: "Only users of type trading can run the trading planets",
    });
    const unknown = (await startAction(await apiArgs(json("http://localhost/api/trader/start", { account_id: "123" })))) as Response;
    expect(unknown.status).toBe(404);
    const malformed = (await startAction(await apiArgs(json("http://localhost/api/trader/start", { account_id: "x y" })))) as Response;
    expect(malformed.status).toBe(400);
    expect(await (await getDb()).select().from(traderSessions)).toEqual([]);
    expect(await (await getDb()).select().from(sessions)).toEqual([]);

    const res = (await startAction(await apiArgs(json("http://localhost/api/trader/start", { account_id: acc.id })))) as Response;
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ success: true, message: "Trader started successfully", trader: { accountId: acc.id, desired: "run" } });
    await waitFor("on planet", async () => (await getTraderStatus(acc.id))?.state === "on_planet");
    const listed = (await statusLoader(await apiArgs(new Request("http://localhost/api/trader/status")))) as Response;
    const body = (await listed.json()) as { traders: { accountId: string; state: string; planet: string; desired: string }[] };
    expect(body.traders.filter((t) => t.desired === "run").map((t) => t.accountId)).toEqual([acc.id]);
    expect(body.traders.filter((t) => t.accountId === acc.id)).toEqual([
      expect.objectContaining({ accountId: acc.id, nick: acc.nick, state: "on_planet", planet: "Galaxy", desired: "run", actual: "active" }),
    ]);

    const stop = (await stopAction(await apiArgs(json("http://localhost/api/trader/stop", { account_id: acc.id })))) as Response;
    expect(stop.status).toBe(200);
    expect(await stop.json()).toMatchObject({
      success: true,
      message: "Trader stopped successfully",
      trader: { desired: "stop", actual: "stopped", state: "idle" },
    });
    await waitFor("QUIT :ds", () => sim.sockets.closed.some((c) => c.accountId === acc.id && c.quit === "ds"));
    await waitFor("job ended", async () => (await jobState(acc.id)) === "missing");
    expect(await getTraderStatus(acc.id)).toMatchObject({ desired: "stop", state: "idle", holder: null, planet: null });
  });
});
