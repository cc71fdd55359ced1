import { describe, expect, test } from "vitest";
import { findGift, GIFT_IMAGE_HOST, GIFT_NAMES, GIFTS, giftMatches, giftOrder, isCatalogueGift } from "./gifts";

describe('spec 1 §3 "Gift catalogue entry"', () => {
  test("15 entries in the spec's order, with the spec's nicks", () => {
    expect(GIFTS.map((g) => [g.name, g.nick])).toEqual([
      ["Fire Cannon Ball", "FCB"],
      ["Green Light", "GL"],
      ["Explosive Cannon Ball", "ECB"],
      ["Gold Cannon Ball", "GCB"],
      ["Electric Bowling Ball", "EBB"],
      ["Red Bowling Ball", "RBB"],
      ["Green Bowling Ball", "GBB"],
      ["Silver Ring", "SR"],
      ["Gold Ring", "GR"],
      ["Bronze Ring", "BR"],
      ["Diamond Skeleton Key", "dkey"],
      ["Skeleton Key", "skey"],
      ["Collection Hungry Tomcat", "Hungry Tomcat"],
      ["Collection Capybara", "Capy"],
      ["Clay", "Clay"],
    ]);
    expect(GIFT_NAMES).toHaveLength(15);
    expect(giftOrder("Clay")).toBe(14);
    expect(giftOrder("Nope")).toBe(15);
  });

  test("every entry has an image URL on the external host, one per gift", () => {
    for (const g of GIFTS) expect(g.imgUrl.startsWith(`${GIFT_IMAGE_HOST}/`)).toBe(true);
    expect(new Set(GIFTS.map((g) => g.imgUrl)).size).toBe(15);
    expect(findGift("Fire Cannon Ball")?.imgUrl).toBe(`${GIFT_IMAGE_HOST}/img/gifts/fire-cannon-ball.png`);
  });

  test("lookup is by exact full name: not by nick, case or padding", () => {
    expect(findGift("Gold Ring")?.nick).toBe("GR");
    expect(findGift("GR")).toBeUndefined();
    expect(findGift("gold ring")).toBeUndefined();
    expect(findGift(" Gold Ring")).toBeUndefined();
    expect(findGift("Gold")).toBeUndefined();
    expect(findGift(undefined)).toBeUndefined();
    expect(isCatalogueGift("Collection Capybara")).toBe(true);
    expect(isCatalogueGift("Capy")).toBe(false);
  });
});

describe('spec 1 §2 "Exchange Rates section": filters match name or nick, case-insensitive substring', () => {
  test("matches", () => {
    expect(giftMatches("Fire Cannon Ball", "cannon")).toBe(true);
    expect(giftMatches("Fire Cannon Ball", "fcb")).toBe(true);
    expect(giftMatches("Collection Capybara", "CAPY")).toBe(true);
    expect(giftMatches("Diamond Skeleton Key", "dke")).toBe(true);
    expect(giftMatches("Gold Ring", "")).toBe(true);
  });
  test("does not match", () => {
    expect(giftMatches("Fire Cannon Ball", "ring")).toBe(false);
    expect(giftMatches("Gold Ring", "skey")).toBe(false);
  });
});
