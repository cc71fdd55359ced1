import { describe, expect, it } from "vitest";
import { ACCOUNT_COUNT, createWorld, GENERAL_PLANETS, prng } from "./world";

describe("seeded world (issue: seeded, deterministic world)", () => {
  it("is the same for the same seed and different for another", () => {
    const a = createWorld(1);
    const b = createWorld(1);
    const c = createWorld(2);
    expect(JSON.stringify(a.accounts)).toBe(JSON.stringify(b.accounts));
    expect(a.planets.map((p) => [p.name, a.occupants(p.name)])).toEqual(b.planets.map((p) => [p.name, b.occupants(p.name)]));
    expect(a.accounts[0].id).not.toBe(c.accounts[0].id);
    expect([a.nextSeed(), a.nextSeed()]).toEqual([b.nextSeed(), b.nextSeed()]);
  });

  it("has at least 250 accounts with ids, passwords, nicks and recovery codes of the platform's shapes", () => {
    const w = createWorld(7);
    expect(w.accounts.length).toBe(ACCOUNT_COUNT);
    expect(w.accounts.length).toBeGreaterThanOrEqual(250);
    for (const a of w.accounts) {
      expect(a.id).toMatch(/^\d{7,8}$/);
      expect(a.password).toMatch(/^[0-9a-f]{32}$/);
      expect(a.recoveryCode).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(a.nick).toMatch(/^[^\s:@+][^\s]*$/);
    }
    expect(new Set(w.accounts.map((a) => a.id)).size).toBe(w.accounts.length);
    expect(new Set(w.accounts.map((a) => a.recoveryCode)).size).toBe(w.accounts.length);
    expect(new Set(w.accounts.map((a) => a.nick.toLowerCase())).size).toBe(w.accounts.length);
    const kinds = new Map<string, number>();
    for (const a of w.accounts) kinds.set(a.kind!, (kinds.get(a.kind!) ?? 0) + 1);
    for (const k of ["bowling", "supplier", "recipient", "stalker", "trader", "plain"]) expect(kinds.get(k)).toBeGreaterThanOrEqual(5);
  });

  it("has the planet kinds of spec 2 §3 (ring, cannon, bowling, english) plus general and prison", () => {
    const w = createWorld();
    const count = (kind: string) => w.planets.filter((p) => p.kind === kind).length;
    expect(count("ring")).toBe(20); // RingToss*1..20 (reference §8); the catalogue lists 15
    expect(count("cannon")).toBe(35);
    expect(count("bowling")).toBe(30);
    expect(w.planets.filter((p) => p.kind === "english").map((p) => p.name)).toEqual(["TradeZone*1", "TradeZone*2"]);
    expect(w.planet("RingToss*15")?.kind).toBe("ring");
    expect(w.planet("cannon*35")?.name).toBe("Cannon*35"); // case-insensitive lookup
    // Each cannon planet is run by a bot named after it (reference §8).
    const bot = w.people.get(w.planet("Cannon*1")!.founderId!);
    expect(bot).toMatchObject({ nick: "Cannon*1", bot: true });
    expect(w.occupants("Cannon*1")).toContain(bot!.id);
    expect(w.isFull(w.planet("Tiny")!)).toBe(true);
    expect(w.planet("Vault")?.closed).toBe(true);
  });

  it("answers the account lookups of the services contract", () => {
    const w = createWorld();
    const a = w.accounts[10];
    expect(w.findAccount(a.id)).toBe(a);
    expect(w.findByRecoveryCode(a.recoveryCode)).toBe(a);
    expect(w.checkPassword(a.id, a.password)).toBe(true);
    expect(w.checkPassword(a.id, "x")).toBe(false);
    expect(w.checkPassword("1", a.password)).toBe(false);
    expect(w.findAccount("1")).toBeUndefined();
  });

  it("tracks presence (whereIs) through moves, sleep and reset, with events", () => {
    const w = createWorld();
    const a = w.accounts.find((x) => !w.whereIs(x.id).online)!;
    const events: string[] = [];
    w.on("presence", (c) => events.push(`${c.how}:${c.from ?? "-"}>${c.to ?? "-"}`));
    expect(w.whereIs(a.id)).toEqual({ online: false, planet: null });
    w.setOnline(a.id);
    expect(w.whereIs(a.id)).toEqual({ online: true, planet: null });
    w.moveTo(a.id, "Orion");
    w.moveTo(a.id, "Vega");
    expect(w.whereIs(a.id)).toEqual({ online: true, planet: "Vega" });
    expect(w.occupants("Vega")).toContain(a.id);
    expect(w.occupants("Orion")).not.toContain(a.id);
    w.setOffline(a.id, "sleep");
    expect(w.whereIs(a.id)).toEqual({ online: false, planet: null });
    expect(events).toEqual(["join:->Orion", "leave:Orion>-", "join:->Vega", "sleep:Vega>-"]);
    w.moveTo(a.id, "Orion");
    w.faults.latencyMs = 50;
    let resets = 0;
    w.onReset(() => resets++);
    w.reset();
    expect(w.whereIs(a.id).online).toBe(false);
    expect(w.faults.latencyMs).toBe(0);
    expect(resets).toBe(1);
  });

  it("prng is deterministic", () => {
    const a = prng(42);
    const b = prng(42);
    expect([a.next(), a.int(1, 6), a.chars("ab", 5)]).toEqual([b.next(), b.int(1, 6), b.chars("ab", 5)]);
  });
});

