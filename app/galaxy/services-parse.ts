/**
 * The Galaxy HTTP services' answers mapped to our DTOs (reference §7.2; docs/galaxy-services.md).
 *
 * Pure: no network, no cache, no environment. services.server.ts does the transport (headers,
 * limits, timeouts, cache) and hands each raw answer here together with the action's entry of
 * the services configuration, whose dot paths say where the fields are. A malformed answer
 * throws GalaxyServiceError of kind "format" naming the action, never the credentials.
 */
import { pick, type ServicesConfig } from "./services-config";

/** Who a services call acts as (the account's id and password; server only). */
export type GalaxyCredentials = { userID: string; password: string };
export type GiftStat = { type: number; name: string; img: string; amount: number };
export type UserStatus = { isOnline: boolean; room: string | null };
export type CollectionItem = { imageUrl: string; count: string; goodsID: number | null; index: number | null };
export type CollectionStats = { firstRow: CollectionItem[]; secondRow: CollectionItem[] };
/** `goodsId`: the item definition (a collection piece's goodsID) when the page names one. */
export type InventoryItem = { goodId: string; name: string; img: string | null; goodsId?: string };
export type InventoryPage = { items: InventoryItem[]; page: number; pages: number };
export type SearchMatch = { userId: string; nick: string; lastOnline: string | null };
export type DailyStat = { date: string; awards: Record<string, number>; spent: Record<string, number> };
export type MasticResult = { success: boolean; message: string | null };

export type ServiceErrorKind = "timeout" | "network" | "http" | "auth" | "format" | "rejected" | "aborted";

export class GalaxyServiceError extends Error {
  constructor(
    message: string,
    readonly kind: ServiceErrorKind,
    readonly action: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "GalaxyServiceError";
  }
}

type Documented = ServicesConfig["documented"];
type Undocumented = ServicesConfig["undocumented"];

/** A JSON answer's body; anything else is a format error of `action`. */
export function parseJsonBody(body: string, action: string, status?: number): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new GalaxyServiceError(`The ${action} answer is not JSON`, "format", action, status);
  }
}

// ---- documented actions (reference §7.2) -------------------------------------------------

/**
 * `user_pics_ajax`: JSON keyed by user id, each a map of picture URLs (or a URL). Every id in
 * `ids` gets an entry; ids without a picture map to null.
 */
export function parseUserPics(json: unknown, ids: readonly string[], c: Documented["userPics"]): Record<string, string | null> {
  const map: Record<string, string | null> = {};
  for (const id of ids) map[id] = pictureOf(pick(json, id), c);
  return map;
}

/**
 * One user's picture: the named field when `pictureField` is set, else the value at
 * `picturePosition` (spec 2 §7 "taken from fields by position"), else the first URL.
 */
export function pictureOf(entry: unknown, c: Documented["userPics"]): string | null {
  if (typeof entry === "string") return entry || null;
  if (!entry || typeof entry !== "object") return null;
  if (c.pictureField) {
    const named = asString(pick(entry, c.pictureField));
    if (named) return named;
  }
  const values = Object.values(entry);
  const atPosition = asString(values[c.picturePosition]);
  if (atPosition) return atPosition;
  for (const v of values) if (typeof v === "string" && v) return v;
  return null;
}

/**
 * Items of a `show_inventory` page (reference §7.2): each `div.s__item` holds a link with
 * `goodID=<n>` and a `div.s__name`; the page counter `div.s__pages__counter` reads "cur/total".
 */
