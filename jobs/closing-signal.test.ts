/**
 * The worker pool's `closing` signal (jobs/closing.server.ts) is watched by every platform call
 * in flight: a refresh of N characters has 2·N calls waiting on it at once. Node's default limit
 * of 10 listeners printed "MaxListenersExceededWarning: Possible EventTarget memory leak
 * detected. 11 abort listeners added to [AbortSignal]" in the demo's log on a refresh of its
 * characters, though each call removes its listener when it settles.
 */
import { describe, expect, it } from "vitest";
import { closingController } from "./closing.server";

describe("the pool's closing signal", () => {
  it("takes one listener per call in flight (400 here) without a leak warning, and still reaches each one", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => void warnings.push(w);
    process.on("warning", onWarning);
    try {
      const closing = closingController();
      let reached = 0;
      for (let i = 0; i < 400; i++) closing.signal.addEventListener("abort", () => reached++, { once: true });
      // Node emits the warning on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
      closing.abort(new Error("closing"));
      expect(reached).toBe(400);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