describe("extra generated accounts (scale runs: bench/sessions.ts, GALAXY_SIM_EXTRA_ACCOUNTS)", () => {
  it("adds N stalker accounts spread evenly over the 8 general planets and leaves the seeded world as it was", () => {
    const plain = createWorld(3);
    const big = createWorld(3, { extraAccounts: 1_000 });
    expect(big.accounts.length).toBe(ACCOUNT_COUNT + 1_000);
    expect(JSON.stringify(big.accounts.slice(0, ACCOUNT_COUNT))).toBe(JSON.stringify(plain.accounts));
    expect(big.planets.map((p) => [p.name, big.occupants(p.name)])).toEqual(plain.planets.map((p) => [p.name, plain.occupants(p.name)]));
    const extra = big.accounts.slice(ACCOUNT_COUNT);
    expect(new Set(big.accounts.map((a) => a.id)).size).toBe(big.accounts.length);
    expect(new Set(big.accounts.map((a) => a.nick.toLowerCase())).size).toBe(big.accounts.length);
    expect(new Set(big.accounts.map((a) => a.recoveryCode)).size).toBe(big.accounts.length);
    const perHome = new Map<string, number>();
    for (const a of extra) {
      expect(a.kind).toBe("stalker");
      expect(a.id).toMatch(/^\d{8}$/);
      expect(a.password).toMatch(/^[0-9a-f]{32}$/);
      expect(big.findByRecoveryCode(a.recoveryCode)).toBe(a);
      expect(big.whereIs(a.id)).toEqual({ online: false, planet: null });
      perHome.set(a.homePlanet, (perHome.get(a.homePlanet) ?? 0) + 1);
    }
    expect([...perHome.keys()].sort()).toEqual([...GENERAL_PLANETS].sort());
    expect(new Set(perHome.values())).toEqual(new Set([125]));
    expect(JSON.stringify(createWorld(3, { extraAccounts: 1_000 }).accounts)).toBe(JSON.stringify(big.accounts));
  });

  it("refuses a count that is not a whole number in range", () => {
    expect(() => createWorld(1, { extraAccounts: -1 })).toThrow(/extraAccounts/);
    expect(() => createWorld(1, { extraAccounts: 1.5 })).toThrow(/extraAccounts/);
  });
});
