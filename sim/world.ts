/**
 * The simulator's world: seeded and deterministic (same seed, same accounts, planets and
 * presence), so tests and demos can name accounts and planets. Shared by the socket peer
 * (sim/socket.ts), the HTTP services (sim/services.ts) and the control endpoint.
 *
 * Planet names: ring `RingToss*1..20` and cannon `Cannon*<N>` follow the reference (§8);
 * `Bowling*1..30`, the English trade zones `TradeZone*1`/`TradeZone*2`, the general planets
 * and `Prison*<N>` are our assumptions (see docs/galaxy-protocol.md).
 */
import { EventEmitter } from "node:events";

export type AccountKind = "bowling" | "supplier" | "recipient" | "stalker" | "trader" | "plain";

export type SimAccount = {
  id: string;
  /** 32 lowercase hex characters, as REGISTER hands out. */
  password: string;
  nick: string;
  /** 10 characters, what RECOVER takes. */
  recoveryCode: string;
  kind?: AccountKind;
  /** Where a bare JOIN lands. */
  homePlanet: string;
  gender: 0 | 1;
};

export type PlanetKind = "general" | "ring" | "cannon" | "bowling" | "english" | "prison";

export type SimPlanet = {
  name: string;
  kind: PlanetKind;
  capacity: number;
  closed: boolean;
  /** 900's mode field; 2 means no fly delay (game planets). */
  mode: number;
  founderId: string | null;
  topic: string;
};

/** Anyone who can stand on a planet: an account or a game bot. */
export type SimPerson = {
  id: string;
  nick: string;
  clan: string | null;
  gender: 0 | 1;
  /** Signed view count N of the user record; |N| groups follow. */
  viewCount: number;
  views: [string, string, string, string, string][];
  /** x/2 as the protocol sends it. */
  position: number;
  bot: boolean;
  operator: boolean;
};

export type SimFaults = {
  /** Delay of every server line and HTTP answer. */
  latencyMs: number;
  /** Refuse new socket connections (the TCP connection is dropped at once). */
  refuseConnections: boolean;
  /** Answer every login (USER) with this code; 950 lets the login through, then takes it over. */
  loginCode: 451 | 452 | 950 | 601 | null;
  /** Restrict loginCode to these account ids; null means every account. */
  loginCodeAccounts: string[] | null;
  /** Planets that answer 471 (full) whatever their head-count. */
  fullPlanets: string[];
  /** Minimum pause between two flights of one session; 0 disables the check. */
  flyIntervalMs: number;
  /** What a too-early JOIN gets: an 850 notice, or a KICK with the platform's text (sim/trading.ts). */
  flyPenalty: "notice" | "kick";
  /**
   * The platform holds its answers until this is turned off: HTTP services requests wait (after
   * their latency), and a socket that has not logged in yet has its lines held, in order. A
   * window that lasts exactly as long as a test needs (a latency's window can close before a
   * loaded machine has looked). Sessions already online are not held.
   */
  hold: boolean;
};

export const DEFAULT_FAULTS: SimFaults = {
  latencyMs: 0,
  refuseConnections: false,
  loginCode: null,
  loginCodeAccounts: null,
  fullPlanets: [],
  flyIntervalMs: 0,
  flyPenalty: "notice",
  hold: false,
};

export type Presence = { online: boolean; planet: string | null };

export type PresenceChange = {
  id: string;
  from: string | null;
  to: string | null;
  /** "sleep": the user went to sleep/offline (SLEEP), "leave": left (PART), "join": arrived. */
  how: "join" | "leave" | "sleep" | "offline";
};

type WorldEvents = { presence: [change: PresenceChange]; reset: [] };

/** mulberry32: small, fast, deterministic; the simulator never uses Math.random. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chars: (alphabet: string, n: number) => {
      let s = "";
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
      return s;
    },
  };
}
export type Prng = ReturnType<typeof prng>;

const HEX = "0123456789abcdef";
const RC_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
const SEED_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SYLLABLES = ["ka", "ri", "mo", "zen", "ta", "lu", "vex", "or", "na", "shi", "do", "ra", "xi", "bel", "qu", "fa", "tor", "mi", "el", "sar"];
const DECOR = ["", "", "", "", "_", "[x]", "`", "77", "X", "Pro"];
const CLANS = ["-", "-", "-", "-", "Stars", "Wolves", "[KGB]", "Nova"];

export const GENERAL_PLANETS = ["Galaxy", "Paradise", "Orion", "Nebula", "Andromeda", "Pegasus", "Sirius", "Vega"];
/** Capacity 3 and seeded with 3 users: a naturally full planet (471). */
export const TINY_PLANET = "Tiny";
/** A closed planet (473). */
export const CLOSED_PLANET = "Vault";
export const ENGLISH_PLANETS = ["TradeZone*1", "TradeZone*2"];

