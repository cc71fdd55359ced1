import { describe, expect, it } from "vitest";
import { lazyModule } from "./lazy-module";

describe("lazyModule: load once, tell subscribers, retry after a failure", () => {
  it("loads once however often it is started, and notifies every subscriber", async () => {
    let calls = 0;
    const lazy = lazyModule(async () => ++calls);
    let notified = 0;
    const off = lazy.subscribe(() => notified++);
    expect(lazy.get()).toBeUndefined();
    lazy.start();
    lazy.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(lazy.get()).toBe(1);
    expect(calls).toBe(1);
    expect(notified).toBe(1);
    off();
    lazy.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toBe(1);
  });

  it("a failed load is forgotten: the next start tries again; until then the initial value stands", async () => {
    let fail = true;
    const lazy = lazyModule(async () => {
      if (fail) throw new Error("offline");
      return "loaded";
    }, "initial");
    lazy.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(lazy.get()).toBe("initial");
    fail = false;
    lazy.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(lazy.get()).toBe("loaded");
  });
});
