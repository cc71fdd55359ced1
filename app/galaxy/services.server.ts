import crypto from "node:crypto";
import http from "node:http";
import https from "node:https";
import { getEnv } from "~/utils/env.server";
import { TtlCache } from "./cache";
import { RateLimiter, Semaphore } from "./limiter";
import { getServicesConfig, type ServicesConfig } from "./services-config";
import {
  GalaxyServiceError,
  isGiftConfirmed,
  parseCollectionStats,
  parseDailyStats,
  parseGiftStats,
  parseInventoryPage,
  parseJsonBody,
  parseMastic,
  parseSearch,
  parseStatus,
  parseUserPics,
  type CollectionStats,
  type DailyStat,
  type GalaxyCredentials,
  type GiftStat,
  type InventoryItem,
  type MasticResult,
  type SearchMatch,
  type UserStatus,
} from "./services-parse";
import { headerValue, type UserAgentRecord, type UserAgentSource } from "./user-agent";

/**
 * Client of the Galaxy HTTP services (reference §7; docs/galaxy-services.md).
 *
 * Every call follows the official client's makeUrl: `userID`, `password`, `a=<action>`,
 * `usercur` (target, default self), `random`, `ajax=1` in the query; POST forms repeat
 * `a`/`usercur`/`ajax` in the body. Headers are the X-Galaxy-* set built per account from
 * its user-agent record. Calls pass a per-account token bucket, then a global semaphore,
 * and each HTTP exchange is aborted after `limits.timeoutMs`. Read-only answers are cached
 * per account and call for `limits.cacheTtlMs`; `skipCache` (X-Skip-Cache: true) forces a
 * fresh call whose answer replaces the cached one.
 *
 * Passwords travel only in the outgoing query (the platform's own convention): they are not
 * part of cache keys (a hash is), not in error messages, and never logged.
 *
 * This module is the transport only; what an answer means (the DTOs, the configured response
 * paths) is services-parse.ts, which is pure and tested with fixtures.
 */

export type { GalaxyCredentials };
export type CallOptions = { skipCache?: boolean; signal?: AbortSignal };

type Spec = {
  action: string;
  method: "GET" | "POST";
  /** Target account (usercur); defaults to the caller. */
  usercur?: string;
  query?: Record<string, string>;
  form?: Array<[string, string]>;
};

type Raw = { status: number; contentType: string; body: string };

export type GalaxyServicesOptions = {
  baseUrl?: string;
  config?: ServicesConfig;
  /**
   * Where user-agent records come from: the app's one client reads the persisted registry
   * (app/platform/galaxy-services.server.ts); the transport itself reads no table.
   */
  userAgents: UserAgentSource;
  /** Accept self-signed certificates (simulator over https). */
  insecureTls?: boolean;
};

const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * A kept-alive socket idle this long is closed by us, and sooner when the platform announces
 * its own idle timeout (`Keep-Alive: timeout=5` → 4 s): we let go before the platform does.
 * Without it Node keeps an idle socket until the platform's close is read, and a request sent
 * in that moment dies unanswered (ECONNRESET); a read goes again (`exchange`), but a POST must
 * not, so a mastic run or a search failed as "Cannot reach the Galaxy services" (seen in a
 * loaded CI run: the collections journey's first mastic request, ~5 s after the login's calls).
 * Only a socket in the pool is closed by this; a request's own wait is `limits.timeoutMs`.
 */
const IDLE_SOCKET_MS = 4_000;

function hashSecret(value: string) {
  return crypto.createHash("sha256").update(value).digest("base64url").slice(0, 22);
}

export class GalaxyServices {
  readonly config: ServicesConfig;
  readonly baseUrl: string;
  private readonly semaphore: Semaphore;
  private readonly rate: RateLimiter;
  private readonly cache: TtlCache<unknown>;
  private readonly userAgents: UserAgentSource;
  private readonly agent: http.Agent;
  private readonly forward: RegExp;

