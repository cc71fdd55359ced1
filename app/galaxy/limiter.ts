/**
 * Flow control for outgoing Galaxy service calls:
 *  - `Semaphore`: at most N calls in flight over all accounts (bounded concurrency);
 *  - `RateLimiter`: a token bucket per game account, so one account never bursts the
 *    platform with more than `burst` calls at once or more than `perSecond` sustained.
 * Waiters are served first come, first served; an aborted waiter leaves the queue.
 */

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted", "AbortError");
}

export class Semaphore {
  private active = 0;
  private readonly waiters: Array<{ grant: () => void }> = [];

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new Error("Semaphore needs max >= 1");
  }

  get inFlight() {
    return this.active;
  }

  get waiting() {
    return this.waiters.length;
  }

  /** Resolves with a release function once a slot is free. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(abortError(signal!));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private releaser() {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiters.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next.grant();
      else this.active--;
    };
  }
}

type Bucket = { tokens: number; updated: number; queue: Promise<void> };

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(perSecond > 0) || !(burst >= 1)) throw new Error("RateLimiter needs perSecond > 0 and burst >= 1");
  }

  /** Waits until `key` may make one more call, then consumes a token. */
  take(key: string, signal?: AbortSignal): Promise<void> {
    const bucket = this.bucket(key);
    // Chain per key so tokens go out in call order even when several callers wait.
    const turn = bucket.queue.then(() => this.consume(bucket, signal));
    bucket.queue = turn.catch(() => {});
    return turn;
  }

  private bucket(key: string): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.burst, updated: this.now(), queue: Promise.resolve() };
      this.buckets.set(key, b);
      if (this.buckets.size > 10_000) this.prune();
    }
    return b;
  }

  private refill(b: Bucket) {
    const now = this.now();
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.updated) / 1000) * this.perSecond);
    b.updated = now;
  }

  private async consume(b: Bucket, signal?: AbortSignal) {
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      this.refill(b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return;
      }
      const waitMs = Math.ceil(((1 - b.tokens) / this.perSecond) * 1000);
      await sleep(waitMs, signal);
    }
  }

  /** Drops full buckets: an idle account is the same as a new one. */
  private prune() {
    for (const [key, b] of this.buckets) {
      this.refill(b);
      if (b.tokens >= this.burst) this.buckets.delete(key);
    }
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
