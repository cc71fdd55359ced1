import { describe, expect, it } from "vitest";
import { uuidv7, uuidv7Generator } from "./uuidv7";

describe("uuidv7", () => {
  it("is a version 7, variant 1 uuid carrying its millisecond", () => {
    const id = uuidv7Generator()(Date.UTC(2026, 10, 26, 12, 0, 0, 123));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 26, 12, 0, 0, 123));
  });

  it("sorts in the order made, within one millisecond and past the counter's room", () => {
    const make = uuidv7Generator();
    const ms = Date.now();
    const ids = Array.from({ length: 5000 }, () => make(ms));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // Time going backwards (a clock step) keeps the order too.
    const after = make(ms - 10);
    expect(after > ids[ids.length - 1]!).toBe(true);
  });

  it("the app's generator: one after another, each sorts after the one before", () => {
    const ids = Array.from({ length: 100 }, () => uuidv7());
    expect([...ids].sort()).toEqual(ids);
  });
});