  constructor(options: GalaxyServicesOptions) {
    this.config = options.config ?? getServicesConfig();
    this.baseUrl = options.baseUrl ?? getEnv().GALAXY_SERVICES_URL;
    const { limits } = this.config;
    this.semaphore = new Semaphore(limits.concurrency);
    this.rate = new RateLimiter(limits.perAccountPerSecond, limits.perAccountBurst);
    this.cache = new TtlCache(limits.cacheTtlMs, limits.cacheMaxEntries);
    this.userAgents = options.userAgents;
    this.forward = new RegExp(this.config.headers.forward, "i");
    const url = new URL(this.baseUrl);
    // `timeout`: how long a kept-alive socket may wait idle in the pool ({@link IDLE_SOCKET_MS});
    // it also lets Node's agent take the platform's own `Keep-Alive: timeout=N` hint, less 1 s.
    const agentOptions = { keepAlive: true, maxSockets: limits.concurrency, maxFreeSockets: limits.concurrency, timeout: IDLE_SOCKET_MS };
    this.agent =
      url.protocol === "https:"
        ? new https.Agent({ ...agentOptions, rejectUnauthorized: !(options.insecureTls ?? getEnv().GALAXY_INSECURE_TLS) })
        : new http.Agent(agentOptions);
  }

  /** Live figures for the queue board and the bench. */
  stats() {
    return { inFlight: this.semaphore.inFlight, waiting: this.semaphore.waiting, cached: this.cache.size };
  }

  clearCache() {
    this.cache.clear();
  }

  close() {
    this.agent.destroy();
    this.cache.clear();
  }

  /** The X-Galaxy-* headers for one account (reference §7.1). */
  buildHeaders(ua: UserAgentRecord | null): Record<string, string> {
    const out = new Map<string, [string, string]>();
    const put = (name: string, value: string) => out.set(name.toLowerCase(), [name, value]);
    for (const [k, v] of Object.entries(this.config.headers.defaults)) put(k, v);
    if (ua?.device === "android" || ua?.sek) for (const [k, v] of Object.entries(this.config.headers.android)) put(k, v);
    for (const [k, v] of Object.entries(ua?.headers ?? {})) if (this.forward.test(k)) put(k, v);
    if (ua?.sek && this.config.headers.sekHeader) put(this.config.headers.sekHeader, ua.sek);
    if (!headerValue(Object.fromEntries(out.values()), "User-Agent")) {
      const browser = headerValue(Object.fromEntries(out.values()), "X-Galaxy-User-Agent");
      if (browser) put("User-Agent", browser);
    }
    return Object.fromEntries(out.values());
  }

  // ---- documented actions (reference §7.2) -------------------------------------------

