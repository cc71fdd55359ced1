import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { PLANET_NAME_RULE } from "#api/planet-name";
import { TRADING_ERRORS, TRADING_LIMITS, TRADING_MESSAGES, type Ad, type CustomPlanet, type PlanetSequence } from "#api/trading";
import { callRoute, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import { getDb } from "~/db/client.server";
import { ads, customPlanets, planetSequences, sessions, users } from "~/db/schema";
import * as adModel from "~/models/ad.server";
import * as customPlanetModel from "~/models/custom-planet.server";
import * as sequenceModel from "~/models/planet-sequence.server";
import { createAd, listAds } from "~/models/ad.server";
import { listLogs } from "~/models/log.server";
import { createCustomPlanet, listCustomPlanets } from "~/models/custom-planet.server";
import { createSequence, listSequences } from "~/models/planet-sequence.server";
import { upsertUser } from "~/models/user.server";
import { action, loader } from "./trading-planets";

/** The Trading Planets page (spec 2 §2, §5, §8) as a browser without JavaScript uses it: posted forms, redirects with flash toasts. */
let cookie: string;
beforeAll(async () => {
  cookie = (await createTestOperator({ name: "trader", password: "correct horse" })).cookie;
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(planetSequences);
  await db.delete(customPlanets);
  await db.delete(ads);
});

const post = (form: [string, string][]) => callRoute(action, makeRequest("/trading-planets", { cookie, form }));
const seq = (name: string) =>
  createSequence({ name, sequence: [{ planetType: "ring" }], seconds: 6, closedPlanetsLevel: 51, openPlanetsLevel: 15, isActive: true });

describe("loader", () => {
  it("answers sequences in list order, custom planets and ads; needs a login", async () => {
    await seq("A");
    await createCustomPlanet({ name: "Hub", type: "english" });
    await createAd({ adsMessage: "hi", category: "ads", isActive: true });
    const res = await callRoute<{ sequences: PlanetSequence[]; planets: CustomPlanet[]; ads: Ad[] }>(loader, makeRequest("/trading-planets", { cookie }));
    expect(res.status).toBe(200);
    expect(res.data.sequences.map((s) => s.name)).toEqual(["A"]);
    expect(res.data.planets.map((p) => p.name)).toEqual(["Hub"]);
    expect(res.data.ads.map((a) => a.adsMessage)).toEqual(["hi"]);
    const anon = await callRoute(loader, makeRequest("/trading-planets"));
    expect(anon.status).toBe(302);
  });
});

describe("loader: bounded pages (issue 20 'Bounded pages'; docs/trading-planets.md 'Pages')", () => {
  type Paged = {
    sequences: PlanetSequence[];
    ads: Ad[];
    pages: Record<"sequences" | "ads" | "msg", { page: number; pages: number; total: number; per: number }>;
  };
  const load = (search = "") => callRoute<Paged>(loader, makeRequest(`/trading-planets${search}`, { cookie }));
  /** n ads of a category, oldest first one second apart (the list order), straight into the table. */
  const seedAds = async (n: number, category: "ads" | "msg", from = 0) => {
    const db = await getDb();
    const t0 = Date.UTC(2026, 0, 1);
    await db
      .insert(ads)
      .values(Array.from({ length: n }, (_, i) => ({ adsMessage: `${category} ${from + i + 1}`, category, createdAt: new Date(t0 + (from + i) * 1000) })));
  };
  const seedSequences = async (n: number) => {
    const db = await getDb();
    await db
      .insert(planetSequences)
      .values(Array.from({ length: n }, (_, i) => ({ name: `S${i + 1}`, steps: [{ id: `s${i}`, planetType: "ring", shuffle: true }], position: i })));
  };

  it("renders one page of each list (20 sequences, 40 ads, 40 messages), says how many there are, and the page in the URL reaches the rest", async () => {
    expect(TRADING_LIMITS.sequencesPerPage).toBe(20);
    expect(TRADING_LIMITS.adsPerPage).toBe(40);
    await seedSequences(30);
    await seedAds(120, "ads");
    await seedAds(3, "msg", 120);
    const first = await load();
    expect(first.status).toBe(200);
    expect(first.data.sequences.map((s) => s.name)).toEqual(Array.from({ length: 20 }, (_, i) => `S${i + 1}`));
    expect(first.data.ads.filter((a) => a.category === "ads").map((a) => a.adsMessage)).toEqual(Array.from({ length: 40 }, (_, i) => `ads ${i + 1}`));
    expect(first.data.ads.filter((a) => a.category === "msg").map((a) => a.adsMessage)).toEqual(["msg 121", "msg 122", "msg 123"]);
    expect(first.data.pages).toEqual({
      sequences: { page: 1, pages: 2, total: 30, per: 20 },
      ads: { page: 1, pages: 3, total: 120, per: 40 },
      msg: { page: 1, pages: 1, total: 3, per: 40 },
      traders: { page: 1, pages: 1, total: 0, per: 20 },
    });

    const later = await load("?seqPage=2&adsPage=3");
    expect(later.data.sequences.map((s) => s.name)).toEqual(Array.from({ length: 10 }, (_, i) => `S${i + 21}`));
    expect(later.data.ads.filter((a) => a.category === "ads").map((a) => a.adsMessage)).toEqual(Array.from({ length: 40 }, (_, i) => `ads ${i + 81}`));
    expect(later.data.pages.ads.page).toBe(3);
    // Every ad is on exactly one page.
    const seen = new Set<string>();
    for (const page of [1, 2, 3]) for (const ad of (await load(`?adsPage=${page}`)).data.ads) if (ad.category === "ads") seen.add(ad.adsMessage);
    expect(seen.size).toBe(120);

    // A page past the end (rows deleted meanwhile) or not a number shows the last / first page.
    const past = await load("?adsPage=9&seqPage=x");
    expect(past.data.pages.ads.page).toBe(3);
    expect(past.data.pages.sequences.page).toBe(1);
    expect(past.data.sequences[0]!.name).toBe("S1");
  });

  it("the page's document holds one page of rows and the links to the others (server render, real database)", async () => {
    await seedSequences(30);
    await seedAds(60, "ads");
    const { default: Route } = await import("./trading-planets");
    const { createRemixStub } = await import("@remix-run/testing");
    const { renderToString } = await import("react-dom/server");
    const { createElement } = await import("react");
    const loaded = (await load("?adsPage=2")).data;
    const Stub = createRemixStub([{ id: "trading", path: "/trading-planets", Component: Route, loader: () => null }]);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const html = renderToString(createElement(Stub, { initialEntries: ["/trading-planets?adsPage=2"], hydrationData: { loaderData: { trading: loaded } } }));
    error.mockRestore();
    expect(html.match(/data-testid="ad"/g)).toHaveLength(20);
    expect(html.match(/data-testid="sequence"/g)).toHaveLength(20);
    // Each ad's text once (issue 20: it was there four times); the controls are named from it.
    expect(html.split("ads 55")).toHaveLength(2);
    expect(html).toContain('aria-labelledby="ad14-delete ad14-text"');
    expect(html).toContain('id="ad14-text" class="gt-ad-text" title="Click to copy" disabled="">ads 55</button>');
    // "← Previous" of the ads goes to their first page; "Next →" of the sequences keeps the ads' page.
    expect(html).toMatch(/<nav class="gt-pager" aria-label="Ads pages"><a [^>]*href="\/trading-planets"[^>]*>← Previous<\/a>/);
    expect(html).toMatch(/<nav class="gt-pager" aria-label="Sequence pages">.*?href="\/trading-planets\?adsPage=2&amp;seqPage=2"[^>]*>Next →<\/a>/);
    expect(html).toContain("Showing 41–60 of 60 · page 2 of 2");
    expect(html).toContain("Showing 1–20 of 30 · page 1 of 2");
  });

  it("drag within a page reorders that page only: the others keep their places; a stale page is refused (409), nothing changed", async () => {
    await seedSequences(30);
    const page2 = (await load("?seqPage=2")).data.sequences.map((s) => s._id);
    const ok = await post([["intent", "sequence-reorder"], ["offset", "20"], ...[...page2].reverse().map((id): [string, string] => ["ids", id])]);
    expect(ok.status).toBe(200);
    const names = (await listSequences()).map((s) => s.name);
    const reversed = Array.from({ length: 10 }, (_, i) => `S${30 - i}`);
    expect(names).toEqual([...Array.from({ length: 20 }, (_, i) => `S${i + 1}`), ...reversed]);
    expect((await load("?seqPage=2")).data.sequences.map((s) => s.name)).toEqual(reversed);
    // The positions are 0…29 again: a later page still starts where it should.
    const db = await getDb();
    const positions = (await db.select({ p: planetSequences.position }).from(planetSequences)).map((r) => r.p).sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: 30 }, (_, i) => i));

    // Page 1 reordered by someone who still sees page 2 at offset 0 (or another tab moved one in): refused.
    const stale = await post([["intent", "sequence-reorder"], ["offset", "0"], ...page2.map((id): [string, string] => ["ids", id])]);
    expect(stale.status).toBe(409);
    const first = (await load()).data.sequences;
    const moved = await post([
      ["intent", "sequence-reorder"],
      ["offset", "15"],
      ...[first[19]!, ...first.slice(15, 19)].map((s): [string, string] => ["ids", s._id]),
    ]);
    expect(moved.status).toBe(200);
    expect((await listSequences()).map((s) => s.name).slice(13, 22)).toEqual(["S14", "S15", "S20", "S16", "S17", "S18", "S19", "S30", "S29"]);
  });

  it("issue 32 item 2: ?seqQ= finds a sequence on any page by name, ?adQ= the ads and messages holding a text; both reach every match", async () => {
    await seedSequences(1000);
    await seedAds(1000, "ads");
    await seedAds(30, "msg", 1000);
    type Searched = Paged & { sequencePlaces: number[] | null; sequencesInAll: number; search: { sequences: string; ads: string } };
    const find = (q: string) => callRoute<Searched>(loader, makeRequest(`/trading-planets${q}`, { cookie }));

    // Row 987 was 49 "Next" clicks away; the search finds it at once, with its place in the whole list.
    const one = await find("?seqQ=s987");
    expect(one.status).toBe(200);
    expect(one.data.sequences.map((s) => s.name)).toEqual(["S987"]);
    expect(one.data.sequencePlaces).toEqual([986]);
    expect(one.data.sequencesInAll).toBe(1000);
    expect(one.data.pages.sequences).toEqual({ page: 1, pages: 1, total: 1, per: 20 });
    // Case-insensitive, surrounding blanks ignored; several matches in list order, paged like the list.
    const many = await find("?seqQ=%20S98%20");
    expect(many.data.search.sequences).toBe("S98");
    expect(many.data.sequences.map((s) => s.name)).toEqual(["S98", ...Array.from({ length: 10 }, (_, i) => `S98${i}`)]);
    expect(many.data.sequencePlaces).toEqual([97, ...Array.from({ length: 10 }, (_, i) => 979 + i)]);
    const holding = Array.from({ length: 1000 }, (_, i) => `S${i + 1}`).filter((name) => name.toLowerCase().includes("s1"));
    const paged = await find("?seqQ=s1&seqPage=2");
    expect(paged.data.pages.sequences).toEqual({ page: 2, pages: Math.ceil(holding.length / 20), total: holding.length, per: 20 });
    expect(paged.data.sequences.map((s) => s.name)).toEqual(holding.slice(20, 40));

    // Ads: both sections filtered by the same text, each with its own count; the other lists are untouched.
    const ad = await find("?adQ=ADS%20987");
    expect(ad.data.ads.map((a) => a.adsMessage)).toEqual(["ads 987"]);
    expect(ad.data.pages.ads.total).toBe(1);
    expect(ad.data.pages.msg.total).toBe(0);
    expect(ad.data.sequences).toHaveLength(20);
    const msg = await find("?adQ=msg%201015&seqQ=S5");
    expect(msg.data.ads.map((a) => a.adsMessage)).toEqual(["msg 1015"]);
    expect(msg.data.sequences[0]!.name).toBe("S5");
    const none = await find("?adQ=nothing%20like%20this");
    expect(none.data.ads).toEqual([]);
    expect(none.data.pages.ads.total).toBe(0);
  });

  it("issue 32 item 2: the searches are GET forms in the server-rendered page (no JavaScript), with the matches and the counts", async () => {
    await seedSequences(30);
    await seedAds(60, "ads");
    const { default: Route } = await import("./trading-planets");
    const { createRemixStub } = await import("@remix-run/testing");
    const { renderToString } = await import("react-dom/server");
    const { createElement } = await import("react");
    const target = "/trading-planets?seqQ=s2&adQ=ads%205&traderPage=1";
    const loaded = (await load(target.slice("/trading-planets".length))).data;
    const Stub = createRemixStub([{ id: "trading", path: "/trading-planets", Component: Route, loader: () => null }]);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const html = renderToString(createElement(Stub, { initialEntries: [target], hydrationData: { loaderData: { trading: loaded } } }));
    error.mockRestore();
    // Two search forms, each keeping the other's query as a hidden field.
    expect(html).toMatch(
      /<form method="get" action="\/trading-planets" role="search" aria-label="Search sequences"[^>]*>(?:(?!<\/form>).)*<input type="hidden" name="adQ" value="ads 5"\/>/s,
    );
    expect(html).toMatch(
      /<form method="get" action="\/trading-planets" role="search" aria-label="Search ads and messages"[^>]*>(?:(?!<\/form>).)*<input type="hidden" name="seqQ" value="s2"\/>/s,
    );
    expect(html).toMatch(/name="seqQ"[^>]*value="s2"|value="s2"[^>]*name="seqQ"/);
    // S2 and S20–S29: 11 of 30.
    expect(html.match(/data-testid="sequence"/g)).toHaveLength(11);
    expect(html).toContain("11 of 30 sequences match “s2”");
    // "ads 5" and "ads 50"–"ads 59".
    expect(html.match(/data-testid="ad"/g)).toHaveLength(11);
    expect(html).toContain("11 ads match “ads 5”");
    expect(html).toContain("No messages match “ads 5”.");
  });

  it("move up on the first sequence of page 2 swaps it with the last of page 1 (the whole list's places)", async () => {
    await seedSequences(30);
    const s21 = (await load("?seqPage=2")).data.sequences[0]!;
    const res = await post([
      ["intent", "sequence-move"],
      ["id", s21._id],
      ["direction", "up"],
      ["redirectTo", "/trading-planets?seqPage=2"],
    ]);
    expect(res.headers.get("location")).toBe("/trading-planets?seqPage=2");
    // Issue 30 B5: without JavaScript the Move says what it did.
    expect(toastOf(res)?.message).toBe("Moved “S21” up: now 20 of 30");
    expect((await load()).data.sequences.at(-1)!.name).toBe("S21");
    expect((await load("?seqPage=2")).data.sequences[0]!.name).toBe("S20");
    const first = (await load()).data.sequences[0]!;
    const top = await post([
      ["intent", "sequence-move"],
      ["id", first._id],
      ["direction", "up"],
      ["redirectTo", "/trading-planets"],
    ]);
    expect(toastOf(top)?.message).toBe("“S1” is already first");
  });
});