/** Account kinds by index: 60 bowling, 20 each supplier/recipient/stalker, 40 trader, 100 plain. */
const KIND_PATTERN: AccountKind[] = [
  "bowling",
  "supplier",
  "plain",
  "trader",
  "bowling",
  "recipient",
  "plain",
  "stalker",
  "bowling",
  "plain",
  "trader",
  "plain",
  "plain",
];
export const ACCOUNT_COUNT = 260;
/** Upper bound of `extraAccounts` (scale runs need about a thousand). */
export const MAX_EXTRA_ACCOUNTS = 20_000;

export type WorldOptions = {
  /**
   * This many more accounts after the seeded ones (scale benchmarks: bench/sessions.ts runs
   * 1,000 stalkers): kind "stalker", home planets round-robin over the 8 general planets (so
   * 1,000 of them make 125 per planet), offline until a client logs them in. Drawn from their
   * own generator: the seeded accounts, planets and presence are the same with or without them.
   */
  extraAccounts?: number;
};

export class World extends EventEmitter<WorldEvents> {
  readonly seed: number;
  readonly accounts: SimAccount[] = [];
  readonly planets: SimPlanet[] = [];
  readonly people = new Map<string, SimPerson>();
  faults: SimFaults = structuredClone(DEFAULT_FAULTS);

  #byId = new Map<string, SimAccount>();
  #ids = new Set<string>();
  #nicks = new Set<string>();
  #byRc = new Map<string, SimAccount>();
  #planetByName = new Map<string, SimPlanet>();
  #planetByLower = new Map<string, SimPlanet>();
  /** person id → planet name; absent means offline. A value of null: online, on no planet. */
  #presence = new Map<string, string | null>();
  #occupants = new Map<string, Set<string>>();
  #seededPresence = new Map<string, string | null>();
  /** Per-connection seeds come from here, so the HAAAPSI sequence is deterministic too. */
  #seedRng: Prng;

  constructor(seed = 1, options: WorldOptions = {}) {
    super();
    this.setMaxListeners(0);
    this.seed = seed;
    const rng = prng(seed);
    this.#seedRng = prng(seed ^ 0x5eed);
    this.#buildPlanets(rng);
    this.#buildAccounts(rng);
    this.#buildBots(rng);
    this.#seedPresence(rng);
    this.#buildExtraAccounts(options.extraAccounts ?? 0);
  }

  // --- lookups (contract with sim/services.ts) ---------------------------------------------

  findAccount(id: string): SimAccount | undefined {
    return this.#byId.get(String(id));
  }

  findByRecoveryCode(rc: string): SimAccount | undefined {
    return this.#byRc.get(rc);
  }

  checkPassword(id: string, password: string): boolean {
    const a = this.findAccount(id);
    return !!a && a.password === password;
  }

  planet(name: string): SimPlanet | undefined {
    return this.#planetByName.get(name) ?? this.#planetByLower.get(name.toLowerCase());
  }

