import { describe, expect, it } from "vitest";
import { commonReason, namesOf, outcomeOf, refreshNotice, type RefreshProgress, type RefreshTexts } from "./refresh-outcome";

/** How a finished bulk refresh is judged and worded (issue 18 item 5; CONVENTIONS rule 17). */

const texts: RefreshTexts = {
  success: "ok",
  failure: "failed",
  noun: "accounts",
  partial: ({ ok, total, failed, names }) => `${ok} of ${total}; ${failed} failed: ${names}`,
};
const done = (p: Partial<RefreshProgress>): RefreshProgress => ({
  running: false,
  done: 3,
  total: 3,
  failed: 0,
  startedAt: "2026-11-23T10:00:00.000Z",
  finishedAt: "2026-11-23T10:01:00.000Z",
  outcome: "success",
  ...p,
});

describe("refresh outcome", () => {
  it("failure only when every account failed; partial when some did or a shared part failed; success otherwise", () => {
    expect(outcomeOf({ total: 3, failed: 3 })).toBe("failure");
    expect(outcomeOf({ total: 3, failed: 1 })).toBe("partial");
    expect(outcomeOf({ total: 3, failed: 0, sharedFailure: true })).toBe("partial");
    expect(outcomeOf({ total: 3, failed: 0 })).toBe("success");
    expect(outcomeOf({ total: 0, failed: 0 })).toBe("success");
  });

  it("names at most five accounts, then how many more; the most common reason", () => {
    const accounts = Array.from({ length: 7 }, (_, i) => ({ accountId: String(i), nick: `n${i}` }));
    expect(namesOf(accounts.slice(0, 2), 2)).toBe("n0, n1");
    expect(namesOf(accounts, 7)).toBe("n0, n1, n2, n3, n4 and 2 more");
    expect(namesOf(accounts.slice(0, 5), 60)).toBe("n0, n1, n2, n3, n4 and 55 more");
    expect(commonReason(["a", "b", "b"])).toBe("b");
    expect(commonReason([])).toBeNull();
  });

  it("the notice: none while running or before any refresh; success; the warning naming them with the reason; the failure with the count and the reason", () => {
    expect(refreshNotice(null, texts)).toBeNull();
    expect(refreshNotice(done({ running: true, outcome: null }), texts)).toBeNull();
    expect(refreshNotice(done({}), texts)).toEqual({ type: "success", message: "ok" });
    expect(refreshNotice(done({ outcome: "partial", failed: 1, failedAccounts: [{ accountId: "1", nick: "bob" }], reason: "why" }), texts)).toEqual({
      type: "warning",
      message: "2 of 3; 1 failed: bob",
      description: "why",
    });
    expect(refreshNotice(done({ outcome: "failure", failed: 3, reason: "why" }), texts)).toEqual({
      type: "error",
      message: "failed",
      description: "All 3 accounts failed: why",
    });
    // The job itself failed (no account counted): the reason alone.
    expect(refreshNotice(done({ outcome: "failure", failed: 0, total: 0, reason: "Redis went away" }), texts)).toEqual({
      type: "error",
      message: "failed",
      description: "Redis went away",
    });
  });
});
