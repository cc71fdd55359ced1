import { describe, expect, it } from "vitest";
import { initialsOf, statusText } from "./account-view";

describe("initialsOf: the same two letters for an account on every screen", () => {
  it("first letters of the first two words (spaces, _, ., - separate), else the first two letters", () => {
    expect(initialsOf("night owl")).toBe("NO");
    expect(initialsOf("ann bowler")).toBe("AB");
    expect(initialsOf("dark_knight")).toBe("DK");
    expect(initialsOf("zed")).toBe("ZE");
    expect(initialsOf("q")).toBe("Q");
    expect(initialsOf("x")).toBe("X");
    expect(initialsOf("  ")).toBe("?");
    expect(initialsOf("ёжик.в_тумане")).toBe("ЁВ");
  });
});

describe("statusText (spec 1 §2 status badge)", () => {
  it("nothing before it is known, then the room, or Online / Offline", () => {
    expect(statusText(null, null)).toBeNull();
    expect(statusText(true, "Bowling*3")).toBe("Bowling*3");
    expect(statusText(true, null)).toBe("Online");
    expect(statusText(false, null)).toBe("Offline");
  });
});
