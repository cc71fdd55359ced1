/**
 * A small in-memory sliding-window limiter (one web process serves the app; see
 * docs/auth.md for what changes with several). It counts *failures* recorded by the caller,
 * so successful logins never lock anyone out.
 */
export type RateLimiterOptions = {
  /** Failures allowed inside the window; the next attempt is refused. */
  limit: number;
  windowMs: number;
  /** Upper bound on remembered keys, so a flood of random names cannot exhaust memory. */
  maxKeys?: number;
  now?: () => number;
};

export type RateLimitState = { limited: boolean; remaining: number; retryAfterMs: number };

export class RateLimiter {
  private hits = new Map<string, number[]>();
  readonly limit: number;
  readonly windowMs: number;
  private maxKeys: number;
  private now: () => number;

  constructor(opts: RateLimiterOptions) {
    this.limit = opts.limit;
    this.windowMs = opts.windowMs;
    this.maxKeys = opts.maxKeys ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  private live(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = this.hits.get(key);
    if (!list) return [];
    const kept = list.filter((t) => t > cutoff);
    if (kept.length) this.hits.set(key, kept);
    else this.hits.delete(key);
    return kept;
  }

  check(key: string): RateLimitState {
    const list = this.live(key);
    if (list.length < this.limit) return { limited: false, remaining: this.limit - list.length, retryAfterMs: 0 };
    // Free again once enough of the oldest failures have left the window.
    const oldestThatMustExpire = list[list.length - this.limit]!;
    return { limited: true, remaining: 0, retryAfterMs: Math.max(0, oldestThatMustExpire + this.windowMs - this.now()) };
  }

  hit(key: string): RateLimitState {
    const list = this.live(key);
    list.push(this.now());
    this.hits.delete(key); // re-insert: Map order doubles as least-recently-used order
    this.hits.set(key, list);
    while (this.hits.size > this.maxKeys) {
      const oldest = this.hits.keys().next().value as string;
      this.hits.delete(oldest);
    }
    return this.check(key);
  }

  reset(key: string) {
    this.hits.delete(key);
  }

  clear() {
    this.hits.clear();
  }
}

/** 5 failed logins per 15 minutes, counted per client IP and per operator name. */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_WINDOW_MS = 15 * 60_000;

// On globalThis so Vite's dev reloads keep the counters.
const g = globalThis as unknown as { __gtLoginLimiter?: RateLimiter };

export function loginLimiter(): RateLimiter {
  g.__gtLoginLimiter ??= new RateLimiter({ limit: LOGIN_FAILURE_LIMIT, windowMs: LOGIN_WINDOW_MS });
  return g.__gtLoginLimiter;
}

const ipKey = (ip: string) => `ip:${ip}`;
const nameKey = (name: string) => `name:${name.trim().toLowerCase()}`;

/** Milliseconds until the next attempt is allowed, or 0 when neither the IP nor the name is locked. */
export function loginBlockedFor(ip: string, name: string): number {
  const l = loginLimiter();
  return Math.max(l.check(ipKey(ip)).retryAfterMs, l.check(nameKey(name)).retryAfterMs);
}

export function recordLoginFailure(ip: string, name: string) {
  const l = loginLimiter();
  l.hit(ipKey(ip));
  l.hit(nameKey(name));
}

export function recordLoginSuccess(ip: string, name: string) {
  const l = loginLimiter();
  l.reset(ipKey(ip));
  l.reset(nameKey(name));
}

/** "Too many failed logins. Try again in 14 minutes." */
export function tooManyAttemptsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many failed logins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
