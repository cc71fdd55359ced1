import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { callRoute, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import { action, countText, loader, showingText } from "./logs";

/** System Logs page (spec 2 "Logs page (/logs)"): loader filters from the URL, intents clear and cleanup. */
const DAY = 86_400_000;
type PageData = {
  params: { type?: string; source?: string; showCleared: boolean; auto: boolean; confirmCleanup: boolean };
  logs: { _id: string; message: string; cleared: boolean }[];
  matching: number;
  total: number | null;
  older: string | null;
  newer: string | null;
  retentionDays: number;
};

let cookie: string;
beforeAll(async () => {
  cookie = (await createTestOperator({ name: "logreader", password: "correct horse" })).cookie;
});

let ids: Record<string, string>;
beforeEach(async () => {
  const db = await getDb();
  await db.delete(logs);
  const now = Date.now();
  const rows = await db
    .insert(logs)
    .values([
      { type: "error", source: "galaxyAuth", message: "auth failed", timestamp: new Date(now - 1000) },
      { type: "info", source: "system", message: "started", timestamp: new Date(now - 2000) },
      { type: "debug", source: "bot", message: "cleared one", cleared: true, timestamp: new Date(now - 3000) },
      { type: "disconnect", source: "discord", message: "ancient", timestamp: new Date(now - 30 * DAY) },
    ])
    .returning();
  ids = Object.fromEntries(rows.map((r) => [r.message, r.id]));
});

const page = (query = "", withCookie = true) => callRoute<PageData>(loader, makeRequest(`/logs${query}`, { cookie: withCookie ? cookie : [] }));

const post = <T = unknown>(fields: Record<string, string>, query = "") => callRoute<T>(action, makeRequest(`/logs${query}`, { cookie, form: fields }));

const messages = (d: PageData) => d.logs.map((l) => l.message);

describe("/logs loader", () => {
  it("needs a logged-in operator", async () => {
    const res = await page("", false);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login\?redirectTo=%2Flogs/);
  });

  it("hides cleared entries by default and shows them with showCleared=1", async () => {
    const d = (await page()).data;
    expect(messages(d)).toEqual(["auth failed", "started", "ancient"]);
    // The table's total is only read for an empty page (which empty state to show).
    expect(d).toMatchObject({ matching: 3, total: null, retentionDays: 14 });
    const all = (await page("?showCleared=1")).data;
    expect(messages(all)).toEqual(["auth failed", "started", "cleared one", "ancient"]);
  });

  it("filters by type and source from the URL and ignores unknown values", async () => {
    expect(messages((await page("?type=error")).data)).toEqual(["auth failed"]);
    expect(messages((await page("?source=discord")).data)).toEqual(["ancient"]);
    const none = (await page("?type=info&source=bot")).data;
    expect(none).toMatchObject({ logs: [], matching: 0, total: 4 });
    const lenient = (await page("?type=nonsense&auto=1")).data;
    expect(lenient.params).toMatchObject({ type: undefined, auto: true });
    expect(lenient.logs).toHaveLength(3);
  });
});

