import { describe, expect, it } from "vitest";
import { formatRelative } from "~/components/ui/relative-time";
import { chipColor, collectionTotal, dialogOf, rowChips } from "./bowling-view";

describe("Bowling Bots view helpers", () => {
  it("spec 1 §9 'Regular gift types 11, 12 and 13 with thresholds 50, 200 and 250; an amount at or above its threshold is green, below it red'", () => {
    expect([chipColor(11, 49), chipColor(11, 50), chipColor(12, 199), chipColor(12, 200), chipColor(13, 249), chipColor(13, 250)]).toEqual([
      "red",
      "green",
      "red",
      "green",
      "red",
      "green",
    ]);
    for (const special of [1, 4, 8, 15]) expect(chipColor(special, 0)).toBe("gray");
  });

  it("a row shows regular 11, 12, 13 then special 1, 4, 8, 15; missing types as 0", () => {
    const chips = rowChips([
      { type: 15, name: "Clay", img: "c", amount: 2 },
      { type: 12, name: "GBB", img: "g", amount: 300 },
      { type: 99, name: "Other", img: "o", amount: 5 },
    ]);
    expect(chips.map((c) => [c.type, c.amount, c.color, c.special])).toEqual([
      [11, 0, "red", false],
      [12, 300, "green", false],
      [13, 0, "red", false],
      [1, 0, "gray", true],
      [4, 0, "gray", true],
      [8, 0, "gray", true],
      [15, 2, "gray", true],
    ]);
  });

  it("'N items' sums the collection counts", () => {
    expect(
      collectionTotal([
        { imageUrl: "", count: 2 },
        { imageUrl: "", count: 0 },
        { imageUrl: "", count: 5 },
      ]),
    ).toBe(7);
    expect(collectionTotal(null)).toBe(0);
  });

  it("spec 1 §4 relative time: just now < 60 s, {n}m ago < 1 h, {n}h ago < 24 h, else {n}d ago", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    const ago = (s: number) => formatRelative(new Date(now.getTime() - s * 1000), now);
    expect([ago(59), ago(60), ago(3599), ago(3600), ago(86_399), ago(86_400)]).toEqual(["just now", "1m ago", "59m ago", "1h ago", "23h ago", "1d ago"]);
  });

  it("dialogs come from the URL only with a known dialog and an account", () => {
    expect(dialogOf(new URLSearchParams("dialog=collection&account=1"))).toEqual({ dialog: "collection", account: "1" });
    expect(dialogOf(new URLSearchParams("dialog=gift-rates"))).toBeNull();
    expect(dialogOf(new URLSearchParams("dialog=companion"))).toBeNull();
  });
});
