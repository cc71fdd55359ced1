import { describe, expect, it } from "vitest";
import { RateLimiter, Semaphore, sleep } from "./limiter";

describe("Semaphore (bounded concurrency of outgoing Galaxy calls)", () => {
  it("never runs more than max tasks at once and runs them all", async () => {
    const sem = new Semaphore(3);
    let active = 0;
    let peak = 0;
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        sem.run(async () => {
          active++;
          peak = Math.max(peak, active);
          await sleep(5 + (i % 3) * 3);
          active--;
          done.push(i);
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(done).toHaveLength(12);
    expect(sem.inFlight).toBe(0);
  });

  it("serves waiters first come, first served", async () => {
    const sem = new Semaphore(1);
    const release = await sem.acquire();
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) => sem.acquire().then((r) => (order.push(n), r())));
    expect(sem.waiting).toBe(3);
    release();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
  });

  it("an aborted waiter leaves the queue without taking a slot", async () => {
    const sem = new Semaphore(1);
    const release = await sem.acquire();
    const ctrl = new AbortController();
    const aborted = sem.acquire(ctrl.signal);
    const next = sem.acquire();
    ctrl.abort(new Error("gone"));
    await expect(aborted).rejects.toThrow("gone");
    expect(sem.waiting).toBe(1);
    release();
    const r = await next;
    expect(sem.inFlight).toBe(1);
    r();
    r(); // releasing twice is harmless
    expect(sem.inFlight).toBe(0);
  });
});

describe("RateLimiter (per-account token bucket)", () => {
  it("lets a burst through at once, then spaces calls at the rate", async () => {
    let now = 0;
    const rl = new RateLimiter(10, 2, () => now);
    await rl.take("a");
    await rl.take("a");
    let third = false;
    const p = rl.take("a").then(() => (third = true));
    await sleep(20);
    expect(third).toBe(false); // clock has not moved: no token yet
    now = 100; // 100 ms at 10/s = one token
    await p;
    expect(third).toBe(true);
  });

  it("keeps accounts independent", async () => {
    const now = 0;
    const rl = new RateLimiter(1, 1, () => now);
    await rl.take("a");
    const start = performance.now();
    await rl.take("b");
    expect(performance.now() - start).toBeLessThan(20);
  });

  it("spaces calls in real time", async () => {
    const rl = new RateLimiter(50, 1);
    const start = performance.now();
    for (let i = 0; i < 4; i++) await rl.take("x");
    // 1 immediate + 3 × 20 ms
    expect(performance.now() - start).toBeGreaterThanOrEqual(55);
  });
});