describe("/logs loader: search and dates (issue 30 A5)", () => {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  beforeEach(async () => {
    const db = await getDb();
    await db.insert(logs).values([
      {
        type: "info",
        source: "bot",
        message: "Stalker Watcher (51234567) started",
        details: { accountId: "51234567" },
        timestamp: new Date(Date.now() - 4000),
      },
      { type: "info", source: "bot", message: "100% done_ok", timestamp: new Date(Date.now() - 5000) },
    ]);
  });

  it("q= finds words in the message (any case) or the start of an account id; % and _ are plain characters", async () => {
    expect(messages((await page("?q=AUTH")).data)).toEqual(["auth failed"]);
    expect(messages((await page("?q=watcher")).data)).toEqual(["Stalker Watcher (51234567) started"]);
    // By account: the id in the details, from its start.
    expect(messages((await page("?q=5123")).data)).toEqual(["Stalker Watcher (51234567) started"]);
    expect(messages((await page("?q=%25")).data)).toEqual(["100% done_ok"]);
    expect(messages((await page("?q=e_o")).data)).toEqual(["100% done_ok"]);
    const none = (await page("?q=nothing-like-this")).data;
    expect(none).toMatchObject({ logs: [], matching: 0, total: 6 });
    // Bounded: a pasted essay is cut to 100 characters.
    expect((await page(`?q=${"a".repeat(300)}`)).data.params).toMatchObject({ q: "a".repeat(100) });
  });

  it("from= and to= are UTC days, both included; a backwards range means the same days; bad dates are ignored", async () => {
    const today = day(Date.now());
    const monthAgo = day(Date.now() - 30 * DAY);
    expect(messages((await page(`?from=${today}`)).data)).not.toContain("ancient");
    expect(messages((await page(`?to=${monthAgo}`)).data)).toEqual(["ancient"]);
    expect(messages((await page(`?from=${monthAgo}&to=${monthAgo}`)).data)).toEqual(["ancient"]);
    expect((await page(`?from=${today}&to=${monthAgo}`)).data.params).toMatchObject({ from: monthAgo, to: today });
    const bad = (await page("?from=2026-02-30&to=yesterday")).data;
    expect(bad.params).toMatchObject({ from: undefined, to: undefined });
    expect(bad.logs).toHaveLength(5);
  });

  it("jump= (Go to date) answers with the page that starts at the end of that day, keeping the filters", async () => {
    const monthAgo = day(Date.now() - 30 * DAY);
    const res = await page(`?type=disconnect&jump=${monthAgo}`);
    expect(res.status).toBe(302);
    const to = res.headers.get("Location")!;
    const next = new Date(Date.parse(`${monthAgo}T00:00:00Z`) + DAY).toISOString();
    expect(to).toBe(`/logs?type=disconnect&before=${encodeURIComponent(`${next}_00000000-0000-0000-0000-000000000000`)}`);
    expect(messages((await page(to.slice("/logs".length))).data)).toEqual(["ancient"]);
    // A day before every entry: the oldest entries from that day on (an "after" page), not the newest.
    const early = await page("?jump=2020-01-01");
    const there = early.headers.get("Location")!;
    expect(there).toBe(`/logs?after=${encodeURIComponent("2020-01-01T00:00:00.000Z_00000000-0000-0000-0000-000000000000")}`);
    expect(messages((await page(there.slice("/logs".length))).data).at(-1)).toBe("ancient");
  });
});

describe("/logs loader: a page at a time (issue 20)", () => {
  beforeEach(async () => {
    const db = await getDb();
    await db.delete(logs);
    const now = Date.now();
    // 120 open entries, one a second, newest = e120; plus one cleared.
    await db.insert(logs).values([
      ...Array.from({ length: 120 }, (_, i) => ({
        type: "error" as const,
        source: "system" as const,
        message: `e${i + 1}`,
        timestamp: new Date(now - (120 - i) * 1000),
      })),
      { type: "info", source: "bot", message: "gone", cleared: true, timestamp: new Date(now) },
    ]);
  });

  it("renders 50 entries, says how many match, and links the older ones; Older and Newer walk every entry once", async () => {
    const first = (await page()).data;
    expect(first.logs).toHaveLength(50);
    expect(messages(first)[0]).toBe("e120");
    expect(first).toMatchObject({ matching: 120, total: null, newer: null });
    expect(first.older).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z_[0-9a-f-]{36}$/);

    const second = (await page(`?before=${encodeURIComponent(first.older!)}`)).data;
    expect(messages(second)).toEqual(Array.from({ length: 50 }, (_, i) => `e${70 - i}`));
    expect(second.newer).not.toBeNull();
    const third = (await page(`?before=${encodeURIComponent(second.older!)}`)).data;
    expect(messages(third)).toEqual(Array.from({ length: 20 }, (_, i) => `e${20 - i}`));
    expect(third.older).toBeNull();

    const back = (await page(`?after=${encodeURIComponent(third.newer!)}`)).data;
    expect(messages(back)).toEqual(messages(second));
    const top = (await page(`?after=${encodeURIComponent(back.newer!)}`)).data;
    expect(messages(top)).toEqual(messages(first));
    expect(top.newer).toBeNull();
  });

  it("says how many it shows of how many match, capped counts as '1,000+'", () => {
    expect(countText(1000, 1000)).toBe("1,000");
    expect(countText(1001, 1000)).toBe("1,000+");
    expect(showingText({ shown: 50, matching: 1001, cap: 1000, paged: false })).toBe("Showing the newest 50 of 1,000+ entries");
    expect(showingText({ shown: 50, matching: 120, cap: 1000, paged: true })).toBe("Showing 50 of 120 entries");
    expect(showingText({ shown: 3, matching: 3, cap: 1000, paged: false })).toBe("3 entries");
    expect(showingText({ shown: 1, matching: 1, cap: 1000, paged: false })).toBe("1 entry");
  });

  it("counts stop at 1,000 (then 1,001: '1,000+'), never reading the whole table", async () => {
    const db = await getDb();
    const now = Date.now();
    await db
      .insert(logs)
      .values(
        Array.from({ length: 900 }, (_, i) => ({ type: "info" as const, source: "bot" as const, message: `more${i}`, timestamp: new Date(now - 500_000 - i) })),
      );
    const d = (await page()).data;
    expect(d.matching).toBe(1001);
    expect(d.logs).toHaveLength(50);
    expect((await page("?type=error")).data.matching).toBe(120);
  });

  it("keeps filters across pages; a broken or stale cursor opens the newest page", async () => {
    const first = (await page("?showCleared=1")).data;
    expect(messages(first)[0]).toBe("gone");
    expect((await page("?before=nonsense")).data.logs[0]!.message).toBe("e120");
    // Older than the oldest entry: nothing there any more, so the newest page instead.
    const stale = (await page(`?before=${encodeURIComponent("2000-01-01T00:00:00.000000Z_3f1c0a52-7d7e-4c1a-9a53-2b9b7c0e8f11")}`)).data;
    expect(stale.logs[0]!.message).toBe("e120");
    expect(stale.logs).toHaveLength(50);
  });

  it("clear without JavaScript from an older page comes back to that page", async () => {
    const first = (await page()).data;
    const here = `/logs?before=${encodeURIComponent(first.older!)}`;
    const res = await post({ intent: "clear", id: (await page(`?before=${encodeURIComponent(first.older!)}`)).data.logs[0]!._id, redirectTo: here });
    expect(res.headers.get("Location")).toBe(here);
    expect(messages((await page(`?before=${encodeURIComponent(first.older!)}`)).data)[0]).toBe("e69");
  });
});