  /** Online status and planet of an account (a socket login counts until QUIT/close). */
  whereIs(id: string): Presence {
    const key = String(id);
    if (!this.#presence.has(key)) return { online: false, planet: null };
    return { online: true, planet: this.#presence.get(key) ?? null };
  }

  /** Ids on a planet, in arrival order. */
  occupants(planet: string): string[] {
    return [...(this.#occupants.get(planet) ?? [])];
  }

  isFull(planet: SimPlanet): boolean {
    return this.faults.fullPlanets.includes(planet.name) || this.occupants(planet.name).length >= planet.capacity;
  }

  /** A fresh 10-character HAAAPSI seed (mixed-case alphanumeric, like the one real sample). */
  nextSeed(): string {
    return this.#seedRng.chars(SEED_ALPHABET, 10);
  }

  // --- presence ----------------------------------------------------------------------------

  /** Marks a person online on no planet (a socket login before its JOIN). */
  setOnline(id: string) {
    const prev = this.#presence.get(id);
    if (prev) this.#leave(id, prev, "leave");
    this.#presence.set(id, null);
  }

  /** Puts a person on a planet (leaving the previous one). */
  moveTo(id: string, planet: string) {
    const target = this.planet(planet);
    if (!target) throw new Error(`No planet ${planet}`);
    const prev = this.#presence.get(id);
    if (prev === target.name) return;
    if (prev) this.#leave(id, prev, "leave");
    this.#presence.set(id, target.name);
    this.#occupantsOf(target.name).add(id);
    this.emit("presence", { id, from: null, to: target.name, how: "join" }); // the leave was its own event
  }

  /** Leaves the current planet but stays online (PART). */
  leavePlanet(id: string) {
    const prev = this.#presence.get(id);
    if (!prev) return;
    this.#leave(id, prev, "leave");
    this.#presence.set(id, null);
  }

  /** Goes offline: SLEEP, QUIT or a closed socket. */
  setOffline(id: string, how: "sleep" | "offline" = "offline") {
    if (!this.#presence.has(id)) return;
    const prev = this.#presence.get(id);
    if (prev) this.#leave(id, prev, how);
    this.#presence.delete(id);
  }

  #leave(id: string, planet: string, how: PresenceChange["how"]) {
    this.#occupants.get(planet)?.delete(id);
    this.emit("presence", { id, from: planet, to: null, how });
  }

  #occupantsOf(planet: string) {
    let set = this.#occupants.get(planet);
    if (!set) this.#occupants.set(planet, (set = new Set()));
    return set;
  }

  /** Back to the seeded presence and no faults. Listeners (the services half) reset too. */
  reset() {
    this.faults = structuredClone(DEFAULT_FAULTS);
    this.#presence.clear();
    this.#occupants.clear();
    for (const [id, planet] of this.#seededPresence) {
      this.#presence.set(id, planet);
      if (planet) this.#occupantsOf(planet).add(id);
    }
    this.#releaseHeld();
    this.emit("reset");
  }

  #held: Array<() => void> = [];

  /** Resolves once `faults.hold` is off: at once when it is, else when a change of faults turns it off. */
  untilReleased(): Promise<void> {
    if (!this.faults.hold) return Promise.resolve();
    return new Promise((resolve) => this.#held.push(resolve));
  }

  /** Merges `faults` into the current ones; with `hold` off, everything `untilReleased` held goes on. */
  setFaults(faults: Partial<SimFaults>) {
    this.faults = { ...this.faults, ...faults };
    this.#releaseHeld();
  }

  #releaseHeld() {
    if (this.faults.hold) return;
    for (const resume of this.#held.splice(0)) resume();
  }

  /** Runs `fn` after every reset (for state kept outside the world, e.g. the services). */
  onReset(fn: () => void) {
    this.on("reset", fn);
  }

  // --- generation --------------------------------------------------------------------------

  #addPlanet(p: SimPlanet) {
    this.planets.push(p);
    this.#planetByName.set(p.name, p);
    this.#planetByLower.set(p.name.toLowerCase(), p);
  }

  #buildPlanets(rng: Prng) {
    for (const name of GENERAL_PLANETS) {
      this.#addPlanet({ name, kind: "general", capacity: 60, closed: false, mode: 0, founderId: null, topic: `Welcome to ${name}!` });
    }
    this.#addPlanet({ name: TINY_PLANET, kind: "general", capacity: 3, closed: false, mode: 0, founderId: null, topic: "Small and cosy" });
    this.#addPlanet({ name: CLOSED_PLANET, kind: "general", capacity: 20, closed: true, mode: 0, founderId: null, topic: "Members only" });
    for (let i = 1; i <= 20; i++) {
      this.#addPlanet({
        name: `RingToss*${i}`,
        kind: "ring",
        capacity: 40,
        closed: false,
        mode: 2,
        founderId: null,
        topic: "Ring toss: land the ring, win a prize",
      });
    }
    for (let i = 1; i <= 35; i++) {
      this.#addPlanet({ name: `Cannon*${i}`, kind: "cannon", capacity: 35, closed: false, mode: 2, founderId: null, topic: "Fire on the green light" });
    }
    for (let i = 1; i <= 30; i++) {
      this.#addPlanet({ name: `Bowling*${i}`, kind: "bowling", capacity: 30, closed: false, mode: 2, founderId: null, topic: "Strike!" });
    }
    for (const name of ENGLISH_PLANETS) {
      this.#addPlanet({ name, kind: "english", capacity: 60, closed: false, mode: 0, founderId: null, topic: "English trade zone: swaps and offers" });
    }
    for (let i = 1; i <= 3; i++) {
      this.#addPlanet({ name: `Prison*${i}`, kind: "prison", capacity: 100, closed: false, mode: 0, founderId: null, topic: "Serve your time" });
    }
    void rng;
  }

