import crypto from "node:crypto";
import net from "node:net";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { producerConnection, queuePrefix, waitForReady } from "~/queue/redis.server";
import { remember } from "../utils/remember.server";

/**
 * Failed-login limits (docs/auth.md, docs/decisions/0012-login-limiter.md), after
 * rate-limiter-flexible's "login endpoint protection" recipe:
 *
 * - **per (name, address)**: 5 consecutive failures and that pair waits 15 minutes. Nobody
 *   else is locked out: the same name from another address still gets its own 5 tries, so
 *   an attacker cannot keep an operator out by failing on purpose. A success resets the pair.
 * - **per address**: 100 failures within an hour (whatever the names) and the address waits
 *   an hour, against one address spraying many names.
 *
 * Counters live in Redis (the app's REDIS_URL, keys under QUEUE_PREFIX), so every web
 * process shares them and a restart keeps them; expiry is Redis's, so no flood of keys can
 * push a locked pair out. While Redis is unreachable each process counts in memory
 * (rate-limiter-flexible's insurance limiter) and Redis takes over again when it is back.
 */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_PAIR_BLOCK_MS = 15 * 60_000;
/** How long a pair's failures count as "consecutive" when they stay below the limit. */
export const LOGIN_PAIR_MEMORY_MS = 24 * 3_600_000;
export const LOGIN_ADDRESS_FAILURE_LIMIT = 100;
export const LOGIN_ADDRESS_WINDOW_MS = 3_600_000;

type Limiters = { pair: RateLimiterAbstract; address: RateLimiterAbstract };

/**
 * Both limiters, on Redis with in-memory insurance. `redis` returns the connection to use
 * (null: memory only); the module-level functions below use the app's fail-fast producer
 * connection. Tests build their own to point at a dead Redis.
 */
export class LoginLimits {
  private memory: Limiters;
  private onRedis = new WeakMap<Redis, Limiters>();

  constructor(private opts: { redis: () => Redis | null; keyPrefix: () => string; readyTimeoutMs?: number }) {
    this.memory = this.build(null);
  }

  private build(client: Redis | null): Limiters {
    const prefix = `${this.opts.keyPrefix()}:login-limit`;
    const make = (name: string, failures: number, durationMs: number, blockMs: number): RateLimiterAbstract => {
      // `points` failures pass; the one after them crosses the threshold and blocks the key.
      const base = { keyPrefix: `${prefix}:${name}`, points: failures - 1, duration: durationMs / 1000, blockDuration: blockMs / 1000 };
      if (!client) return new RateLimiterMemory(base);
      const insuranceLimiter = name === "pair" ? this.memory.pair : this.memory.address;
      return new RateLimiterRedis({ ...base, storeClient: client, rejectIfRedisNotReady: true, insuranceLimiter });
    };
    return {
      pair: make("pair", LOGIN_FAILURE_LIMIT, LOGIN_PAIR_MEMORY_MS, LOGIN_PAIR_BLOCK_MS),
      address: make("address", LOGIN_ADDRESS_FAILURE_LIMIT, LOGIN_ADDRESS_WINDOW_MS, LOGIN_ADDRESS_WINDOW_MS),
    };
  }

  /** The Redis-backed limiters when Redis answers now, else the in-memory ones. */
  private async limiters(): Promise<Limiters> {
    let client: Redis | null = null;
    try {
      client = this.opts.redis();
    } catch {
      client = null;
    }
    // A connection still being made (first request after boot) is worth a short wait;
    // one that is reconnecting means Redis is down, and waitForReady says so at once.
    if (!client || !(await waitForReady(client, this.opts.readyTimeoutMs ?? 1_000))) return this.memory;
    let limiters = this.onRedis.get(client);
    if (!limiters) this.onRedis.set(client, (limiters = this.build(client)));
    return limiters;
  }

  /** Milliseconds until this name may be tried from this address again; 0 when it may now. */
  async blockedFor(ip: string, name: string): Promise<number> {
    const l = await this.limiters();
    const [pair, address] = await Promise.all([l.pair.get(pairKey(ip, name)), l.address.get(addressKey(ip))]);
    return Math.max(waitOf(pair, l.pair), waitOf(address, l.address));
  }

  /** Counts a failure; returns how long the pair or the address must now wait (0: not yet blocked). */
  async failure(ip: string, name: string): Promise<number> {
    const l = await this.limiters();
    const [pair, address] = await Promise.all([consume(l.pair, pairKey(ip, name)), consume(l.address, addressKey(ip))]);
    return Math.max(pair, address);
  }

  /** A successful login forgets the pair's failures (the address's stay: they may be for other names). */
  async success(ip: string, name: string): Promise<void> {
    const l = await this.limiters();
    await l.pair.delete(pairKey(ip, name));
  }

  /** Forgets every counter (tests): the memory ones, and this prefix's keys in Redis. */
  async clear(): Promise<void> {
    this.memory = this.build(null);
    this.onRedis = new WeakMap();
    const client = this.opts.redis();
    if (!client || !(await waitForReady(client, this.opts.readyTimeoutMs ?? 1_000))) return;
    const pattern = `${this.opts.keyPrefix()}:login-limit:*`;
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", pattern, "COUNT", 1000);
      if (keys.length) await client.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  }
}

/** The wait a stored counter imposes: only once it went past the limiter's points (its threshold). */
function waitOf(res: RateLimiterRes | null, limiter: RateLimiterAbstract): number {
  return res && res.consumedPoints > limiter.points ? Math.max(1, res.msBeforeNext) : 0;
}

async function consume(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (rejected) {
    // A RateLimiterRes means "over the limit"; anything else is a store error the insurance could not absorb.
    if (rejected instanceof RateLimiterRes) return Math.max(1, rejected.msBeforeNext);
    throw rejected;
  }
}

/**
 * The pair is hashed: what people type into the Name field is sometimes their password,
 * and Redis keys are not the place for it.
 */
function pairKey(ip: string, name: string): string {
  return crypto
    .createHash("sha256")
    .update(`${name.trim().toLowerCase()}\0${addressKey(ip)}`)
    .digest("base64url")
    .slice(0, 32);
}

/** IPv6 clients usually own a whole /64, so the address limit counts per /64. */
export function addressKey(ip: string): string {
  if (!net.isIPv6(ip) || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.replace(/^::ffff:/i, "");
  const [head = "", tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || "0", 16).toString(16))
    .join(":")}::/64`;
}

function loginLimits(): LoginLimits {
  return remember("login-limits", () => new LoginLimits({ redis: producerConnection, keyPrefix: queuePrefix }));
}

/** Milliseconds until `name` may be tried from `ip` again (0: now). */
export function loginBlockedFor(ip: string, name: string): Promise<number> {
  return loginLimits().blockedFor(ip, name);
}

/** Records a wrong password or unknown name; returns the wait it caused (0: none yet). */
export function recordLoginFailure(ip: string, name: string): Promise<number> {
  return loginLimits().failure(ip, name);
}

export function recordLoginSuccess(ip: string, name: string): Promise<void> {
  return loginLimits().success(ip, name);
}

/** Tests: forget all counters of this process and of this QUEUE_PREFIX in Redis. */
export function clearLoginLimits(): Promise<void> {
  return loginLimits().clear();
}

/** "Too many failed logins. Try again in 14 minutes." */
export function tooManyAttemptsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many failed logins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
