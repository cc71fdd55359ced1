import { describe, expect, it } from "vitest";
import { pause } from "./pause";

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
