/**
 * The services' answers → our DTOs, from fixtures (no network). The fixtures have the shapes
 * docs/galaxy-services.md lists: documented ones as public clients saw them (reference §7.2),
 * the configured ones as DEFAULT_SERVICES_CONFIG assumes them. The HTTP side (and the same
 * mapping against the simulator) is services.server.test.ts.
 */
import { describe, expect, it } from "vitest";
import { buildServicesConfig, DEFAULT_SERVICES_CONFIG as D } from "./services-config";
import {
  GalaxyServiceError,
  isGiftConfirmed,
  parseCollectionStats,
  parseDailyStats,
  parseGiftStats,
  parseInventoryPage,
  parseJsonBody,
  parseMastic,
  parseSearch,
  parseStatus,
  parseUserPics,
  pictureOf,
} from "./services-parse";

const { userPics, sendGifts, search } = D.documented;
const { giftStats, onlineStatus, collectionStats, mastic, dailyStats } = D.undocumented;

/** Runs `fn` and returns the GalaxyServiceError it throws. */
function formatError(fn: () => unknown): GalaxyServiceError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GalaxyServiceError);
    return e as GalaxyServiceError;
  }
  throw new Error("expected a GalaxyServiceError");
}

describe("parseJsonBody", () => {
  it("parses JSON and reports anything else as a format error of the action", () => {
    expect(parseJsonBody('{"a":1}', "x_ajax")).toEqual({ a: 1 });
    const err = formatError(() => parseJsonBody("<html>login</html>", "user_status_ajax", 200));
    expect(err).toMatchObject({ kind: "format", action: "user_status_ajax", status: 200, message: "The user_status_ajax answer is not JSON" });
  });
});

describe("user pictures (user_pics_ajax)", () => {
  const answer = {
    "101": { big: "https://img/101-big.jpg", small: "https://img/101-small.jpg" },
    "102": "https://img/102.jpg",
    "103": { big: "", small: "https://img/103-small.jpg" },
    "104": {},
  };

  it("takes the picture at the configured position, then the first URL; every id gets an entry", () => {
    expect(parseUserPics(answer, ["101", "102", "103", "104", "999"], userPics)).toEqual({
      "101": "https://img/101-big.jpg",
      "102": "https://img/102.jpg",
      "103": "https://img/103-small.jpg",
      "104": null,
      "999": null,
    });
  });

  it("a named field wins over the position; a position past the end falls back to the first URL", () => {
    expect(pictureOf(answer["101"], { ...userPics, pictureField: "small" })).toBe("https://img/101-small.jpg");
    expect(pictureOf(answer["101"], { ...userPics, picturePosition: 1 })).toBe("https://img/101-small.jpg");
    expect(pictureOf(answer["101"], { ...userPics, picturePosition: 5 })).toBe("https://img/101-big.jpg");
    expect(pictureOf("", userPics)).toBeNull();
    expect(pictureOf(null, userPics)).toBeNull();
  });

  it("the official client's shape: sizes keyed by number, the default takes size 2 (its templates read `avatars.2`)", () => {
    // JS orders integer keys ascending, so "position 0" alone would take the smallest size.
    const real = {
      "101": { "1": "https://img/101-s1.png", "2": "https://img/101-s2.png", "3": "https://img/101-s3.png" },
      "102": { "1": "https://img/102-s1.png" },
    };
    expect(parseUserPics(real, ["101", "102"], userPics)).toEqual({ "101": "https://img/101-s2.png", "102": "https://img/102-s1.png" });
  });
});

describe("inventory (show_inventory HTML) and sending gifts (present_make)", () => {
  it("parses inventory pages written like the reference describes", () => {
    const html = `<div class="s__item"><a href="?a=x&goodID=42"><img src="/a.png"></a><div class="s__name">Gold &amp; Ring</div></div>
      <div class="s__item other"><a href="?goodID=43">x</a><div class="s__name">Clay</div></div>
      <div class="s__item"><div class="s__name">no link, skipped</div></div>
      <div class="s__pages__counter"> 2 / 5 </div>`;
    expect(parseInventoryPage(html)).toEqual({
      items: [
        { goodId: "42", name: "Gold & Ring", img: "/a.png" },
        { goodId: "43", name: "Clay", img: null },
      ],
      page: 2,
      pages: 5,
    });
  });

  it("a page without items or counter is page 1 of 1", () => {
    expect(parseInventoryPage("<p>Your inventory is empty</p>")).toEqual({ items: [], page: 1, pages: 1 });
  });

  it("an answer confirms a send only through a configured successPattern; by default none (the real answer is unknown)", () => {
    expect(isGiftConfirmed('<div class="s__present__ok">Sent!</div>', sendGifts)).toBe(false);
    const configured = { ...sendGifts, successPattern: "s__present__(ok|success)" };
    expect(isGiftConfirmed('<div class="s__present__ok">Sent!</div>', configured)).toBe(true);
    expect(isGiftConfirmed('<div class="S__PRESENT__SUCCESS">', configured)).toBe(true);
    expect(isGiftConfirmed('<div class="s__error">Not enough gifts</div>', configured)).toBe(false);
  });
});

