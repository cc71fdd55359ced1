import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { RELAY_ERRORS } from "#api/galacord";
import { planetSchema } from "#api/galacord-schemas";
import { PLANET_NAME_RULE } from "#api/planet-name";
import { TRADING_ERRORS, TRADING_MESSAGES } from "#api/trading";
import { createCustomPlanetSchema } from "#api/trading-schemas";
import { apiArgs, errorBody } from "#tests/kit/api";
import { getDb } from "~/db/client.server";
import { ads, customPlanets, planetSequences, traderSessions } from "~/db/schema";
import { action as adsAction, loader as adsLoader } from "./api.ads";
import { action as adAction } from "./api.ads.$id";
import { action as planetsAction, loader as planetsLoader } from "./api.custom-planets";
import { action as planetAction } from "./api.custom-planets.$id";
import { action as seqsAction, loader as seqsLoader } from "./api.planet-sequences";
import { action as seqAction } from "./api.planet-sequences.$id";

const base = "http://localhost/api";
type Handler = (args: Awaited<ReturnType<typeof apiArgs>>) => Promise<Response>;

async function call(handler: Handler, method: string, path: string, body?: unknown, params: Record<string, string> = {}) {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers = { "Content-Type": "application/json" };
  }
  const res = await handler(await apiArgs(new Request(`${base}${path}`, init), params));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function tableHash() {
  const db = await getDb();
  const res = await db.execute(
    sql`select (select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from planet_sequences t) a, (select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from custom_planets t) b, (select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ads t) c`,
  );
  return JSON.stringify((res as unknown as { rows: unknown[] }).rows[0]);
}

beforeEach(async () => {
  const db = await getDb();
  await db.delete(planetSequences);
  await db.delete(customPlanets);
  await db.delete(ads);
});

const createSeq = (body: unknown) => call(seqsAction as Handler, "POST", "/planet-sequences", body);