describe("loader: spec 2 §8 load failures, each part on its own", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  type Loaded = { sequences: PlanetSequence[]; planets: CustomPlanet[]; ads: Ad[]; loadError: string | null; loadErrors: string[] };
  const load = () => callRoute<Loaded>(loader, makeRequest("/trading-planets", { cookie }));

  it("custom planets failing → “Failed to load custom planets”; sequences and ads still load", async () => {
    await seq("A");
    await createAd({ adsMessage: "hi", category: "ads", isActive: true });
    vi.spyOn(customPlanetModel, "listCustomPlanets").mockRejectedValueOnce(new Error("db down"));
    const res = await load();
    expect(res.status).toBe(503);
    expect(res.data.loadErrors).toEqual(["Failed to load custom planets"]);
    expect(res.data.loadError).toBe("Failed to load custom planets");
    expect(res.data.sequences.map((s) => s.name)).toEqual(["A"]);
    expect(res.data.ads.map((a) => a.adsMessage)).toEqual(["hi"]);
  });

  it("ads failing → “Failed to load ads”; sequences failing → “Failed to load data”", async () => {
    vi.spyOn(adModel, "listAdsPage").mockRejectedValueOnce(new Error("db down"));
    expect((await load()).data.loadErrors).toEqual(["Failed to load ads"]);
    vi.spyOn(sequenceModel, "listSequencesPage").mockRejectedValueOnce(new Error("db down"));
    expect((await load()).data.loadErrors).toEqual(["Failed to load data"]);
    const ok = await load();
    expect(ok.status).toBe(200);
    expect(ok.data.loadErrors).toEqual([]);
  });
});

