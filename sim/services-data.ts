/**
 * Per-account data the simulated HTTP services answer with: gift stats, collections,
 * inventory, and daily award/spend figures. Everything starts from a deterministic draw on
 * (world seed, account id, purpose), so the same seed always gives the same world; writes
 * (sending gifts, mastic) change a per-world state kept beside the world object.
 */

/** What sim/services.ts needs from the world (sim/world.ts provides more). */
export type ServicesAccount = { id: string | number; nick: string; kind?: string };
export type ServicesWorld = {
  seed: number;
  accounts: ServicesAccount[];
  findAccount(id: string): ServicesAccount | undefined | null;
  checkPassword(id: string, password: string): boolean;
  whereIs(id: string): { online: boolean; planet: string | null | undefined } | undefined | null;
  faults: { latencyMs?: number };
  /** Resolves once the `hold` fault is off (sim/world.ts); a world without it never holds. */
  untilReleased?(): Promise<void>;
  /** sim/world.ts calls this after World.reset(); the services' writes are undone too. */
  onReset?(fn: () => void): void;
};

// ---- deterministic draws ----------------------------------------------------------------

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, good-enough PRNG for test data. */
export function rng(...parts: Array<string | number>): () => number {
  let a = fnv1a(parts.join(":"));
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (r: () => number, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

// ---- catalogue ----------------------------------------------------------------------------

/**
 * Gift types of the stats (spec 1 §9: regular 11, 12, 13 with thresholds 50, 200, 250;
 * special 1, 4, 8, 15). Which gift each type id stands for is not public; this mapping
 * uses the eight gifts of the gift-rate table (spec 2 §3) and is the simulator's choice.
 */
export const SIM_GIFT_TYPES = [
  { type: 11, name: "Red Bowling Ball", code: "RBB", regular: true },
  { type: 12, name: "Green Bowling Ball", code: "GBB", regular: true },
  { type: 13, name: "Electric Bowling Ball", code: "EBB", regular: true },
  { type: 1, name: "Fire Cannon Ball", code: "FCB", regular: false },
  { type: 4, name: "Skeleton Key", code: "skey", regular: false },
  { type: 8, name: "Silver Ring", code: "SR", regular: false },
  { type: 15, name: "Clay", code: "Clay", regular: false },
] as const;

/** The 15 gifts of the catalogue (spec 1 §3), used for inventory items. */
export const SIM_CATALOGUE = [
  { name: "Fire Cannon Ball", code: "FCB" },
  { name: "Green Light", code: "GL" },
  { name: "Explosive Cannon Ball", code: "ECB" },
  { name: "Gold Cannon Ball", code: "GCB" },
  { name: "Electric Bowling Ball", code: "EBB" },
  { name: "Red Bowling Ball", code: "RBB" },
  { name: "Green Bowling Ball", code: "GBB" },
  { name: "Silver Ring", code: "SR" },
  { name: "Gold Ring", code: "GR" },
  { name: "Bronze Ring", code: "BR" },
  { name: "Diamond Skeleton Key", code: "dkey" },
  { name: "Skeleton Key", code: "skey" },
  { name: "Collection Hungry Tomcat", code: "Hungry Tomcat" },
  { name: "Collection Capybara", code: "Capy" },
  { name: "Clay", code: "Clay" },
] as const;

/** Spec 1 §9 (151 Capybara) and spec 2 §3 (161, 178 Dragon sets); 16 items each (spec 2 §9). */
export const SIM_COLLECTIONS: Record<number, string> = {
  151: "Capybara",
  161: "Dragon Collection Set 1",
  178: "Dragon Collection Set 2",
};
export const COLLECTION_SIZE = 16;

/** Goods id of a collection item: stable and distinct across collections. */
export const collectionGoodsId = (collectionId: number, index: number) => collectionId * 1000 + index;

// ---- per-world state ----------------------------------------------------------------------

/**
 * One item an account holds. Pieces of a collection set carry `goodsId` (the set's item
 * definition, `collectionGoodsId(set, index)`); other gifts have none. `goodId` is the
 * instance (what `present_make` moves), unique in the world.
 */
export type SimInventoryItem = { goodId: number; name: string; code: string; goodsId?: number };
export type RequestRecord = {
  action: string;
  method: string;
  userID: string;
  usercur: string;
  /** Query and form fields; the password is replaced by "***". */
  params: Record<string, string>;
  headers: Record<string, string>;
  at: number;
  /** The client's address (which host asked, for the multi-host test). */
  remoteAddress?: string | null;
};

export type ServicesState = {
  giftDelta: Map<string, Map<number, number>>;
  inventories: Map<string, SimInventoryItem[]>;
  /** Mastic requests so far per account and collection (the next draw's index). */
  masticRuns: Map<string, number>;
  /** Instance ids of items created after the seeding (mastic results). */
  nextGoodId: number;
  /** Figures for tests and the bench: calls per action, calls being answered now, the peak. */
  counts: Map<string, number>;
  inFlight: number;
  maxInFlight: number;
  /** The latest requests (no passwords), newest last. */
  recent: RequestRecord[];
  /** Fault injection of the HTTP side: these actions answer 500 (latency comes from world.faults). */
  failActions: Set<string>;
  /** Fault injection per account: every call about these accounts (usercur) answers 500. */
  failAccounts: Set<string>;
};

const states = new WeakMap<object, ServicesState>();
/** Seeded instance ids stay below 10^8 (base ≤ 99 999 000 + 999); new ones start above. */
const NEW_GOOD_IDS = 200_000_000;

export function servicesState(world: object): ServicesState {
  let s = states.get(world);
  if (!s) {
    s = {
      giftDelta: new Map(),
      inventories: new Map(),
      masticRuns: new Map(),
      nextGoodId: NEW_GOOD_IDS,
      counts: new Map(),
      inFlight: 0,
      maxInFlight: 0,
      recent: [],
      failActions: new Set(),
      failAccounts: new Set(),
    };
    states.set(world, s);
    const state = s;
    (world as Partial<ServicesWorld>).onReset?.(() => {
      state.giftDelta.clear();
      state.inventories.clear();
      state.masticRuns.clear();
      state.nextGoodId = NEW_GOOD_IDS;
      state.failActions.clear();
      state.failAccounts.clear();
    });
  }
  return s;
}

/** Resets the request figures (not the data) between test cases or bench rounds. */
export function resetServicesFigures(world: object) {
  const s = servicesState(world);
  s.counts.clear();
  s.maxInFlight = s.inFlight;
  s.recent = [];
}

// ---- data ---------------------------------------------------------------------------------

export type SimGiftStat = { type: number; name: string; code: string; amount: number };

export function giftStatsOf(world: ServicesWorld, accountId: string): SimGiftStat[] {
  const r = rng(world.seed, accountId, "gift-stats");
  const delta = servicesState(world).giftDelta.get(accountId);
  return SIM_GIFT_TYPES.map((g) => {
    // Regular types straddle their thresholds (50/200/250) so both colours show up.
    const base = g.regular ? int(r, 0, 400) : int(r, 0, 40);
    return { type: g.type, name: g.name, code: g.code, amount: base + (delta?.get(g.type) ?? 0) };
  });
}

/** The name of a piece of a collection set in the inventory ("Dragon Collection Set 2 #5"). */
export const collectionPieceName = (collectionId: number, index: number) => `${SIM_COLLECTIONS[collectionId]} #${index}`;

function piece(goodId: number, collectionId: number, index: number): SimInventoryItem {
  return { goodId, name: collectionPieceName(collectionId, index), code: `c${collectionId}-${index}`, goodsId: collectionGoodsId(collectionId, index) };
}

/**
 * Collection status (galaxy-runtime.md §3.3): how many pieces of each of the set's 16 items
 * the account holds, counted from its inventory, so status, inventory, present_make and
 * mastic always agree. A fresh array each call.
 */
export function collectionCounts(world: ServicesWorld, accountId: string, collectionId: number): number[] {
  const counts = Array.from({ length: COLLECTION_SIZE }, () => 0);
  for (const item of inventoryOf(world, accountId)) {
    if (item.goodsId === undefined || Math.floor(item.goodsId / 1000) !== collectionId) continue;
    const i = (item.goodsId % 1000) - 1;
    if (i >= 0 && i < COLLECTION_SIZE) counts[i]++;
  }
  return counts;
}

/** One mastic request: one new piece of an item of the set (a seeded draw per run) lands in the inventory. */
export function applyMastic(world: ServicesWorld, accountId: string, collectionId: number): { index: number; goodsID: number; goodId: number } {
  const s = servicesState(world);
  const items = inventoryOf(world, accountId);
  const key = `${accountId}:${collectionId}`;
  const run = s.masticRuns.get(key) ?? 0;
  s.masticRuns.set(key, run + 1);
  const i = Math.floor(rng(world.seed, accountId, "mastic", collectionId, run)() * COLLECTION_SIZE);
  const item = piece(s.nextGoodId++, collectionId, i + 1);
  items.push(item);
  return { index: i + 1, goodsID: item.goodsId!, goodId: item.goodId };
}

export function inventoryOf(world: ServicesWorld, accountId: string): SimInventoryItem[] {
  const s = servicesState(world);
  let items = s.inventories.get(accountId);
  if (!items) {
    const r = rng(world.seed, accountId, "inventory");
    const n = int(r, 0, 45);
    const base = (fnv1a(`${world.seed}:${accountId}`) % 100_000) * 1000;
    items = Array.from({ length: n }, (_, i) => {
      const g = SIM_CATALOGUE[Math.floor(r() * SIM_CATALOGUE.length)];
      return { goodId: base + i + 1, name: g.name, code: g.code };
    });
    // The pieces of every collection set it holds (seeded counts: about 30% of the items at 0).
    let next = base + 100;
    for (const collectionId of Object.keys(SIM_COLLECTIONS).map(Number)) {
      const c = rng(world.seed, accountId, "collection", collectionId);
      for (let index = 1; index <= COLLECTION_SIZE; index++) {
        const count = c() < 0.3 ? 0 : int(c, 1, 6);
        for (let k = 0; k < count; k++) items.push(piece(next++, collectionId, index));
      }
    }
    s.inventories.set(accountId, items);
  }
  return items;
}

/**
 * present_make: moves the chosen items to the recipient. Items the sender does not hold make
 * the whole send fail, as a real shop would rather than half-send.
 */
export function transferGifts(world: ServicesWorld, from: string, to: string, goodIds: number[]): { ok: true; sent: number } | { ok: false; error: string } {
  const source = inventoryOf(world, from);
  const wanted = new Set(goodIds);
  const moving = source.filter((i) => wanted.has(i.goodId));
  if (!moving.length || moving.length !== wanted.size) return { ok: false, error: "Some of the chosen gifts are not in your inventory" };
  const target = inventoryOf(world, to);
  const s = servicesState(world);
  s.inventories.set(
    from,
    source.filter((i) => !wanted.has(i.goodId)),
  );
  target.push(...moving);
  // The recipient's gift stats count received gifts of the stat types.
  let delta = s.giftDelta.get(to);
  if (!delta) s.giftDelta.set(to, (delta = new Map()));
  for (const item of moving) {
    const t = SIM_GIFT_TYPES.find((g) => g.name === item.name);
    if (t) delta.set(t.type, (delta.get(t.type) ?? 0) + 1);
  }
  return { ok: true, sent: moving.length };
}

export type SimDailyStat = { date: string; awards: Record<string, number>; spent: Record<string, number> };

const SPENT_GIFTS = ["Fire Cannon Ball", "Red Bowling Ball", "Green Bowling Ball", "Electric Bowling Ball"];
const AWARD_GIFTS = ["Clay", "Skeleton Key", "Silver Ring", "Collection Capybara", "Electric Bowling Ball"];

/**
 * Daily awards received and gifts spent by a bowling account for the `days` days up to
 * `now` (UTC dates, oldest first). Other kinds of account play no bowling: empty days.
 */
export function dailyStatsOf(world: ServicesWorld, account: ServicesAccount, days: number, now = new Date()): SimDailyStat[] {
  const out: SimDailyStat[] = [];
  const plays = account.kind === undefined || account.kind === "bowling";
  for (let back = days - 1; back >= 0; back--) {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - back)).toISOString().slice(0, 10);
    const day: SimDailyStat = { date, awards: {}, spent: {} };
    if (plays) {
      const r = rng(world.seed, String(account.id), "daily", date);
      if (r() > 0.15) {
        for (const g of SPENT_GIFTS) if (r() < 0.7) day.spent[g] = int(r, 1, 60);
        for (const g of AWARD_GIFTS) if (r() < 0.6) day.awards[g] = int(r, 1, 25);
      }
    }
    out.push(day);
  }
  return out;
}

/** Last-online text of search results: "today" when online, else a day like "12 March". */
export function lastOnlineText(world: ServicesWorld, accountId: string, online: boolean, now = new Date()): string {
  if (online) return "today";
  const r = rng(world.seed, accountId, "last-online");
  const back = int(r, 0, 40);
  if (back === 0) return "today";
  const d = new Date(now.getTime() - back * 86_400_000);
  return `${d.getUTCDate()} ${d.toLocaleString("en", { month: "long", timeZone: "UTC" })}`;
}

/** Whether the account has a profile picture (a few do not, to exercise initials fallbacks). */
export function hasPicture(world: ServicesWorld, accountId: string): boolean {
  return rng(world.seed, accountId, "picture")() >= 0.1;
}