export function parseInventoryPage(html: string): InventoryPage {
  const items: InventoryItem[] = [];
  const starts = [...html.matchAll(/<div[^>]*class\s*=\s*["'][^"']*\bs__item\b[^"']*["'][^>]*>/gi)].map((m) => m.index);
  starts.forEach((start, i) => {
    const chunk = html.slice(start, starts[i + 1] ?? html.length);
    const id = /goodI[Dd]=(\d+)/.exec(chunk)?.[1];
    if (!id) return;
    const name = /<div[^>]*class\s*=\s*["'][^"']*\bs__name\b[^"']*["'][^>]*>([\s\S]*?)<\/div>/i.exec(chunk)?.[1];
    const img = /<img[^>]*\bsrc\s*=\s*["']([^"']+)["']/i.exec(chunk)?.[1];
    const goodsId = /goodsI[Dd]=(\d+)/.exec(chunk)?.[1];
    items.push({ goodId: id, name: name ? decodeHtml(name) : "", img: img ? decodeHtml(img) : null, ...(goodsId ? { goodsId } : {}) });
  });
  const counter = /<div[^>]*class\s*=\s*["'][^"']*\bs__pages__counter\b[^"']*["'][^>]*>\s*(\d+)\s*\/\s*(\d+)/i.exec(html);
  const page = counter ? Number(counter[1]) : 1;
  const pages = counter ? Math.max(Number(counter[2]), 1) : 1;
  return { items, page, pages };
}

/** True when a configured `successPattern` matches the `present_make` answer (none by default: unknown). */
export function isGiftConfirmed(html: string, c: Documented["sendGifts"]): boolean {
  return c.successPattern !== null && new RegExp(c.successPattern, "i").test(html);
}

/** `search_ajax`: matches with id, nick and last-online text; entries without an id are skipped. */
export function parseSearch(json: unknown, c: Documented["search"]): SearchMatch[] {
  const list = pick(json, c.listPath);
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const userId = asString(pick(item, c.userId));
    if (!userId) return [];
    return [{ userId, nick: asString(pick(item, c.nick)) ?? "", lastOnline: asString(pick(item, c.lastOnline)) }];
  });
}

// ---- configured (undocumented) actions ----------------------------------------------------

/** Gift stats (spec 1 §3 "Gift stat": type, name, img, amount); entries without a type are skipped. */
export function parseGiftStats(json: unknown, c: Undocumented["giftStats"]): GiftStat[] {
  const r = c.response;
  const list = pick(json, r.listPath);
  if (!Array.isArray(list)) throw new GalaxyServiceError("Gift stats answer has no list", "format", c.action);
  return list.flatMap((item) => {
    const type = asNumber(pick(item, r.type));
    if (type === null) return [];
    return [
      {
        type,
        name: asString(pick(item, r.name)) ?? "",
        img: asString(pick(item, r.img)) ?? "",
        amount: asNumber(pick(item, r.amount)) ?? 0,
      },
    ];
  });
}

/** Online status (spec 1 §3: isOnline, room); the room only counts while online. */
export function parseStatus(json: unknown, c: Undocumented["onlineStatus"]): UserStatus {
  if (!json || typeof json !== "object") throw new GalaxyServiceError("Status answer is not an object", "format", c.action);
  const isOnline = asBool(pick(json, c.response.isOnline));
  const room = asString(pick(json, c.response.room));
  return { isOnline, room: isOnline && room ? room : null };
}

/** Collection stats (spec 1 §3: firstRow and secondRow of {imageUrl, count as text}). */
export function parseCollectionStats(json: unknown, c: Undocumented["collectionStats"]): CollectionStats {
  const r = c.response;
  const row = (path: string): CollectionItem[] => {
    const list = pick(json, path);
    if (!Array.isArray(list)) throw new GalaxyServiceError("Collection answer has no rows", "format", c.action);
    return list.map((item) => ({
      imageUrl: asString(pick(item, r.imageUrl)) ?? "",
      count: String(asNumber(pick(item, r.count)) ?? 0),
      goodsID: asNumber(pick(item, r.goodsId)),
      index: asNumber(pick(item, r.index)),
    }));
  };
  return { firstRow: row(r.firstRowPath), secondRow: row(r.secondRowPath) };
}

export function parseMastic(json: unknown, c: Undocumented["mastic"]): MasticResult {
  return { success: asBool(pick(json, c.response.success)), message: asString(pick(json, c.response.message)) };
}

/** Daily awards and spending, oldest first; entries without a date are skipped. */
export function parseDailyStats(json: unknown, c: Undocumented["dailyStats"]): DailyStat[] {
  const r = c.response;
  const list = pick(json, r.listPath);
  if (!Array.isArray(list)) throw new GalaxyServiceError("Daily stats answer has no list", "format", c.action);
  return list
    .flatMap((item) => {
      const date = asString(pick(item, r.date));
      if (!date) return [];
      return [{ date, awards: countMap(pick(item, r.awards)), spent: countMap(pick(item, r.spent)) }];
    })
    .sort((a, b) => a.date.localeCompare(b.date));
}

// ---- value coercion: the platform sends numbers as text and flags as 1/"true"/"online" ----

function asString(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

function asNumber(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

function asBool(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return ["1", "true", "yes", "online", "on"].includes(v.trim().toLowerCase());
  return false;
}

function countMap(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (v && typeof v === "object" && !Array.isArray(v)) {
    for (const [k, n] of Object.entries(v)) {
      const num = asNumber(n);
      if (num !== null) out[k] = num;
    }
  }
  return out;
}

function decodeHtml(text: string) {
  return text
    .replace(/<[^>]*>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .trim();
}
