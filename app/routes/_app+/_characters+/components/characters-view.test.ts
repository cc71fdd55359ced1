import { describe, expect, it } from "vitest";
import { dialogOf, giftLabel, giftSelection, sortByGiftFilter, toggleGiftSearch, type GiftCell } from "./characters-view";
import { groupRows } from "./group-rows";

const g = (type: number, amount: number): GiftCell => ({ type, name: `G${type}`, img: "", amount });

describe("spec 2 §2 groups '{group} Characters': stalker, trading, bowling first, then alphabetical", () => {
  it("orders groups and puts users without a type in 'unknown'", () => {
    const rows = [
      { id: 1, type: "suppliers" },
      { id: 2, type: "bowling" },
      { id: 3, type: null },
      { id: 4, type: "stalker" },
      { id: 5, type: "recipients" },
      { id: 6, type: "trading" },
      { id: 7, type: "bowling" },
    ];
    const groups = groupRows(rows);
    expect(groups.map((x) => x.title)).toEqual([
      "stalker Characters",
      "trading Characters",
      "bowling Characters",
      "recipients Characters",
      "suppliers Characters",
      "unknown Characters",
    ]);
    expect(groups[2]!.rows.map((r) => r.id)).toEqual([2, 7]);
  });
});

describe("spec 2 §4 gift filter sort", () => {
  const users = [
    { nick: "a", gifts: [g(1, 5), g(4, 0)] },
    { nick: "b", gifts: [g(1, 2), g(4, 3)] },
    { nick: "c", gifts: [g(1, 50)] },
    { nick: "d", gifts: null },
    { nick: "e", gifts: [g(1, 1), g(4, 10)] },
  ];
  const sort = (selected: number[]) => sortByGiftFilter(users, (u) => u.gifts, selected).map((u) => u.nick);

  it("users with every selected gift type above zero come first, then by summed amount, descending", () => {
    expect(sort([1, 4])).toEqual(["e", "b", "c", "a", "d"]);
  });
  it("one selected type: by its amount, users without it last", () => {
    expect(sort([4])).toEqual(["e", "b", "a", "c", "d"]);
  });
  it("no selection keeps the given order", () => {
    expect(sort([])).toEqual(["a", "b", "c", "d", "e"]);
  });
});

describe("the URL gift selection", () => {
  it("reads ?gift= repeated, ignores junk and duplicates; toggling keeps other parameters", () => {
    expect(giftSelection(new URLSearchParams("gift=4&gift=x&gift=4&gift=11&gift=-1"))).toEqual([4, 11]);
    expect(toggleGiftSearch(new URLSearchParams("dialog=user&gift=4"), 11)).toBe("?dialog=user&gift=4&gift=11");
    expect(toggleGiftSearch(new URLSearchParams("gift=4"), 4)).toBe("");
  });
});

describe("no-JavaScript dialogs from the URL", () => {
  it("?dialog=user|category open ours; anything else (gift-rates is the Summary panel's) none", () => {
    expect(dialogOf(new URLSearchParams("dialog=user"))).toBe("user");
    expect(dialogOf(new URLSearchParams("dialog=category&gift=4"))).toBe("category");
    expect(dialogOf(new URLSearchParams("dialog=gift-rates"))).toBeNull();
    expect(dialogOf(new URLSearchParams(""))).toBeNull();
  });
});

describe("issue 19 item 12: gift tiles carry a name, not only a colour", () => {
  it("the catalogue nick for a known gift, else the initials of the name", () => {
    expect(giftLabel({ name: "Fire Cannon Ball" })).toBe("FCB");
    expect(giftLabel({ name: "Skeleton Key" })).toBe("skey");
    expect(giftLabel({ name: "Clay" })).toBe("Clay");
    expect(giftLabel({ name: "Purple Moon Ball" })).toBe("PMB");
    expect(giftLabel({ name: "Gift" })).toBe("Gift");
  });
});
