/**
 * All Characters at scale (issue 20 "Bounded pages"; spec 2 §2 "All Characters screen", §4
 * "Gift filter"; issue 19 item 14 search): the loader renders one page of CHARACTERS_PAGE_SIZE
 * rows of the whole ordered list, `?page=` reaches the rest, and the search, the group order
 * and the gift filter's sort are the database's, over every user — not over the shown page.
 */
import { like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { callRoute, createTestOperator, makeRequest } from "#tests/kit";
import { getDb } from "~/db/client.server";
import { appSettings, characterDetails, sessions, users } from "~/db/schema";
import { CHARACTERS_PAGE_SIZE } from "~/models/character-page.server";
import { saveCharacterDetails } from "~/models/character-details.server";
import { loader, type CharacterRow } from "./characters";

type PageData = {
  groups: { group: string; title: string; rows: CharacterRow[] }[];
  totals: { type: number; name: string; amount: number }[];
  query: string;
  userCount: number;
  paging: { page: number; pageCount: number; matched: number; from: number; to: number };
  stalker: { accountId: string; nick: string } | null;
};

let cookie: string;
/** 130 users: 3 stalkers, then 40 each of trading, bowling and suppliers, 7 with no type. */
const FLEET: Array<{ accountId: string; nick: string; type: string | null }> = [];
const pad = (i: number) => String(i).padStart(3, "0");
for (let i = 1; i <= 3; i++) FLEET.push({ accountId: `81000${pad(i)}`, nick: `Watcher ${pad(i)}`, type: "stalker" });
for (const [k, type] of [
  [1, "trading"],
  [2, "bowling"],
  [3, "suppliers"],
] as const) {
  for (let i = 1; i <= 40; i++) FLEET.push({ accountId: `8${k}100${pad(i)}`, nick: `${type} char ${pad(i)}`, type });
}
for (let i = 1; i <= 7; i++) FLEET.push({ accountId: `84100${pad(i)}`, nick: `Nameless ${pad(i)}`, type: i % 2 ? null : "  " });

beforeAll(async () => {
  const op = await createTestOperator({ name: "pagingops" });
  cookie = op.cookie;
  const db = await getDb();
  await db.delete(sessions);
  await db.delete(characterDetails);
  await db.delete(users);
  await db.delete(appSettings).where(like(appSettings.key, "characters.%"));
  // Inserted in reverse, so the order the page shows is the database's ORDER BY, not insertion order.
  await db.insert(users).values([...FLEET].reverse().map((u) => ({ ...u, password: "not-read-by-the-page" })));
  // Gifts for every bowling user (totals over all of them), and the group's last user by nick (on page 2) with the most Clay.
  for (const u of FLEET.filter((f) => f.type === "bowling")) {
    const late = u.nick === "bowling char 040";
    await saveCharacterDetails(u.accountId, {
      gifts: [
        { type: 11, name: "Clay", img: "https://img.example/clay.png", amount: late ? 500 : 1 },
        { type: 4, name: "Silver Ring", img: "https://img.example/ring.png", amount: late ? 0 : 2 },
      ],
    });
  }
});

const page = async (query = "") => {
  const res = await callRoute<PageData>(loader, makeRequest(`/characters${query}`, { cookie }));
  expect(res.status).toBe(200);
  return res.data;
};
const ids = (d: PageData) => d.groups.flatMap((g) => g.rows.map((r) => r.account_id));
const groupOrder = ["stalker", "trading", "bowling", "suppliers", "unknown"];

describe("/characters pages (issue 20 bounded pages)", () => {
  it("the first page holds CHARACTERS_PAGE_SIZE rows in the spec's group order; ?page= reaches every other row exactly once", async () => {
    const first = await page();
    expect(ids(first)).toHaveLength(CHARACTERS_PAGE_SIZE);
    expect(first.paging).toEqual({
      page: 1,
      pageCount: Math.ceil(FLEET.length / CHARACTERS_PAGE_SIZE),
      matched: FLEET.length,
      from: 1,
      to: CHARACTERS_PAGE_SIZE,
    });
    expect(first.userCount).toBe(FLEET.length);
    expect(first.groups.map((g) => g.title)).toEqual(["stalker Characters", "trading Characters", "bowling Characters"]);
    expect(first.groups[0]!.rows.map((r) => r.nick)).toEqual(["Watcher 001", "Watcher 002", "Watcher 003"]);

    const seen: string[] = [];
    const groupsInOrder: string[] = [];
    for (let p = 1; p <= first.paging.pageCount; p++) {
      const d = await page(`?page=${p}`);
      expect(d.paging.page).toBe(p);
      expect(ids(d).length).toBeLessThanOrEqual(CHARACTERS_PAGE_SIZE);
      seen.push(...ids(d));
      for (const g of d.groups) if (groupsInOrder.at(-1) !== g.group) groupsInOrder.push(g.group);
      // Within a group, by nick (case-insensitively).
      for (const g of d.groups)
        expect(g.rows.map((r) => r.nick)).toEqual([...g.rows.map((r) => r.nick)].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    }
    expect(seen).toHaveLength(FLEET.length);
    expect(new Set(seen)).toEqual(new Set(FLEET.map((u) => u.accountId)));
    // A group cut by a page break continues on the next page; every group appears once, in order.
    expect(groupsInOrder).toEqual(groupOrder);
    // Users without a type (null or blank) are the "unknown" group, last here (alphabetical after "suppliers").
    const last = await page(`?page=${first.paging.pageCount}`);
    expect(last.groups.at(-1)).toMatchObject({ group: "unknown", title: "unknown Characters" });
    expect(last.groups.at(-1)!.rows).toHaveLength(7);
  });

  it("a page past the end shows the last page; a broken ?page= the first", async () => {
    const pages = Math.ceil(FLEET.length / CHARACTERS_PAGE_SIZE);
    expect((await page("?page=999")).paging).toMatchObject({ page: pages, to: FLEET.length });
    expect((await page("?page=abc")).paging.page).toBe(1);
    expect((await page("?page=0")).paging.page).toBe(1);
  });

  it("?q= searches every user in the database: a user on the last page is found, with the count of matches", async () => {
    const first = await page();
    expect(ids(first)).not.toContain("84100007");
    const found = await page("?q=nameLESS%20007");
    expect(ids(found)).toEqual(["84100007"]);
    expect(found.paging).toMatchObject({ page: 1, pageCount: 1, matched: 1 });
    expect(found.userCount).toBe(FLEET.length);
    // By account id (a substring), across groups.
    const byId = await page("?q=100040");
    expect(ids(byId).sort()).toEqual(["81100040", "82100040", "83100040"]);
    expect(byId.groups.map((g) => g.group)).toEqual(["trading", "bowling", "suppliers"]);
    // A search wider than a page pages too.
    const wide = await page("?q=char");
    expect(wide.paging).toMatchObject({ matched: 120, pageCount: Math.ceil(120 / CHARACTERS_PAGE_SIZE) });
    expect(ids(wide)).toHaveLength(CHARACTERS_PAGE_SIZE);
    // LIKE wildcards are plain characters.
    expect(ids(await page("?q=%25"))).toEqual([]);
    expect(ids(await page("?q=_"))).toEqual([]);
  });

  it("§4 gift filter sorts the whole group in the database: a user from page 2 comes first on page 1; totals count every user", async () => {
    // Page 1 ends inside the bowling group (3 stalkers + 40 trading + 7 bowling).
    const bowling = (d: PageData) => d.groups.find((g) => g.group === "bowling")?.rows.map((r) => r.nick) ?? [];
    const plain = await page();
    expect(bowling(plain)).toEqual([
      "bowling char 001",
      "bowling char 002",
      "bowling char 003",
      "bowling char 004",
      "bowling char 005",
      "bowling char 006",
      "bowling char 007",
    ]);
    // Clay alone: the late user has the most, so it leads its group.
    expect(bowling(await page("?gift=11"))[0]).toBe("bowling char 040");
    // Clay and Silver Ring: it has no ring, so it comes after every user with both (the end of page 2).
    const both = await page("?gift=11&gift=4");
    expect(bowling(both)[0]).toBe("bowling char 001");
    expect(bowling(both)).not.toContain("bowling char 040");
    expect(bowling(await page("?gift=11&gift=4&page=2")).at(-1)).toBe("bowling char 040");
    // The group order is kept under a filter.
    expect((await page("?gift=11")).groups.map((g) => g.group)).toEqual(["stalker", "trading", "bowling"]);
    // Totals: all 40 bowling users, whatever page is shown.
    expect(plain.totals.map((t) => [t.type, t.name, t.amount])).toEqual([
      [11, "Clay", 39 + 500],
      [4, "Silver Ring", 39 * 2],
    ]);
    expect((await page("?page=3")).totals).toEqual(plain.totals);
  });

  it("the stalker card follows the first stalker user even on a page without stalkers", async () => {
    expect((await page("?page=2")).stalker).toMatchObject({ accountId: "81000001", nick: "Watcher 001" });
  });
});