describe("sequence intents", () => {
  const full: [string, string][] = [
    ["intent", "sequence-save"],
    ["redirectTo", "/trading-planets?sequence=new"],
    ["name", "Run"],
    ["isActive", "on"],
    ["stepId", "s1"],
    ["planetType", "russian"],
    ["seconds", "6"],
    ["closedPlanetsLevel", "51"],
    ["openPlanetsLevel", "15"],
  ];

  it("create → redirect to the list with “Sequence created successfully”", async () => {
    const res = await post(full);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/trading-planets");
    expect(toastOf(res)?.message).toBe(TRADING_MESSAGES.sequenceCreated);
    const [s] = await listSequences();
    expect(s).toMatchObject({ name: "Run", seconds: 6, isActive: true, sequence: [{ id: "s1", planetType: "russian", shuffle: false }] });
  });

  it("§5 errors come back with the form as posted (400), nothing stored", async () => {
    const res = await callRoute<{ errors: Record<string, string>; draft: { name: string } }>(
      action,
      makeRequest("/trading-planets", {
        cookie,
        form: [
          ["intent", "sequence-save"],
          ["name", " "],
          ["seconds", "-3"],
          ["closedPlanetsLevel", "51"],
          ["openPlanetsLevel", "15"],
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.data.errors).toMatchObject({
      name: TRADING_ERRORS.sequenceName,
      sequence: TRADING_ERRORS.sequencePlanets,
      seconds: TRADING_ERRORS.sequenceSeconds,
    });
    expect(await listSequences()).toEqual([]);
  });

  it("issue 19: closed level below open level (400) and a taken name (409) come back in the form as posted, nothing stored", async () => {
    type Answer = { errors: Record<string, string>; draft: { name: string; closedPlanetsLevel: string } };
    const levels = await callRoute<Answer>(
      action,
      makeRequest("/trading-planets", { cookie, form: full.map(([k, v]): [string, string] => [k, k === "closedPlanetsLevel" ? "14" : v]) }),
    );
    expect(levels.status).toBe(400);
    expect(levels.data.errors).toEqual({ form: TRADING_ERRORS.sequenceLevels });
    expect(levels.data.draft).toMatchObject({ name: "Run", closedPlanetsLevel: "14" });
    expect(await listSequences()).toEqual([]);
    await seq("RUN");
    const taken = await callRoute<Answer>(action, makeRequest("/trading-planets", { cookie, form: full }));
    expect(taken.status).toBe(409);
    expect(taken.data.errors).toEqual({ name: TRADING_ERRORS.sequenceExists });
    expect(taken.data.draft.name).toBe("Run");
    expect((await listSequences()).map((s) => s.name)).toEqual(["RUN"]);
  });

  it("op=add answers the draft with one more planet (no JavaScript), nothing stored", async () => {
    const res = await callRoute<{ draft: { steps: { planetType: string; shuffle: boolean }[] } }>(
      action,
      makeRequest("/trading-planets", { cookie, form: [...full, ["op", "add"]] }),
    );
    expect(res.status).toBe(200);
    expect(res.data.draft.steps.map((s) => s.planetType)).toEqual(["russian", "ring"]);
    expect(res.data.draft.steps[1]!.shuffle).toBe(true);
    expect(await listSequences()).toEqual([]);
  });

  it("update, active, move and delete, each with its §8 toast; the order is stored", async () => {
    const a = await seq("A");
    const b = await seq("B");
    const up = await post([...full.filter(([k]) => k !== "name"), ["name", "A2"], ["id", a._id]]);
    expect(toastOf(up)?.message).toBe(TRADING_MESSAGES.sequenceUpdated);
    const off = await post([
      ["intent", "sequence-active"],
      ["id", a._id],
      ["isActive", "false"],
    ]);
    expect(toastOf(off)?.message).toBe(TRADING_MESSAGES.sequenceUpdated);
    await post([
      ["intent", "sequence-move"],
      ["id", b._id],
      ["direction", "up"],
    ]);
    expect((await listSequences()).map((s) => [s.name, s.isActive])).toEqual([
      ["B", true],
      ["A2", false],
    ]);
    const del = await post([
      ["intent", "sequence-delete"],
      ["id", b._id],
    ]);
    expect(toastOf(del)?.message).toBe(TRADING_MESSAGES.sequenceDeleted);
    expect((await listSequences()).map((s) => s.name)).toEqual(["A2"]);
  });

  it("reorder stores the posted order; a stale list is refused (409) and nothing changes", async () => {
    const [a, b, c] = [await seq("A"), await seq("B"), await seq("C")];
    const ok = await post([
      ["intent", "sequence-reorder"],
      ["ids", c._id],
      ["ids", a._id],
      ["ids", b._id],
    ]);
    expect(ok.status).toBe(200);
    expect((await listSequences()).map((s) => s.name)).toEqual(["C", "A", "B"]);
    const stale = await post([
      ["intent", "sequence-reorder"],
      ["ids", a._id],
      ["ids", b._id],
    ]);
    expect(stale.status).toBe(409);
    expect((await listSequences()).map((s) => s.name)).toEqual(["C", "A", "B"]);
  });

  it("§4/§8: status of an unknown sequence → toast “Failed to update sequence status”; delete → “Failed to delete sequence”; update → “Failed to update sequence”", async () => {
    const a = await seq("A");
    const unknown = "00000000-0000-0000-0000-000000000000";
    const res = await post([
      ["intent", "sequence-active"],
      ["id", unknown],
      ["isActive", "true"],
    ]);
    expect(toastOf(res)).toMatchObject({ type: "error", message: "Failed to update sequence status" });
    const del = await post([
      ["intent", "sequence-delete"],
      ["id", unknown],
    ]);
    expect(toastOf(del)).toMatchObject({ type: "error", message: "Failed to delete sequence" });
    const upd = await post([...full, ["id", unknown]]);
    expect(toastOf(upd)).toMatchObject({ type: "error", message: "Failed to update sequence" });
    expect(await listSequences()).toEqual([a]);
  });
});

describe("custom planet intents", () => {
  it("create, duplicate (any case), rename (blank refused), delete — with the §8 toasts", async () => {
    const made = await post([
      ["intent", "planet-create"],
      ["name", "Hub"],
      ["type", "blacklisted"],
      ["redirectTo", "/trading-planets?planets=blacklisted"],
    ]);
    expect(made.headers.get("location")).toBe("/trading-planets?planets=blacklisted");
    expect(toastOf(made)?.message).toBe(TRADING_MESSAGES.customPlanetCreated);
    const dup = await post([
      ["intent", "planet-create"],
      ["name", "HUB"],
      ["type", "blacklisted"],
    ]);
    // Issue 30 A6: a refused add is the form again as typed, the reason under its field (no toast).
    expect(dup.status).toBe(409);
    expect(toastOf(dup)).toBeUndefined();
    expect(dup.data).toMatchObject({ kept: { fields: { name: "HUB", type: "blacklisted" }, formErrors: [TRADING_ERRORS.customPlanetExists] } });
    const blank = await post([
      ["intent", "planet-create"],
      ["name", " "],
      ["type", "english"],
    ]);
    expect(blank.data).toMatchObject({ kept: { fields: { name: " ", type: "english" }, fieldErrors: { name: [TRADING_ERRORS.planetName] } } });
    const [p] = await listCustomPlanets();
    // Issue 30 A6/A9: a refused rename is answered with the name as posted and the reason for
    // its field (the chip says both under it), not a redirect with a toast.
    const noName = await post([
      ["intent", "planet-rename"],
      ["id", p!._id],
      ["name", ""],
    ]);
    expect(noName.status).toBe(400);
    expect(toastOf(noName)).toBeUndefined();
    expect(noName.data).toMatchObject({ kept: { fields: { id: p!._id, name: "" }, fieldErrors: { name: [TRADING_ERRORS.planetName] } } });
    await post([
      ["intent", "planet-create"],
      ["name", "Den"],
      ["type", p!.type],
    ]);
    const taken = await post([
      ["intent", "planet-rename"],
      ["id", p!._id],
      ["name", "den"],
    ]);
    expect(taken.data).toMatchObject({ kept: { fields: { name: "den" }, formErrors: [TRADING_ERRORS.customPlanetExists] } });
    // Issue 19: the platform's planet-name rule (api/planet-name.ts) on create and rename.
    const badName = await post([
      ["intent", "planet-create"],
      ["name", "Trade Zone 🌍"],
      ["type", "english"],
    ]);
    expect(badName.data).toMatchObject({ kept: { fields: { name: "Trade Zone 🌍" }, fieldErrors: { name: [PLANET_NAME_RULE] } } });
    const badRename = await post([
      ["intent", "planet-rename"],
      ["id", p!._id],
      ["name", "Trade Zone 🌍"],
    ]);
    expect(badRename.data).toMatchObject({ kept: { fieldErrors: { name: [PLANET_NAME_RULE] } } });
    expect((await listCustomPlanets()).map((x) => x.name).sort()).toEqual(["Den", "Hub"]);
    const renamed = await post([
      ["intent", "planet-rename"],
      ["id", p!._id],
      ["name", "Lair"],
    ]);
    expect(toastOf(renamed)?.message).toBe(TRADING_MESSAGES.customPlanetUpdated);
    const del = await post([
      ["intent", "planet-delete"],
      ["id", p!._id],
    ]);
    expect(toastOf(del)?.message).toBe(TRADING_MESSAGES.customPlanetDeleted);
    expect((await listCustomPlanets()).map((x) => x.name)).toEqual(["Den"]);
  });
});

describe("ad intents", () => {
  it("create keeps the text exactly; blank refused; edit, active, delete, delete selected — with the §8 toasts", async () => {
    const text = "⭐ WTS  rings 🚀\nline two";
    const made = await post([
      ["intent", "ad-create"],
      ["adsMessage", text.replace("\n", "\r\n")],
      ["category", "msg"],
    ]);
    expect(toastOf(made)?.message).toBe(TRADING_MESSAGES.adCreated);
    const [ad] = await listAds();
    expect(ad).toMatchObject({ adsMessage: text, category: "msg", isActive: true });
    // Issue 30 A6: a refused ad renders the form again as typed (the category too), the reason next to the text, no toast.
    const blank = await post([
      ["intent", "ad-create"],
      ["adsMessage", "  "],
      ["category", "msg"],
    ]);
    expect(blank.status).toBe(400);
    expect(toastOf(blank)).toBeUndefined();
    expect(blank.data).toMatchObject({ kept: { fields: { adsMessage: "  ", category: "msg" }, fieldErrors: { adsMessage: [TRADING_ERRORS.adMessage] } } });
    const long = "x".repeat(TRADING_LIMITS.adMax + 1);
    const tooLong = await post([
      ["intent", "ad-create"],
      ["adsMessage", long],
      ["category", "ads"],
    ]);
    expect(tooLong.data).toMatchObject({
      kept: { fields: { adsMessage: long, category: "ads" }, fieldErrors: { adsMessage: [`An ad message is at most ${TRADING_LIMITS.adMax} characters`] } },
    });
    const editBlank = await post([
      ["intent", "ad-update"],
      ["id", ad!._id],
      ["adsMessage", ""],
    ]);
    expect(editBlank.data).toMatchObject({ kept: { fields: { id: ad!._id, adsMessage: "" }, fieldErrors: { adsMessage: [TRADING_ERRORS.adMessage] } } });
    const edited = await post([
      ["intent", "ad-update"],
      ["id", ad!._id],
      ["adsMessage", "new"],
      ["category", "ads"],
    ]);
    expect(toastOf(edited)?.message).toBe(TRADING_MESSAGES.adUpdated);
    const off = await post([
      ["intent", "ad-active"],
      ["id", ad!._id],
      ["isActive", "false"],
    ]);
    expect(toastOf(off)?.message).toBe(TRADING_MESSAGES.adUpdated);
    expect((await listAds())[0]).toMatchObject({ adsMessage: "new", category: "ads", isActive: false });
    const missing = await post([
      ["intent", "ad-active"],
      ["id", "00000000-0000-0000-0000-000000000000"],
      ["isActive", "true"],
    ]);
    expect(toastOf(missing)).toMatchObject({ type: "error", message: "Failed to update ad status" });

    const b = await createAd({ adsMessage: "b", category: "ads", isActive: true });
    const c = await createAd({ adsMessage: "c", category: "ads", isActive: true });
    const partial = await post([
      ["intent", "ads-delete-selected"],
      ["ids", b._id],
      ["ids", "00000000-0000-0000-0000-000000000000"],
    ]);
    expect(toastOf(partial)).toMatchObject({ type: "error", message: "Failed to delete selected ads" });
    expect(await listAds()).toHaveLength(3);
    const sel = await post([
      ["intent", "ads-delete-selected"],
      ["ids", b._id],
      ["ids", c._id],
      ["redirectTo", "/trading-planets?select=1&ids=x"],
    ]);
    expect(sel.headers.get("location")).toBe("/trading-planets");
    expect(toastOf(sel)?.message).toBe(TRADING_MESSAGES.selectedAdsDeleted);
    const del = await post([
      ["intent", "ad-delete"],
      ["id", ad!._id],
    ]);
    expect(toastOf(del)?.message).toBe(TRADING_MESSAGES.adDeleted);
    expect(await listAds()).toEqual([]);
  });

  it("issue 19 B.3: without `redirectTo` (the kit's NoJsRedirect is gone once hydrated) the answer goes back to the URL posted to, its pages kept", async () => {
    const ad = await createAd({ adsMessage: "old", category: "ads", isActive: true });
    const res = await callRoute(
      action,
      makeRequest(`/trading-planets?adsPage=2&ad=${ad._id}`, {
        cookie,
        form: [
          ["intent", "ad-update"],
          ["id", ad._id],
          ["adsMessage", "new"],
          ["category", "ads"],
        ],
      }),
    );
    expect(res.headers.get("location")).toBe("/trading-planets?adsPage=2");
    expect(toastOf(res)?.message).toBe(TRADING_MESSAGES.adUpdated);
    expect((await listAds())[0]!.adsMessage).toBe("new");
  });

  it("an unknown intent is a 400", async () => {
    expect((await post([["intent", "nope"]])).status).toBe(400);
  });
});

describe("the action's answers (pageAction, docs/decisions/0023): a redirect with or without JavaScript, the drag's reorder JSON", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const postTo = (url: string, form: [string, string][]) => callRoute<Record<string, unknown>>(action, makeRequest(url, { cookie, form }));

  it("a refusal renders where the form was posted from (the ad editor stays open, as typed), a success goes to the list", async () => {
    const ad = await createAd({ adsMessage: "old", category: "ads", isActive: true });
    const at = `/trading-planets?adsPage=2&ad=${ad._id}`;
    const blank = await postTo(at, [
      ["intent", "ad-update"],
      ["id", ad._id],
      ["adsMessage", " "],
      ["category", "msg"],
      ["redirectTo", "/trading-planets?adsPage=2"],
    ]);
    expect(blank.status).toBe(400);
    expect(blank.headers.get("location")).toBeNull();
    expect(toastOf(blank)).toBeUndefined();
    expect(blank.data).toMatchObject({
      kept: { fields: { id: ad._id, adsMessage: " ", category: "msg" }, fieldErrors: { adsMessage: [TRADING_ERRORS.adMessage] } },
    });
    const saved = await postTo(at, [
      ["intent", "ad-update"],
      ["id", ad._id],
      ["adsMessage", "new"],
    ]);
    expect(saved.headers.get("location")).toBe("/trading-planets?adsPage=2");
    // A row deleted meanwhile: back to the list, its confirmation closed.
    const gone = await postTo("/trading-planets?seqPage=2&confirm=sequence:00000000-0000-0000-0000-000000000000", [
      ["intent", "sequence-delete"],
      ["id", "00000000-0000-0000-0000-000000000000"],
    ]);
    expect(gone.headers.get("location")).toBe("/trading-planets?seqPage=2");
    expect(toastOf(gone)).toMatchObject({ type: "error", message: "Failed to delete sequence" });
    // Not an account id: the run's failure, back to the list.
    const noId = await postTo("/trading-planets?traderPage=2&ad=x", [
      ["intent", "trader-start"],
      ["account_id", "abc"],
    ]);
    expect(noId.headers.get("location")).toBe("/trading-planets?traderPage=2");
    expect(toastOf(noId)).toMatchObject({ type: "error", message: "Failed to start trader" });
  });

  it("the drag's reorder is a fetcher's: JSON, a stale list's refusal with its text in the answer's toast, no redirect", async () => {
    const [a, b] = [await seq("A"), await seq("B")];
    const ok = await postTo("/trading-planets", [
      ["intent", "sequence-reorder"],
      ["ids", b._id],
      ["ids", a._id],
    ]);
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({ ok: true, intent: "sequence-reorder", message: "" });
    const stale = await postTo("/trading-planets", [
      ["intent", "sequence-reorder"],
      ["ids", a._id],
    ]);
    expect(stale.status).toBe(409);
    expect(stale.headers.get("location")).toBeNull();
    expect(stale.data).toMatchObject({ ok: false, intent: "sequence-reorder", message: "The sequence list changed; reload and try again" });
    expect(toastOf(stale)).toMatchObject({ type: "error", message: "The sequence list changed; reload and try again" });
    expect((await listSequences()).map((s) => s.name)).toEqual(["B", "A"]);
  });

  it("a failure that is ours is logged to System Logs and told with the spec 2 §8 text of the intent (create or update of a sequence)", async () => {
    const ad = await createAd({ adsMessage: "hi", category: "ads", isActive: true });
    vi.spyOn(adModel, "updateAd").mockRejectedValueOnce(new Error("db down"));
    const off = await postTo("/trading-planets?adsPage=2", [
      ["intent", "ad-active"],
      ["id", ad._id],
      ["isActive", "false"],
    ]);
    expect(off.status).toBe(302);
    expect(off.headers.get("location")).toBe("/trading-planets?adsPage=2");
    expect(toastOf(off)).toMatchObject({ type: "error", message: "Failed to update ad status" });
    expect((await listLogs({ type: "error", limit: 1 }))[0]).toMatchObject({ message: "Trading Planets: ad-active failed", details: { error: "db down" } });

    const form: [string, string][] = [
      ["intent", "sequence-save"],
      ["name", "Run"],
      ["stepId", "s1"],
      ["planetType", "ring"],
      ["seconds", "6"],
      ["closedPlanetsLevel", "51"],
      ["openPlanetsLevel", "15"],
    ];
    vi.spyOn(sequenceModel, "createSequence").mockRejectedValueOnce(new Error("db down"));
    expect(toastOf(await postTo("/trading-planets?sequence=new", form))).toMatchObject({ type: "error", message: "Failed to create sequence" });
    const a = await seq("A");
    vi.spyOn(sequenceModel, "updateSequence").mockRejectedValueOnce(new Error("db down"));
    const upd = await postTo(`/trading-planets?sequence=${a._id}`, [...form, ["id", a._id]]);
    expect(upd.headers.get("location")).toBe(`/trading-planets?sequence=${a._id}`);
    expect(toastOf(upd)).toMatchObject({ type: "error", message: "Failed to update sequence" });
  });
});

describe("issue 11 'The trading run': trader-start / trader-stop intents (POST forms)", () => {
  it("start marks a trading character started (“Trader started successfully”), the loader lists it; stop → idle (“Trader stopped successfully”); a non-trading user is refused", async () => {
    await upsertUser({ accountId: "41000001", nick: "Seller", password: "a".repeat(32), type: "trading" });
    await upsertUser({ accountId: "41000002", nick: "Bowler", password: "b".repeat(32), type: "bowling" });

    const refused = await post([
      ["intent", "trader-start"],
      ["account_id", "41000002"],
      ["redirectTo", "/trading-planets"],
    ]);
    expect(refused.status).toBe(302);
    expect(toastOf(refused)).toMatchObject({ type: "error", message: "Only users of type trading can run the trading planets" });

    const started = await post([
      ["intent", "trader-start"],
      ["account_id", "41000001"],
      ["redirectTo", "/trading-planets"],
    ]);
    expect(started.headers.get("location")).toBe("/trading-planets");
    expect(toastOf(started)?.message).toBe("Trader started successfully");
    const page = await callRoute<{ traders: { accountId: string; desired: string; state: string }[] }>(loader, makeRequest("/trading-planets", { cookie }));
    // No worker runs here: wanted, waiting for one ("connecting" beside the sequences).
    expect(page.data.traders).toEqual([expect.objectContaining({ accountId: "41000001", desired: "run", actual: "waiting", state: "connecting" })]);

    const stopped = await post([
      ["intent", "trader-stop"],
      ["account_id", "41000001"],
      ["redirectTo", "/trading-planets"],
    ]);
    expect(toastOf(stopped)?.message).toBe("Trader stopped successfully");
    const [row] = await (await getDb()).select().from(sessions);
    expect(row).toMatchObject({ purpose: "trader", key: "41000001", desired: "stop", actual: "stopped" });
  });

  it("issue 20 'Bounded pages': the trading run shows 20 characters a page (`traderPage`), started runs first, with the count of all and of the started ones", async () => {
    await (await getDb()).delete(users).where(eq(users.type, "trading"));
    for (let i = 1; i <= 45; i++)
      await upsertUser({ accountId: String(42000000 + i), nick: `Trader ${String(i).padStart(2, "0")}`, password: "c".repeat(32), type: "trading" });
    for (const id of ["42000044", "42000031"])
      await post([
        ["intent", "trader-start"],
        ["account_id", id],
        ["redirectTo", "/trading-planets"],
      ]);
    type Page = {
      traders: { accountId: string; desired: string }[];
      tradersRunning: number;
      pages: { traders: { page: number; pages: number; total: number; per: number } };
    };
    const at = async (query = "") => (await callRoute<Page>(loader, makeRequest(`/trading-planets${query}`, { cookie }))).data;
    const first = await at();
    expect(first.traders).toHaveLength(TRADING_LIMITS.tradersPerPage);
    expect(first.traders.slice(0, 3).map((t) => [t.accountId, t.desired])).toEqual([
      ["42000031", "run"],
      ["42000044", "run"],
      ["42000001", "stop"],
    ]);
    expect(first.tradersRunning).toBe(2);
    expect(first.pages.traders).toEqual({ page: 1, pages: 3, total: 45, per: 20 });
    const last = await at("?traderPage=3");
    expect(last.traders.map((t) => t.accountId)).toEqual(["42000041", "42000042", "42000043", "42000045", "42000040"].sort());
    expect(last.tradersRunning).toBe(2);
    // Past the end: the last page.
    expect((await at("?traderPage=99")).pages.traders.page).toBe(3);
  });
});
