/**
 * The gift catalogue (spec 1 §3 "Gift catalogue entry"): the 15 gifts the exchange-rate
 * pickers offer, in the spec's order. Client-safe: no server imports.
 *
 * Images live on an external host. The spec names it only as "{host}"; we assume the
 * platform's own host (galaxy.mobstudio.ru, the host of the web client and the HTTP services,
 * see /work/shared/reference/galaxy-platform.md) with one PNG per gift under /img/gifts/,
 * named by a slug of the full gift name. The rows show a fallback when an image fails to
 * load (spec 1 §2 "Images"), so a wrong guess degrades to the fallback, not to a broken page.
 */

export const GIFT_IMAGE_HOST = "https://galaxy.mobstudio.ru";
export const GIFT_IMAGE_PATH = "/img/gifts/";

export type Gift = {
  /** Full name: the key of every exchange rate, looked up exactly (case and spaces count). */
  name: string;
  /** Short name shown beside the full name and matched by the filters. */
  nick: string;
  imgUrl: string;
};

/** "Fire Cannon Ball" → "fire-cannon-ball". */
export function giftSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The picture host's default; deployments (and the offline demo) set GIFT_IMAGE_BASE_URL. */
export const DEFAULT_GIFT_IMAGE_BASE = `${GIFT_IMAGE_HOST}${GIFT_IMAGE_PATH}`;

export function giftImageUrl(name: string, base: string = DEFAULT_GIFT_IMAGE_BASE): string {
  return `${base.endsWith("/") ? base : `${base}/`}${giftSlug(name)}.png`;
}

const entries: Array<[name: string, nick: string]> = [
  ["Fire Cannon Ball", "FCB"],
  ["Green Light", "GL"],
  ["Explosive Cannon Ball", "ECB"],
  ["Gold Cannon Ball", "GCB"],
  ["Electric Bowling Ball", "EBB"],
  ["Red Bowling Ball", "RBB"],
  ["Green Bowling Ball", "GBB"],
  ["Silver Ring", "SR"],
  ["Gold Ring", "GR"],
  ["Bronze Ring", "BR"],
  ["Diamond Skeleton Key", "dkey"],
  ["Skeleton Key", "skey"],
  ["Collection Hungry Tomcat", "Hungry Tomcat"],
  ["Collection Capybara", "Capy"],
  ["Clay", "Clay"],
];

/** The catalogue, in the spec's order (this order drives every gift picker). */
export const GIFTS: readonly Gift[] = Object.freeze(
  entries.map(([name, nick]) => Object.freeze({ name, nick, imgUrl: giftImageUrl(name) })),
);

export const GIFT_NAMES: readonly string[] = Object.freeze(GIFTS.map((g) => g.name));

const byName = new Map(GIFTS.map((g) => [g.name, g]));

/** Exact full-name lookup ("Gold Ring" finds it; "gold ring", "GR" and " Gold Ring" do not). */
export function findGift(name: string | null | undefined): Gift | undefined {
  return typeof name === "string" ? byName.get(name) : undefined;
}

export function isCatalogueGift(name: string | null | undefined): boolean {
  return findGift(name) !== undefined;
}

/** Position in the catalogue (unknown names sort after every known one). */
export function giftOrder(name: string): number {
  const i = GIFT_NAMES.indexOf(name);
  return i === -1 ? GIFT_NAMES.length : i;
}

/**
 * The filters' rule (spec 1 §2 "Exchange Rates section"): a case-insensitive substring match
 * on the gift's name or nick. An empty query matches everything.
 */
export function giftMatches(name: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  if (name.toLowerCase().includes(q)) return true;
  const nick = findGift(name)?.nick;
  return !!nick && nick.toLowerCase().includes(q);
}