describe("/logs action", () => {
  it("clear from a fetcher answers data; the entry is then cleared", async () => {
    const res = await post<{ ok: boolean }>({ intent: "clear", id: ids["started"]! }, "?type=info");
    expect(res.data).toEqual({ ok: true });
    const d = (await page("?showCleared=1")).data;
    expect(d.logs.find((l) => l.message === "started")?.cleared).toBe(true);
  });

  it("clear without JavaScript redirects back to the page it came from", async () => {
    const res = await post({ intent: "clear", id: ids["auth failed"]!, redirectTo: "/logs?type=error" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/logs?type=error");
    // Issue 30 B5: it says what it did.
    expect(toastOf(res)).toMatchObject({ type: "success", message: "Log entry cleared" });
    // An entry already gone: back quietly (spec 2 §8 Logs: no user message).
    const gone = await post({ intent: "clear", id: "3f1c0a52-7d7e-4c1a-9a53-2b9b7c0e8f11", redirectTo: "/logs?type=error" });
    expect(gone.headers.get("Location")).toBe("/logs?type=error");
    expect(toastOf(gone)).toBeUndefined();
    // A foreign redirect target never leaves the site.
    const evil = await post({ intent: "clear", id: ids["started"]!, redirectTo: "https://evil.example/" });
    expect(evil.headers.get("Location")).toBe("/logs");
  });

  it("clear of an entry that is gone answers 404 quietly (spec 2 §8 Logs: no user message)", async () => {
    const res = await post<{ ok: boolean }>({ intent: "clear", id: "3f1c0a52-7d7e-4c1a-9a53-2b9b7c0e8f11" });
    expect(res.data).toEqual({ ok: false });
    expect(res.status).toBe(404);
    expect((await post({ intent: "clear", id: "x" })).status).toBe(404);
  });

  it("cleanup deletes cleared and old entries and redirects with a count toast, keeping filters", async () => {
    const res = await post({ intent: "cleanup" }, "?type=error&confirm=cleanup&auto=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/logs?type=error&auto=1");
    expect(toastOf(res)).toMatchObject({ type: "success", message: "Deleted 2 log entries" });
    const d = (await page("?showCleared=1")).data;
    expect(messages(d)).toEqual(["auth failed", "started"]);
  });

  it("refuses an unknown intent with 400", async () => {
    const res = await post({ intent: "explode" });
    expect(res.status).toBe(400);
  });
});
