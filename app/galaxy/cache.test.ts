import { describe, expect, it } from "vitest";
import { TtlCache } from "./cache";

describe("TtlCache (short per-account answer cache)", () => {
  it("returns stored values until they expire", () => {
    let now = 1000;
    const c = new TtlCache<number>(100, 10, () => now);
    c.set("k", 1);
    expect(c.get("k")).toBe(1);
    now = 1099;
    expect(c.get("k")).toBe(1);
    now = 1100;
    expect(c.get("k")).toBeUndefined();
  });

  it("evicts the oldest entries beyond maxEntries", () => {
    const c = new TtlCache<number>(1000, 2);
    c.set("a", 1);
    c.set("b", 2);
    c.set("c", 3);
    expect(c.get("a")).toBeUndefined();
    expect(c.get("b")).toBe(2);
    expect(c.size).toBe(2);
  });

  it("loads once for concurrent readers, reloads when skipCache is set, never caches failures", async () => {
    const c = new TtlCache<number>(1000, 10);
    let loads = 0;
    const load = async () => {
      loads++;
      return loads;
    };
    const [a, b] = await Promise.all([c.getOrLoad("k", load), c.getOrLoad("k", load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    expect(await c.getOrLoad("k", load)).toBe(1);
    expect(await c.getOrLoad("k", load, true)).toBe(2);
    expect(await c.getOrLoad("k", load)).toBe(2); // the forced answer replaced the old one
    await expect(c.getOrLoad("f", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await c.getOrLoad("f", load)).toBe(3);
  });

  it("with ttl 0 caches nothing", async () => {
    const c = new TtlCache<number>(0, 10);
    let n = 0;
    await c.getOrLoad("k", async () => ++n);
    await c.getOrLoad("k", async () => ++n);
    expect(n).toBe(2);
  });

  it("drops entries by prefix and by predicate", () => {
    const c = new TtlCache<number>(1000, 10);
    c.set("1|x|gifts:5", 1);
    c.set("1|x|status:6", 2);
    c.set("2|y|gifts:5", 3);
    c.deletePrefix("1|");
    expect(c.size).toBe(1);
    c.deleteMatching((k) => k.endsWith(":5"));
    expect(c.size).toBe(0);
  });
});
