import { describe, expect, it, vi } from "vitest";
import { pause, pauseUntil } from "./pause";

describe("pause(ms, signal)", () => {
  it("resolves after the time when nothing aborts", async () => {
    const t0 = Date.now();
    await pause(30);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
  });

  it("resolves early, without rejecting, when the signal aborts", async () => {
    const c = new AbortController();
    const p = pause(60_000, c.signal);
    c.abort("stop");
    await expect(p).resolves.toBeUndefined();
  });

  it("an already aborted signal or a zero time resolves at once", async () => {
    const c = new AbortController();
    c.abort();
    await expect(pause(60_000, c.signal)).resolves.toBeUndefined();
    await expect(pause(0)).resolves.toBeUndefined();
  });
});

describe("pauseUntil(at, signal)", () => {
  it("ends when the clock reads `at`, even when the timer ends first (a wall clock that runs behind the timers' clock)", async () => {
    // A slewed wall clock: 70 % of the timers' pace. A single timer of `at - now` ends early by it.
    const real = Date.now.bind(Date);
    const t0 = real();
    const spy = vi.spyOn(Date, "now").mockImplementation(() => t0 + Math.floor((real() - t0) * 0.7));
    try {
      const at = Date.now() + 100;
      await pauseUntil(at);
      expect(Date.now()).toBeGreaterThanOrEqual(at);
    } finally {
      spy.mockRestore();
    }
  });

  it("ends at once for a time passed or an aborted signal", async () => {
    const c = new AbortController();
    const p = pauseUntil(Date.now() + 60_000, c.signal);
    c.abort();
    await expect(p).resolves.toBeUndefined();
    const t0 = Date.now();
    await pauseUntil(t0 - 1);
    expect(Date.now() - t0).toBeLessThan(20);
  });
});