describe("search (search_ajax)", () => {
  it("maps matches and skips entries without an id; no list means no matches", () => {
    const answer = {
      searchResult: {
        initialMatchList: [
          { userId: 12345678, userNickData: { nick: "Alice" }, lastOnline: "today" },
          { userId: "23456789", userNickData: {}, lastOnline: null },
          { userNickData: { nick: "ghost" } },
        ],
      },
    };
    expect(parseSearch(answer, search)).toEqual([
      { userId: "12345678", nick: "Alice", lastOnline: "today" },
      { userId: "23456789", nick: "", lastOnline: null },
    ]);
    expect(parseSearch({ searchResult: {} }, search)).toEqual([]);
  });
});

describe("gift stats", () => {
  it("maps type, name, img, amount (numbers as text too) and skips entries without a type", () => {
    const answer = {
      gifts: [
        { type: 11, name: "Red Bowling Ball", img: "/g/11.png", amount: 52 },
        { type: "12", name: "Green Bowling Ball", img: "/g/12.png", amount: "198" },
        { type: 13, name: "Electric Bowling Ball" },
        { name: "no type" },
      ],
    };
    expect(parseGiftStats(answer, giftStats)).toEqual([
      { type: 11, name: "Red Bowling Ball", img: "/g/11.png", amount: 52 },
      { type: 12, name: "Green Bowling Ball", img: "/g/12.png", amount: 198 },
      { type: 13, name: "Electric Bowling Ball", img: "", amount: 0 },
    ]);
  });

  it("follows a renamed configuration (the docs' user_gifts_stat example)", () => {
    const c = buildServicesConfig({
      undocumented: { giftStats: { action: "user_gifts_stat", response: { listPath: "list", type: "id", name: "title", img: "pic", amount: "count" } } },
    }).undocumented.giftStats;
    expect(parseGiftStats({ list: [{ id: 4, title: "Skeleton Key", pic: "/k.png", count: 3 }] }, c)).toEqual([
      { type: 4, name: "Skeleton Key", img: "/k.png", amount: 3 },
    ]);
  });

  it("an answer without the list is a format error", () => {
    expect(formatError(() => parseGiftStats({ error: "no" }, giftStats))).toMatchObject({ kind: "format", action: "gift_stats_ajax" });
  });
});

describe("online status", () => {
  it("reads online flags in the platform's spellings; the room only while online", () => {
    expect(parseStatus({ online: 1, planet: "Cannon*3" }, onlineStatus)).toEqual({ isOnline: true, room: "Cannon*3" });
    expect(parseStatus({ online: "true", planet: "" }, onlineStatus)).toEqual({ isOnline: true, room: null });
    expect(parseStatus({ online: "online" }, onlineStatus)).toEqual({ isOnline: true, room: null });
    expect(parseStatus({ online: 0, planet: "Cannon*3" }, onlineStatus)).toEqual({ isOnline: false, room: null });
    expect(parseStatus({}, onlineStatus)).toEqual({ isOnline: false, room: null });
  });

  it("an answer that is no object is a format error", () => {
    expect(formatError(() => parseStatus("offline", onlineStatus))).toMatchObject({ kind: "format", action: "user_status_ajax" });
    expect(formatError(() => parseStatus(null, onlineStatus)).kind).toBe("format");
  });
});

describe("collection stats", () => {
  it("maps both rows; counts become text, missing ids null", () => {
    const answer = {
      collection: {
        firstRow: [
          { index: 0, goodsID: 9001, imageUrl: "/c/0.png", count: 2 },
          { index: "1", goodsID: "9002", imageUrl: "/c/1.png", count: "0" },
        ],
        secondRow: [{ imageUrl: "/c/8.png" }],
      },
    };
    expect(parseCollectionStats(answer, collectionStats)).toEqual({
      firstRow: [
        { index: 0, goodsID: 9001, imageUrl: "/c/0.png", count: "2" },
        { index: 1, goodsID: 9002, imageUrl: "/c/1.png", count: "0" },
      ],
      secondRow: [{ index: null, goodsID: null, imageUrl: "/c/8.png", count: "0" }],
    });
  });

  it("a missing row is a format error", () => {
    expect(formatError(() => parseCollectionStats({ collection: { firstRow: [] } }, collectionStats))).toMatchObject({
      kind: "format",
      action: "collection_stats_ajax",
      message: "Collection answer has no rows",
    });
  });
});

describe("mastic", () => {
  it("reads success and message", () => {
    expect(parseMastic({ success: true, message: "Added" }, mastic)).toEqual({ success: true, message: "Added" });
    expect(parseMastic({ success: 0 }, mastic)).toEqual({ success: false, message: null });
  });
});

describe("daily stats", () => {
  it("maps days oldest first with numeric counts, skipping entries without a date and non-numbers", () => {
    const answer = {
      days: [
        { date: "2025-03-02", awards: { "11": 3 }, spent: { "12": "2", bad: "x" } },
        { date: "2025-03-01", awards: {}, spent: [] },
        { awards: { "11": 1 } },
      ],
    };
    expect(parseDailyStats(answer, dailyStats)).toEqual([
      { date: "2025-03-01", awards: {}, spent: {} },
      { date: "2025-03-02", awards: { "11": 3 }, spent: { "12": 2 } },
    ]);
  });

  it("an answer without the list is a format error", () => {
    expect(formatError(() => parseDailyStats({}, dailyStats))).toMatchObject({ kind: "format", action: "bowling_daily_ajax" });
  });
});