  /** Picture URL per user id via `user_pics_ajax`; ids without a picture map to null. */
  async userPics(creds: GalaxyCredentials, userIds: Array<string | number>, opts: CallOptions = {}): Promise<Record<string, string | null>> {
    const c = this.config.documented.userPics;
    const ids = [...new Set(userIds.map(String))];
    const out: Record<string, string | null> = {};
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += c.maxIdsPerCall) chunks.push(ids.slice(i, i + c.maxIdsPerCall));
    const answers = await Promise.all(
      chunks.map((chunk) =>
        this.cached(creds, `pics:${[...chunk].sort().join(",")}`, opts, async () => {
          const json = await this.json(creds, { action: c.action, method: c.method, query: { [c.idsParam]: chunk.join(",") } });
          return parseUserPics(json, chunk, c);
        }),
      ),
    );
    for (const a of answers) Object.assign(out, a);
    return out;
  }

  async userPic(creds: GalaxyCredentials, userId: string | number, opts: CallOptions = {}): Promise<string | null> {
    const pics = await this.userPics(creds, [userId], opts);
    return pics[String(userId)] ?? null;
  }

  /** Every gift the account holds, across all pages of `show_inventory`. */
  async inventory(creds: GalaxyCredentials, opts: CallOptions = {}): Promise<InventoryItem[]> {
    const c = this.config.documented.inventory;
    return this.cached(creds, "inventory", opts, async () => {
      const items: InventoryItem[] = [];
      let pages = 1;
      for (let page = 1; page <= Math.min(pages, c.maxPages); page++) {
        const raw = await this.call(creds, { action: c.action, method: c.method, query: { ...c.params, [c.pageParam]: String(page) } });
        const parsed = parseInventoryPage(raw.body);
        items.push(...parsed.items);
        pages = parsed.pages;
      }
      return items;
    });
  }

  /**
   * Sends the given inventory items to `recipientId` with `present_make` (reference §7.2).
   * No public source shows the real answer, so a send is confirmed by a 2xx answer and a
   * fresh inventory read (`confirmedBy: "inventory"`: `sent` counts the items that left),
   * unless a configured `successPattern` matches the answer (`"answer"`). The items must be
   * held just before: callers that checked say `held: true`, else this reads the inventory
   * first (an item that was already gone must not count as sent).
   */
  async sendGifts(
    creds: GalaxyCredentials,
    recipientId: string | number,
    goodIds: Array<string | number>,
    opts: { held?: boolean } = {},
  ): Promise<{ sent: number; confirmedBy: "answer" | "inventory" }> {
    const c = this.config.documented.sendGifts;
    let ids = [...new Set(goodIds.map(String))].filter((id) => /^\d+$/.test(id));
    if (!ids.length) return { sent: 0, confirmedBy: "answer" };
    if (!opts.held) {
      const before = new Set((await this.inventory(creds, { skipCache: true })).map((i) => i.goodId));
      ids = ids.filter((id) => before.has(id));
      if (!ids.length) throw new GalaxyServiceError("None of these gifts is in the inventory", "rejected", c.action);
    }
    const ua = await this.userAgents(creds.userID);
    const locale = headerValue(this.buildHeaders(ua), "X-Galaxy-Lng") ?? "en";
    const form: Array<[string, string]> = [
      ...ids.map((id): [string, string] => [`checked_items[${id}]`, "1"]),
      ...Object.entries(c.form),
      ["jad_userID", creds.userID],
      ["jad_locale", locale],
    ];
    const raw = await this.call(creds, { action: c.action, method: c.method, usercur: String(recipientId), query: c.params, form });
    this.invalidate(creds.userID, String(recipientId));
    if (isGiftConfirmed(raw.body, c)) return { sent: ids.length, confirmedBy: "answer" };
    const after = new Set((await this.inventory(creds, { skipCache: true })).map((i) => i.goodId));
    const sent = ids.filter((id) => !after.has(id)).length;
    if (!sent) throw new GalaxyServiceError("The platform did not confirm the gift", "rejected", c.action, raw.status);
    return { sent, confirmedBy: "inventory" };
  }

  /** Users matching a nick, with their last-online text (`search_ajax`). */
  async search(creds: GalaxyCredentials, nick: string, opts: CallOptions = {}): Promise<SearchMatch[]> {
    const c = this.config.documented.search;
    return this.cached(creds, `search:${nick.toLowerCase()}`, opts, async () => {
      const json = await this.json(creds, { action: c.action, method: c.method, form: [...Object.entries(c.form), [c.valueField, nick]] });
      return parseSearch(json, c);
    });
  }

  // ---- configured (undocumented) actions ------------------------------------------------

  /** Gift stats of `targetId` (spec 1 §3 "Gift stat": type, name, img, amount). */
  async giftStats(creds: GalaxyCredentials, targetId: string | number, opts: CallOptions = {}): Promise<GiftStat[]> {
    const c = this.config.undocumented.giftStats;
    const target = String(targetId);
    return this.cached(creds, `gifts:${target}`, opts, async () => {
      const json = await this.json(creds, { action: c.action, method: c.method, usercur: target, query: c.params });
      return parseGiftStats(json, c);
    });
  }

  /** Online status and room of `targetId` (spec 1 §3: isOnline, room). */
  async status(creds: GalaxyCredentials, targetId: string | number, opts: CallOptions = {}): Promise<UserStatus> {
    const c = this.config.undocumented.onlineStatus;
    const target = String(targetId);
    return this.cached(creds, `status:${target}`, opts, async () => {
      const json = await this.json(creds, { action: c.action, method: c.method, usercur: target, query: c.params });
      return parseStatus(json, c);
    });
  }

  /** Collection stats (spec 1 §3: firstRow and secondRow of {imageUrl, count as text}). */
  async collectionStats(creds: GalaxyCredentials, targetId: string | number, collectionId?: number, opts: CallOptions = {}): Promise<CollectionStats> {
    const c = this.config.undocumented.collectionStats;
    const target = String(targetId);
    const collection = String(collectionId ?? c.defaultCollectionId);
    return this.cached(creds, `collection:${target}:${collection}`, opts, async () => {
      const json = await this.json(creds, {
        action: c.action,
        method: c.method,
        usercur: target,
        query: { ...c.params, [c.collectionParam]: collection },
      });
      return parseCollectionStats(json, c);
    });
  }

  /** One "mastic" collection-item request (spec 2 §1, §4 "Automation"). Never cached. */
  async runMastic(creds: GalaxyCredentials, collectionId: number): Promise<MasticResult> {
    const c = this.config.undocumented.mastic;
    const json = await this.json(creds, {
      action: c.action,
      method: c.method,
      query: c.params,
      form: [[c.collectionParam, String(collectionId)]],
    });
    this.invalidate(creds.userID);
    return parseMastic(json, c);
  }

  /** Daily awards received and gifts spent for the last `days` days, oldest first. */
  async dailyStats(creds: GalaxyCredentials, targetId: string | number, days = 7, opts: CallOptions = {}): Promise<DailyStat[]> {
    const c = this.config.undocumented.dailyStats;
    const target = String(targetId);
    return this.cached(creds, `daily:${target}:${days}`, opts, async () => {
      const json = await this.json(creds, {
        action: c.action,
        method: c.method,
        usercur: target,
        query: { ...c.params, [c.daysParam]: String(days) },
      });
      return parseDailyStats(json, c);
    });
  }

  // ---- plumbing -----------------------------------------------------------------------------

  private accountPrefix(userID: string) {
    return `${userID}|`;
  }

  /** Cache key: account, a hash of its password (never the password), and the call. */
  private cached<T>(creds: GalaxyCredentials, call: string, opts: CallOptions, load: () => Promise<T>): Promise<T> {
    // Given up before it started (a worker closing): no call goes out. Starting it anyway would
    // leave its answer, or its failure, with nobody waiting for it.
    if (opts.signal?.aborted) return Promise.reject(abortedError());
    const key = `${this.accountPrefix(creds.userID)}${hashSecret(creds.password)}|${call}`;
    const shared = this.cache.getOrLoad(key, load, opts.skipCache) as Promise<T>;
    return opts.signal ? raceAbort(shared, opts.signal) : shared;
  }

  /** After a write: drop the caller's answers and everything cached about `targets`. */
  private invalidate(userID: string, ...targets: string[]) {
    this.cache.deletePrefix(this.accountPrefix(userID));
    for (const t of targets) {
      this.cache.deletePrefix(this.accountPrefix(t));
      // Over-matching (":12" also hits ":123") only costs a refetch.
      this.cache.deleteMatching((key) => key.includes(`:${t}`) || key.includes(`,${t}`));
    }
  }

  private async json(creds: GalaxyCredentials, spec: Spec): Promise<unknown> {
    const raw = await this.call(creds, spec);
    return parseJsonBody(raw.body, spec.action, raw.status);
  }

  /** One HTTP exchange: rate limit, concurrency slot, timeout. */
  private async call(creds: GalaxyCredentials, spec: Spec): Promise<Raw> {
    const ua = await this.userAgents(creds.userID);
    const headers = this.buildHeaders(ua);
    await this.rate.take(creds.userID);
    return this.semaphore.run(() => this.exchange(creds, spec, headers));
  }

  /**
   * `attempt` counts the tries of a read whose kept-alive socket the platform had closed: the
   * server drops an idle connection after a few seconds, and a request sent on it in that
   * moment dies unanswered (ECONNRESET, EPIPE), never seen. A GET then goes again on another
   * socket, at most {@link STALE_SOCKET_TRIES} times; a POST (a gift send) never goes twice.
   */
  private exchange(creds: GalaxyCredentials, spec: Spec, headers: Record<string, string>, attempt = 1): Promise<Raw> {
    const url = new URL(this.baseUrl);
    const usercur = spec.usercur ?? creds.userID;
    const q = url.searchParams;
    q.set("userID", creds.userID);
    q.set("password", creds.password);
    q.set("a", spec.action);
    q.set("usercur", usercur);
    for (const [k, v] of Object.entries(spec.query ?? {})) q.set(k, v);
    q.set("random", String(Math.random()));
    q.set("ajax", "1");

    let body: string | undefined;
    const sendHeaders: Record<string, string> = { Accept: "application/json, text/html;q=0.9, */*;q=0.5", ...headers };
    if (spec.method === "POST") {
      const form = new URLSearchParams([["a", spec.action], ["usercur", usercur], ["ajax", "1"], ...(spec.form ?? [])]);
      body = form.toString();
      sendHeaders["Content-Type"] = "application/x-www-form-urlencoded";
      sendHeaders["Content-Length"] = String(Buffer.byteLength(body));
    }

    const timeoutMs = this.config.limits.timeoutMs;
    const lib = url.protocol === "https:" ? https : http;
    return new Promise<Raw>((resolve, reject) => {
      let settled = false;
      /** `abort`: the exchange did not complete, so the socket cannot go back to the pool. */
      const fail = (err: GalaxyServiceError, abort = true) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (abort) req.destroy();
        reject(err);
      };
      let answered = false;
      const req = lib.request(url, { method: spec.method, headers: sendHeaders, agent: this.agent }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) fail(new GalaxyServiceError(`The ${spec.action} answer is too large`, "format", spec.action, res.statusCode));
          else chunks.push(chunk);
        });
        res.on("error", () => fail(new GalaxyServiceError(`The ${spec.action} answer was cut off`, "network", spec.action)));
        res.on("end", () => {
          if (settled) return;
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString("utf8");
          // The platform's own words, when its answer has them, travel with the error (CONVENTIONS rule 17).
          const words = platformWords(text);
          if (status === 401 || status === 403) {
            return fail(new GalaxyServiceError(`The platform refused the account (${status})${words}`, "auth", spec.action, status), false);
          }
          if (status < 200 || status >= 300) {
            return fail(new GalaxyServiceError(`The platform answered ${status} to ${spec.action}${words}`, "http", spec.action, status), false);
          }
          settled = true;
          clearTimeout(timer);
          resolve({ status, contentType: String(res.headers["content-type"] ?? ""), body: text });
        });
      });
      const timer = setTimeout(() => fail(new GalaxyServiceError(`${spec.action} timed out after ${timeoutMs} ms`, "timeout", spec.action)), timeoutMs);
      req.on("error", (err: NodeJS.ErrnoException) => {
        const stale = req.reusedSocket && !answered && (err.code === "ECONNRESET" || err.code === "EPIPE");
        if (stale && spec.method === "GET" && attempt < STALE_SOCKET_TRIES && !settled) {
          settled = true;
          clearTimeout(timer);
          resolve(this.exchange(creds, spec, headers, attempt + 1));
          return;
        }
        fail(new GalaxyServiceError(`Cannot reach the Galaxy services (${err.code ?? "network error"})`, "network", spec.action));
      });
      req.end(body);
    });
  }
}

/** Tries of a read on kept-alive sockets the platform may have closed meanwhile (`exchange`). */
const STALE_SOCKET_TRIES = 3;

const abortedError = () => new GalaxyServiceError("The request was aborted", "aborted", "");

/** `promise`, or an "aborted" failure once `signal` fires; `promise`'s own outcome is always taken, so its later failure is never unhandled. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError());
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** ": <text>" from a refusal's JSON `error` (else `message`) field (spec 1 §8), at most 200 characters; "" without one. */
function platformWords(body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return "";
  }
  if (!json || typeof json !== "object") return "";
  const { error, message } = json as { error?: unknown; message?: unknown };
  const text = typeof error === "string" && error.trim() ? error : typeof message === "string" ? message : "";
  const clean = text.replace(/\s+/g, " ").trim().slice(0, 200);
  return clean ? `: ${clean}` : "";
}