  #person(rng: Prng, id: string, nick: string, gender: 0 | 1, bot: boolean): SimPerson {
    const groups = bot ? 1 : rng.int(0, 3);
    const views: SimPerson["views"] = [];
    for (let g = 0; g < groups; g++) {
      if (g === groups - 1 && groups > 1)
        views.push(["@", String(rng.int(90, 130)), String(rng.int(10, 40)), String(rng.int(100, 140)), String(rng.int(100, 130))]);
      else views.push([`hb/${g === 0 ? "" : "b"}${rng.int(1, 400)}_`, "0", String(g === 0 ? -76 : 0), "33", "0"]);
    }
    return {
      id,
      nick,
      clan: bot
        ? null
        : (() => {
            const c = rng.pick(CLANS);
            return c === "-" ? null : c;
          })(),
      gender,
      viewCount: groups === 0 ? 0 : rng.next() < 0.5 ? -groups : groups,
      views,
      position: rng.int(20, 900),
      bot,
      operator: !bot && rng.next() < 0.05,
    };
  }

  #buildAccounts(rng: Prng) {
    const ids = this.#ids;
    const nicks = this.#nicks;
    for (let i = 0; i < ACCOUNT_COUNT; i++) {
      let id: string;
      do id = String(rng.next() < 0.7 ? rng.int(10_000_000, 99_999_999) : rng.int(1_000_000, 9_999_999));
      while (ids.has(id));
      ids.add(id);
      let nick: string;
      do {
        const base = rng.pick(SYLLABLES) + rng.pick(SYLLABLES) + (rng.next() < 0.5 ? rng.pick(SYLLABLES) : "");
        nick = base[0].toUpperCase() + base.slice(1) + rng.pick(DECOR);
      } while (nicks.has(nick.toLowerCase()));
      nicks.add(nick.toLowerCase());
      let rc: string;
      do rc = rng.chars(RC_ALPHABET, 10);
      while (this.#byRc.has(rc));
      const gender = rng.next() < 0.5 ? 0 : 1;
      const account: SimAccount = {
        id,
        password: rng.chars(HEX, 32),
        nick,
        recoveryCode: rc,
        kind: KIND_PATTERN[i % KIND_PATTERN.length],
        homePlanet: rng.pick(GENERAL_PLANETS),
        gender,
      };
      this.accounts.push(account);
      this.#byId.set(id, account);
      this.#byRc.set(rc, account);
      this.people.set(id, this.#person(rng, id, nick, gender, false));
    }
  }

  #buildExtraAccounts(count: number) {
    if (!Number.isInteger(count) || count < 0 || count > MAX_EXTRA_ACCOUNTS) {
      throw new Error(`extraAccounts must be a whole number from 0 to ${MAX_EXTRA_ACCOUNTS}, got ${count}`);
    }
    const rng = prng(this.seed ^ 0xe7a0);
    for (let i = 0; i < count; i++) {
      let id: string;
      do id = String(rng.int(10_000_000, 99_999_999));
      while (this.#ids.has(id));
      this.#ids.add(id);
      let nick: string;
      do {
        const base = rng.pick(SYLLABLES) + rng.pick(SYLLABLES) + rng.pick(SYLLABLES);
        nick = base[0].toUpperCase() + base.slice(1) + rng.int(1, 999);
      } while (this.#nicks.has(nick.toLowerCase()));
      this.#nicks.add(nick.toLowerCase());
      let rc: string;
      do rc = rng.chars(RC_ALPHABET, 10);
      while (this.#byRc.has(rc));
      const gender = rng.next() < 0.5 ? 0 : 1;
      const account: SimAccount = {
        id,
        password: rng.chars(HEX, 32),
        nick,
        recoveryCode: rc,
        kind: "stalker",
        homePlanet: GENERAL_PLANETS[i % GENERAL_PLANETS.length],
        gender,
      };
      this.accounts.push(account);
      this.#byId.set(id, account);
      this.#byRc.set(rc, account);
      this.people.set(id, this.#person(rng, id, nick, gender, false));
    }
  }

  /** Cannon planets are run by a bot whose nick is the planet name (reference §8). */
  #buildBots(rng: Prng) {
    let next = 900_000_001;
    for (const p of this.planets) {
      if (p.kind !== "cannon") continue;
      const id = String(next++);
      this.people.set(id, this.#person(rng, id, p.name, 0, true));
      p.founderId = id;
    }
  }

  #seedPresence(rng: Prng) {
    const place = (id: string, planet: string) => {
      this.#seededPresence.set(id, planet);
    };
    // Game bots stand on their own planet.
    for (const p of this.planets) if (p.founderId) place(p.founderId, p.name);
    const plain = this.accounts.filter((a) => a.kind === "plain" || a.kind === "trader");
    // Tiny is full from the start.
    for (const a of plain.slice(0, 3)) place(a.id, TINY_PLANET);
    const open = this.planets.filter((p) => !p.closed && p.kind !== "prison" && p.name !== TINY_PLANET);
    for (const a of plain.slice(3)) {
      if (rng.next() < 0.55) place(a.id, rng.next() < 0.5 ? a.homePlanet : rng.pick(open).name);
    }
    // General planets get founders from among their regulars.
    for (const p of this.planets) {
      if (p.kind !== "general" || p.founderId) continue;
      const regular = [...this.#seededPresence].find(([id, pl]) => pl === p.name && this.#byId.has(id));
      if (regular) p.founderId = regular[0];
    }
    this.reset();
  }
}

/** The world for a seed; same seed, same world. */
export function createWorld(seed = 1, options: WorldOptions = {}): World {
  return new World(seed, options);
}