describe("/api/planet-sequences (spec 2 §7 Trading planets: list → sequences, create, update, delete, bulk active)", () => {
  it("POST applies the spec 2 §3/§9 defaults: seconds 6, closed 51, open 15, active; shuffle true unless the type starts with russian", async () => {
    const { status, body } = await createSeq({
      name: "  Morning  ",
      sequence: [{ planetType: "ring" }, { planetType: "russian" }, { planetType: "russian", shuffle: true }],
    });
    expect(status).toBe(201);
    const seq = body.sequence as Record<string, unknown>;
    expect(seq).toMatchObject({ name: "Morning", seconds: 6, closedPlanetsLevel: 51, openPlanetsLevel: 15, isActive: true });
    const steps = seq.sequence as { id: string; planetType: string; shuffle: boolean }[];
    expect(steps.map((s) => [s.planetType, s.shuffle])).toEqual([
      ["ring", true],
      ["russian", false],
      ["russian", true],
    ]);
    expect(steps.every((s) => typeof s.id === "string" && s.id.length > 0)).toBe(true);
    const list = await call(seqsLoader as Handler, "GET", "/planet-sequences");
    expect(list.status).toBe(200);
    expect((list.body.sequences as unknown[]).length).toBe(1);
  });

  it("GET lists sequences in creation (list) order", async () => {
    for (const name of ["A", "B", "C"]) await createSeq({ name, sequence: [{ planetType: "ring" }] });
    const { body } = await call(seqsLoader as Handler, "GET", "/planet-sequences");
    expect((body.sequences as { name: string }[]).map((s) => s.name)).toEqual(["A", "B", "C"]);
  });

  it.each([
    ["no name", { sequence: [{ planetType: "ring" }] }, TRADING_ERRORS.sequenceName],
    ["blank name", { name: "   ", sequence: [{ planetType: "ring" }] }, TRADING_ERRORS.sequenceName],
    ["no planets", { name: "A", sequence: [] }, TRADING_ERRORS.sequencePlanets],
    ["missing planets", { name: "A" }, TRADING_ERRORS.sequencePlanets],
    ["negative seconds", { name: "A", sequence: [{ planetType: "ring" }], seconds: -1 }, TRADING_ERRORS.sequenceSeconds],
    ["string seconds", { name: "A", sequence: [{ planetType: "ring" }], seconds: "5" }, TRADING_ERRORS.sequenceSeconds],
    ["fractional seconds (issue 19 item 10)", { name: "A", sequence: [{ planetType: "ring" }], seconds: 2.5 }, "Seconds must be a whole number"],
    ["seconds above 999", { name: "A", sequence: [{ planetType: "ring" }], seconds: 1000 }, "Seconds must be at most 999"],
    ["unknown key", { name: "A", sequence: [{ planetType: "ring" }], extra: 1 }, null],
  ])("POST with %s → 400 {error,message} (spec 2 §5), nothing stored", async (_label, body, text) => {
    const before = await tableHash();
    const res = await createSeq(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(res.body.message);
    if (text) expect(String(res.body.error)).toContain(text);
    expect(await tableHash()).toBe(before);
  });

  it("PUT /{id} updates fields; unknown id → 404 Sequence not found; bad body → 400 unchanged", async () => {
    const { body } = await createSeq({ name: "A", sequence: [{ planetType: "ring" }] });
    const id = (body.sequence as { _id: string })._id;
    const ok = await call(seqAction as Handler, "PUT", `/planet-sequences/${id}`, { seconds: 0, isActive: false }, { id });
    expect(ok.status).toBe(200);
    expect(ok.body.sequence).toMatchObject({ _id: id, name: "A", seconds: 0, isActive: false });
    const missing = await call(seqAction as Handler, "PUT", "/planet-sequences/x", { seconds: 1 }, { id: "00000000-0000-0000-0000-000000000000" });
    expect(missing).toEqual({ status: 404, body: errorBody(TRADING_ERRORS.sequenceNotFound) });
    const before = await tableHash();
    const bad = await call(seqAction as Handler, "PUT", `/planet-sequences/${id}`, { name: "" }, { id });
    expect(bad).toEqual({ status: 400, body: errorBody(TRADING_ERRORS.sequenceName) });
    expect(await tableHash()).toBe(before);
  });

  it("DELETE /{id} → {success, message}; again → 404", async () => {
    const { body } = await createSeq({ name: "A", sequence: [{ planetType: "ring" }] });
    const id = (body.sequence as { _id: string })._id;
    expect(await call(seqAction as Handler, "DELETE", `/planet-sequences/${id}`, undefined, { id })).toEqual({
      status: 200,
      body: { success: true, message: TRADING_MESSAGES.sequenceDeleted },
    });
    expect((await call(seqAction as Handler, "DELETE", `/planet-sequences/${id}`, undefined, { id })).status).toBe(404);
  });

  it("PUT {ids, updates:{isActive}} sets every listed sequence (spec 2 §4); one unknown id → 404 and nothing changes", async () => {
    const a = ((await createSeq({ name: "A", sequence: [{ planetType: "ring" }] })).body.sequence as { _id: string })._id;
    const b = ((await createSeq({ name: "B", sequence: [{ planetType: "ring" }] })).body.sequence as { _id: string })._id;
    const ok = await call(seqsAction as Handler, "PUT", "/planet-sequences", { ids: [a, b], updates: { isActive: false } });
    expect(ok.status).toBe(200);
    expect((ok.body.sequences as { isActive: boolean }[]).every((s) => !s.isActive)).toBe(true);
    const before = await tableHash();
    const bad = await call(seqsAction as Handler, "PUT", "/planet-sequences", {
      ids: [a, "00000000-0000-0000-0000-000000000000"],
      updates: { isActive: true },
    });
    expect(bad).toEqual({ status: 404, body: errorBody(TRADING_ERRORS.sequenceNotFound) });
    const empty = await call(seqsAction as Handler, "PUT", "/planet-sequences", { ids: [], updates: { isActive: true } });
    expect(empty).toEqual({ status: 400, body: errorBody(TRADING_ERRORS.idsRequired) });
    expect(await tableHash()).toBe(before);
  });

  it("DELETE /api/planet-sequences → 405", async () => {
    expect((await call(seqsAction as Handler, "DELETE", "/planet-sequences")).status).toBe(405);
  });
});

describe("/api/planet-sequences: rules of ours (issue 19)", () => {
  const seq = (extra: Record<string, unknown>) => ({ name: "Run", sequence: [{ planetType: "ring" }], ...extra });

  it("a closed level below the open level never posts: 400 on POST and PUT (either level alone), nothing stored; equal levels are fine", async () => {
    const refused = { status: 400, body: errorBody(TRADING_ERRORS.sequenceLevels) };
    let before = await tableHash();
    expect(await createSeq(seq({ closedPlanetsLevel: 10, openPlanetsLevel: 11 }))).toEqual(refused);
    expect(await createSeq(seq({ closedPlanetsLevel: 14 }))).toEqual(refused); // open defaults to 15
    expect(await tableHash()).toBe(before);
    const made = await createSeq(seq({ closedPlanetsLevel: 20, openPlanetsLevel: 20 }));
    expect(made.status).toBe(201);
    const id = (made.body.sequence as { _id: string })._id;
    before = await tableHash();
    for (const body of [{ closedPlanetsLevel: 19 }, { openPlanetsLevel: 21 }, { closedPlanetsLevel: 5, openPlanetsLevel: 6 }]) {
      expect(await call(seqAction as Handler, "PUT", `/planet-sequences/${id}`, body, { id })).toEqual(refused);
    }
    expect(await tableHash()).toBe(before);
    expect((await call(seqAction as Handler, "PUT", `/planet-sequences/${id}`, { openPlanetsLevel: 0 }, { id })).status).toBe(200);
  });

  it("a taken name (any case, spaces trimmed) → 409 on POST and on a rename; renaming a sequence to its own name is fine", async () => {
    const a = (await createSeq(seq({ name: "Morning" }))).body.sequence as { _id: string };
    const b = (await createSeq(seq({ name: "Evening" }))).body.sequence as { _id: string };
    const before = await tableHash();
    const taken = { status: 409, body: errorBody(TRADING_ERRORS.sequenceExists) };
    expect(await createSeq(seq({ name: " MORNING " }))).toEqual(taken);
    expect(await call(seqAction as Handler, "PUT", `/planet-sequences/${b._id}`, { name: "morning" }, { id: b._id })).toEqual(taken);
    expect(await tableHash()).toBe(before);
    expect((await call(seqAction as Handler, "PUT", `/planet-sequences/${a._id}`, { name: "MORNING" }, { id: a._id })).status).toBe(200);
  });
});

describe("/api/custom-planets (spec 2 §7: list → planets, create {name, type}, update, delete)", () => {
  const create = (body: unknown) => call(planetsAction as Handler, "POST", "/custom-planets", body);

  it("creates, lists, renames and deletes; names unique per type case-insensitively", async () => {
    const made = await create({ name: " TradeHub ", type: "english" });
    expect(made.status).toBe(201);
    const planet = made.body.planet as { _id: string; name: string; type: string };
    expect(planet).toMatchObject({ name: "TradeHub", type: "english" });
    expect(await create({ name: "tradehub", type: "english" })).toEqual({ status: 409, body: errorBody(TRADING_ERRORS.customPlanetExists) });
    expect((await create({ name: "TRADEHUB", type: "blacklisted" })).status).toBe(201);
    const list = await call(planetsLoader as Handler, "GET", "/custom-planets");
    expect((list.body.planets as unknown[]).length).toBe(2);
    const renamed = await call(planetAction as Handler, "PUT", `/custom-planets/${planet._id}`, { name: "Hub" }, { id: planet._id });
    expect(renamed.body.planet).toMatchObject({ _id: planet._id, name: "Hub", type: "english" });
    const del = await call(planetAction as Handler, "DELETE", `/custom-planets/${planet._id}`, undefined, { id: planet._id });
    expect(del).toEqual({ status: 200, body: { success: true, message: TRADING_MESSAGES.customPlanetDeleted } });
    expect((await call(planetAction as Handler, "DELETE", `/custom-planets/${planet._id}`, undefined, { id: planet._id })).status).toBe(404);
  });

  it.each([
    ["blank name", { name: "  ", type: "english" }, TRADING_ERRORS.planetName],
    ["missing name", { type: "english" }, TRADING_ERRORS.planetName],
    ["bad type", { name: "X", type: "russian" }, "type: type must be blacklisted or english"],
  ])('POST with %s → 400 (spec 2 §5 "Please enter a planet name"), nothing stored', async (_l, body, text) => {
    const before = await tableHash();
    expect(await create(body)).toEqual({ status: 400, body: errorBody(text) });
    expect(await tableHash()).toBe(before);
  });

  // Issue 19: a name the platform cannot join is refused where it is typed (api/planet-name.ts,
  // GalaCord's rule), instead of every trading round logging "Invalid planet name; skipped".
  it.each([
    ["a space and an emoji", "Trade Zone 🌍"],
    ["a colon", "Trade:Zone"],
    ["a tab", "Trade\tZone"],
    ["65 characters", "x".repeat(65)],
  ])("POST and PUT with %s → 400 with the planet-name rule, nothing stored", async (_l, name) => {
    const planet = (await create({ name: "Keep", type: "english" })).body.planet as { _id: string };
    const before = await tableHash();
    for (const type of ["english", "blacklisted"]) expect(await create({ name, type })).toEqual({ status: 400, body: errorBody(PLANET_NAME_RULE) });
    expect(await call(planetAction as Handler, "PUT", `/custom-planets/${planet._id}`, { name }, { id: planet._id })).toEqual({
      status: 400,
      body: errorBody(PLANET_NAME_RULE),
    });
    expect(await tableHash()).toBe(before);
  });

  it("the rule is GalaCord's: the same names pass and fail both schemas", () => {
    for (const name of ["TradeZone*3", "Trade Zone 🌍", "a:b", "x".repeat(64), "x".repeat(65), "🌍"]) {
      expect(createCustomPlanetSchema.safeParse({ name, type: "english" }).success, name).toBe(planetSchema.safeParse({ planet: name }).success);
    }
    expect(RELAY_ERRORS.planetInvalid).toBe(PLANET_NAME_RULE);
  });

  it("rename to blank → 400 Please enter a planet name, unchanged", async () => {
    const planet = (await create({ name: "X", type: "english" })).body.planet as { _id: string };
    const before = await tableHash();
    const res = await call(planetAction as Handler, "PUT", `/custom-planets/${planet._id}`, { name: " " }, { id: planet._id });
    expect(res).toEqual({ status: 400, body: errorBody(TRADING_ERRORS.planetName) });
    expect(await tableHash()).toBe(before);
  });
});

describe("/api/ads (spec 2 §7: list → ads, create, update, delete)", () => {
  const create = (body: unknown) => call(adsAction as Handler, "POST", "/ads", body);

  it("keeps the text exactly (emoji, symbols, spacing); category defaults to ads, active to true", async () => {
    const text = "  🚀 Selling ⭐ rings ➜ best price!  \n✨ line two ";
    const made = await create({ adsMessage: text });
    expect(made.status).toBe(201);
    expect(made.body.ad).toMatchObject({ adsMessage: text, category: "ads", isActive: true });
    const list = await call(adsLoader as Handler, "GET", "/ads");
    expect((list.body.ads as { adsMessage: string }[])[0]!.adsMessage).toBe(text);
  });

  it("updates active, category and text; deletes; unknown → 404", async () => {
    const ad = (await create({ adsMessage: "hi", category: "msg" })).body.ad as { _id: string };
    const up = await call(adAction as Handler, "PUT", `/ads/${ad._id}`, { isActive: false, adsMessage: "hello 👋" }, { id: ad._id });
    expect(up.body.ad).toMatchObject({ isActive: false, adsMessage: "hello 👋", category: "msg" });
    expect(await call(adAction as Handler, "DELETE", `/ads/${ad._id}`, undefined, { id: ad._id })).toEqual({
      status: 200,
      body: { success: true, message: TRADING_MESSAGES.adDeleted },
    });
    expect(await call(adAction as Handler, "PUT", `/ads/${ad._id}`, { isActive: true }, { id: ad._id })).toEqual({
      status: 404,
      body: errorBody(TRADING_ERRORS.adNotFound),
    });
  });

  it.each([
    ["blank text", { adsMessage: "   " }, TRADING_ERRORS.adMessage],
    ["missing text", {}, TRADING_ERRORS.adMessage],
    ["bad category", { adsMessage: "x", category: "spam" }, "category: category must be ads or msg"],
    ["text over 2000 characters", { adsMessage: "x".repeat(2001) }, "adsMessage: An ad message is at most 2000 characters"],
  ])("POST with %s → 400 (spec 2 §5), nothing stored", async (_l, body, text) => {
    const before = await tableHash();
    expect(await create(body)).toEqual({ status: 400, body: errorBody(text) });
    expect(await tableHash()).toBe(before);
  });

  it("a line longer than 200 characters is kept exactly (issue 11: the run posts it in pieces of at most 200)", async () => {
    const text = "🚀 " + "x".repeat(250) + "\n★ second line";
    const created = await create({ adsMessage: text });
    expect(created.status).toBe(201);
    expect((created.body.ad as { adsMessage: string }).adsMessage).toBe(text);
  });

  it("edit to blank text → 400 Please enter an ad message", async () => {
    const ad = (await create({ adsMessage: "hi" })).body.ad as { _id: string };
    expect(await call(adAction as Handler, "PUT", `/ads/${ad._id}`, { adsMessage: "" }, { id: ad._id })).toEqual({
      status: 400,
      body: errorBody(TRADING_ERRORS.adMessage),
    });
  });
});

describe("house rule: bad input of every kind on every Trading Planets write → 4xx {error, message}, nothing changed", () => {
  async function seedAll() {
    const seq = (await createSeq({ name: "S", sequence: [{ planetType: "ring" }] })).body.sequence as { _id: string };
    const planet = (await call(planetsAction as Handler, "POST", "/custom-planets", { name: "P", type: "english" })).body.planet as { _id: string };
    const ad = (await call(adsAction as Handler, "POST", "/ads", { adsMessage: "A" })).body.ad as { _id: string };
    return { seq: seq._id, planet: planet._id, ad: ad._id };
  }

  const endpoints = (ids: { seq: string; planet: string; ad: string }): [string, Handler, string, string, Record<string, string>][] => [
    ["POST /api/planet-sequences", seqsAction as Handler, "POST", "/planet-sequences", {}],
    ["PUT /api/planet-sequences", seqsAction as Handler, "PUT", "/planet-sequences", {}],
    ["PUT /api/planet-sequences/{id}", seqAction as Handler, "PUT", `/planet-sequences/${ids.seq}`, { id: ids.seq }],
    ["POST /api/custom-planets", planetsAction as Handler, "POST", "/custom-planets", {}],
    ["PUT /api/custom-planets/{id}", planetAction as Handler, "PUT", `/custom-planets/${ids.planet}`, { id: ids.planet }],
    ["POST /api/ads", adsAction as Handler, "POST", "/ads", {}],
    ["PUT /api/ads/{id}", adAction as Handler, "PUT", `/ads/${ids.ad}`, { id: ids.ad }],
  ];

  const BAD: [string, string, number][] = [
    ["malformed JSON", '{"name": "x",', 400],
    ["null", "null", 400],
    ["an array", "[]", 400],
    ["a string", '"x"', 400],
    ["a number", "42", 400],
    ["an empty body", "", 400],
    ["wrong types", '{"name": 5, "sequence": "ring", "type": 1, "adsMessage": [], "category": true, "isActive": "yes", "ids": "x", "updates": 1}', 400],
    ["a body over 2 MB", JSON.stringify({ adsMessage: "x".repeat(2 * 1024 * 1024 + 10) }), 413],
  ];

  it.each(BAD)("%s", async (_label, body, status) => {
    const ids = await seedAll();
    const before = await tableHash();
    for (const [name, handler, method, path, params] of endpoints(ids)) {
      const init: RequestInit = { method, headers: { "Content-Type": "application/json" } };
      if (body !== "") init.body = body;
      const res = await handler(await apiArgs(new Request(`${base}${path}`, init), params));
      const json = (await res.json()) as { error?: unknown; message?: unknown };
      expect([name, res.status]).toEqual([name, status]);
      expect(typeof json.error).toBe("string");
      expect(json.message).toBe(json.error);
    }
    expect(await tableHash()).toBe(before);
  });

  it.each(["00000000-0000-4000-8000-000000000000", "not-a-uuid", "12345"])(
    "unknown id %j → 404 {error, message} on PUT and DELETE, nothing changed",
    async (id) => {
      await seedAll();
      const before = await tableHash();
      const cases: [Handler, string, unknown, string][] = [
        [seqAction as Handler, `/planet-sequences/${id}`, { name: "N" }, TRADING_ERRORS.sequenceNotFound],
        [planetAction as Handler, `/custom-planets/${id}`, { name: "N" }, TRADING_ERRORS.customPlanetNotFound],
        [adAction as Handler, `/ads/${id}`, { adsMessage: "N" }, TRADING_ERRORS.adNotFound],
      ];
      for (const [handler, path, body, text] of cases) {
        expect(await call(handler, "PUT", path, body, { id })).toEqual({ status: 404, body: errorBody(text) });
        const del = await call(handler, "DELETE", path, undefined, { id });
        expect(del.status).toBe(404);
        expect(del.body.message).toBe(del.body.error);
      }
      expect(await call(seqsAction as Handler, "PUT", "/planet-sequences", { ids: [id], updates: { isActive: false } })).toEqual({
        status: 404,
        body: errorBody(TRADING_ERRORS.sequenceNotFound),
      });
      expect(await tableHash()).toBe(before);
    },
  );
});

describe("POST /api/trader/start|stop (issue 11): bad input → 400 {error, message}, nothing changed", () => {
  it.each<[string, string]>([
    ["malformed JSON", '{"account_id": '],
    ["null", "null"],
    ["an array", '["10000001"]'],
    ["no account_id", "{}"],
    ["a non-numeric account_id", '{"account_id": "abc"}'],
    ["an object account_id", '{"account_id": {"$gt": ""}}'],
  ])("%s", async (_label, body) => {
    const { action: startAction } = await import("./api.trader.start");
    const { action: stopAction } = await import("./api.trader.stop");
    const db = await getDb();
    const before = JSON.stringify(await db.select().from(traderSessions));
    for (const handler of [startAction, stopAction] as Handler[]) {
      const res = await handler(
        await apiArgs(new Request(`${base}/trader/start`, { method: "POST", body, headers: { "Content-Type": "application/json" } }), {}),
      );
      const json = (await res.json()) as { error?: unknown; message?: unknown };
      expect(res.status).toBe(400);
      expect(typeof json.error).toBe("string");
      expect(json.message).toBe(json.error);
    }
    expect(JSON.stringify(await db.select().from(traderSessions))).toBe(before);
  });
});
