/**
 * Discord's REST rate limits as the simulator enforces them (developer docs, "Rate Limits"):
 * per-route buckets keyed by the route and its top-level resource (channel, guild, webhook id +
 * token), a global limit per bot token (per caller without one), the `X-RateLimit-*` headers on
 * every answer, and 429s with `Retry-After`, `X-RateLimit-Scope` and `{ message, retry_after, global }`.
 *
 * Windows are fixed: a bucket's window opens on its first request and `limit` requests fit in it.
 * The limits are ours (Discord says they are not to be hard-coded and publishes none); the defaults
 * below are the ones Discord is commonly seen to send for these routes.
 */
import { createHash } from "node:crypto";

export type BucketRule = { limit: number; windowMs: number };
export type RateLimitConfig = {
  /** Requests per second per token across all routes; 0 turns the global limit off. */
  globalPerSecond: number;
  /** Per-route rules, keyed `"<METHOD> <template>"`, e.g. `"POST /channels/:channel/messages"`. */
  buckets: Record<string, BucketRule>;
  /** Every route without its own rule. */
  defaultBucket: BucketRule;
};

export function defaultRateLimits(): RateLimitConfig {
  return {
    globalPerSecond: 50,
    buckets: {
      "POST /channels/:channel/messages": { limit: 5, windowMs: 5000 },
      "PATCH /channels/:channel/messages/:message": { limit: 5, windowMs: 5000 },
      "DELETE /channels/:channel/messages/:message": { limit: 5, windowMs: 1000 },
      "POST /webhooks/:webhook/:token": { limit: 5, windowMs: 2000 },
    },
    defaultBucket: { limit: 50, windowMs: 1000 },
  };
}

export type RateLimitHit = { at: number; route: string; major: string; scope: "user" | "global" | "shared"; injected: boolean };

/** A bucket's current window: requests counted so far (so a changed rule applies at once) and when it ends. */
type Window = { used: number; resetAt: number };

export type Verdict = { ok: true; headers: Record<string, string> } | { ok: false; status: 429; headers: Record<string, string>; body: RateLimitBody };
export type RateLimitBody = { message: string; retry_after: number; global: boolean; code?: number };

const seconds = (ms: number) => Math.max(0, ms) / 1000;
/** X-RateLimit-Bucket: an opaque hash of the route (top-level resources excluded, as Discord's are). */
const bucketHash = (route: string) => createHash("sha1").update(route).digest("hex").slice(0, 32);

export class RateLimiter {
  config: RateLimitConfig;
  readonly #initial: RateLimitConfig;
  /** Every 429 the simulator answered, oldest first (bounded), for tests and GET /__discord/ratelimits. */
  readonly hits: RateLimitHit[] = [];
  #routes = new Map<string, Window>();
  #global = new Map<string, Window>();

  constructor(config: Partial<RateLimitConfig> = {}) {
    this.#initial = { ...defaultRateLimits(), ...config };
    this.config = structuredClone(this.#initial);
  }

  rule(route: string): BucketRule {
    return this.config.buckets[route] ?? this.config.defaultBucket;
  }

  /** Empty buckets, no recorded 429s, and the configuration the simulator started with. */
  reset() {
    this.config = structuredClone(this.#initial);
    this.#routes.clear();
    this.#global.clear();
    this.hits.length = 0;
  }

  #record(hit: Omit<RateLimitHit, "at">) {
    this.hits.push({ at: Date.now(), ...hit });
    if (this.hits.length > 1000) this.hits.shift();
  }

  #routeHeaders(route: string, w: Window, rule: BucketRule, now: number): Record<string, string> {
    return {
      "x-ratelimit-limit": String(rule.limit),
      "x-ratelimit-remaining": String(Math.max(0, rule.limit - w.used)),
      "x-ratelimit-reset": seconds(w.resetAt).toFixed(3),
      "x-ratelimit-reset-after": seconds(w.resetAt - now).toFixed(3),
      "x-ratelimit-bucket": bucketHash(route),
    };
  }

  /** Counts one request on the global and the route bucket; a full bucket answers 429 instead. */
  take(route: string, major: string, caller: string, now = Date.now()): Verdict {
    if (this.config.globalPerSecond > 0) {
      let g = this.#global.get(caller);
      if (!g || now >= g.resetAt) this.#global.set(caller, (g = { used: 0, resetAt: now + 1000 }));
      if (g.used >= this.config.globalPerSecond) {
        this.#record({ route, major, scope: "global", injected: false });
        return globalLimited(g.resetAt - now);
      }
      g.used++;
    }
    const rule = this.rule(route);
    const key = `${route}|${major}`;
    let w = this.#routes.get(key);
    if (!w || now >= w.resetAt) this.#routes.set(key, (w = { used: 0, resetAt: now + rule.windowMs }));
    if (w.used >= rule.limit) {
      this.#record({ route, major, scope: "user", injected: false });
      const wait = w.resetAt - now;
      return {
        ok: false,
        status: 429,
        headers: { ...this.#routeHeaders(route, w, rule, now), "retry-after": String(Math.ceil(seconds(wait))), "x-ratelimit-scope": "user" },
        body: { message: "You are being rate limited.", retry_after: Number(seconds(wait).toFixed(3)), global: false },
      };
    }
    w.used++;
    return { ok: true, headers: this.#routeHeaders(route, w, rule, now) };
  }

  /** A 429 injected by the `rest429` fault: shaped like a real one, the bucket itself untouched. */
  injected(route: string, major: string, retryAfterMs: number, scope: "user" | "shared" | "global", now = Date.now()): Verdict {
    this.#record({ route, major, scope, injected: true });
    if (scope === "global") return globalLimited(retryAfterMs);
    const rule = this.rule(route);
    const w: Window = { used: rule.limit, resetAt: now + retryAfterMs };
    return {
      ok: false,
      status: 429,
      headers: {
        ...this.#routeHeaders(route, w, rule, now),
        "retry-after": String(Math.ceil(seconds(retryAfterMs))),
        "x-ratelimit-scope": scope,
      },
      body: {
        message: scope === "shared" ? "The resource is being rate limited." : "You are being rate limited.",
        retry_after: seconds(retryAfterMs),
        global: false,
      },
    };
  }
}

function globalLimited(waitMs: number): Verdict {
  return {
    ok: false,
    status: 429,
    headers: { "retry-after": String(Math.ceil(seconds(waitMs))), "x-ratelimit-global": "true", "x-ratelimit-scope": "global" },
    body: { message: "You are being rate limited.", retry_after: Number(seconds(waitMs).toFixed(3)), global: true },
  };
}
