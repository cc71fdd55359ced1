import { describe, expect, it } from "vitest";
import { matchesSearch, searchQuery, searchSummary, SEARCH_MAX } from "./list-search";

/** Issue 19 item 14: search by nick or account id, case-insensitively, from `?q=`. */
describe("list search", () => {
  const row = { nick: "BigWhale_7", account_id: "40123456" };

  it("matches a nick case-insensitively and an account id by substring", () => {
    expect(matchesSearch("whale", row)).toBe(true);
    expect(matchesSearch("BIGW", row)).toBe(true);
    expect(matchesSearch("0123", row)).toBe(true);
    expect(matchesSearch("shark", row)).toBe(false);
    expect(matchesSearch("999", row)).toBe(false);
  });

  it("a blank query matches everything", () => {
    expect(matchesSearch("", row)).toBe(true);
    expect(matchesSearch("   ", row)).toBe(true);
  });

  it("reads ?q= trimmed and bounded; a repeated param is no search", () => {
    expect(searchQuery(new URLSearchParams("q=%20whale%20"))).toBe("whale");
    expect(searchQuery(new URLSearchParams("q=a&q=b"))).toBe("");
    expect(searchQuery(new URLSearchParams(""))).toBe("");
    expect(searchQuery(new URLSearchParams(`q=${"x".repeat(500)}`))).toHaveLength(SEARCH_MAX);
  });

  it("says how many of how many match, singular for one", () => {
    expect(searchSummary(1, 1, ["character", "characters"], "ab")).toBe("1 of 1 character matches “ab”");
    expect(searchSummary(2, 10, ["character", "characters"], "ab")).toBe("2 of 10 characters match “ab”");
    expect(searchSummary(0, 10, ["account", "accounts"], "zz")).toBe("0 of 10 accounts match “zz”");
  });
});
