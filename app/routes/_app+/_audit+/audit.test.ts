import { beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "~/models/audit.server";
import { callRoute, createTestOperator, makeRequest, type TestOperator } from "#tests/kit";
import { loader } from "./audit";

/**
 * Issue 28 item 2: the /audit page filters by operator, action and target text from its URL
 * (a GET form: no JavaScript needed) and pages at any depth by cursor, reading one page.
 */
let viewer: TestOperator;
type Loaded = {
  entries: { target: string; operator: string; action: string }[];
  next: string | null;
  prev: string | null;
  problem: string | null;
};

beforeAll(async () => {
  viewer = await createTestOperator({ name: "vic", role: "viewer" });
  const t0 = Date.parse("2026-05-01T00:00:00Z");
  for (let i = 0; i < 120; i++) {
    const who = i % 2 ? { operatorId: null, operator: "(command line)", token: null } : { operatorId: viewer.id, operator: "ana", token: null };
    await recordAudit(
      who,
      { action: i % 3 ? "POST /characters start-stalker" : "POST /api/rates", target: `Nick${i} (${100000 + i})` },
      new Date(t0 + i * 1000),
    );
  }
});

const load = async (query: string) => (await callRoute<Loaded>(loader, makeRequest(`/audit${query}`, { cookie: viewer.cookie }))).data;

describe("/audit", () => {
  it("filters by operator, action and target text from the URL", async () => {
    const byTarget = await load("?target=nick11");
    expect(byTarget.entries.map((e) => e.target)).toEqual([
      "Nick119 (100119)",
      "Nick118 (100118)",
      "Nick117 (100117)",
      "Nick116 (100116)",
      "Nick115 (100115)",
      "Nick114 (100114)",
      "Nick113 (100113)",
      "Nick112 (100112)",
      "Nick111 (100111)",
      "Nick110 (100110)",
      "Nick11 (100011)",
    ]);
    const all = await load("?operator=ana&action=start-stalker&target=(1000");
    expect(all.entries.length).toBeGreaterThan(0);
    for (const e of all.entries) {
      expect(e.operator).toBe("ana");
      expect(e.action).toContain("start-stalker");
      expect(e.target).toContain("(1000");
    }
  });

  it("pages older and newer by cursor links, 50 at a time, every entry once", async () => {
    const seen: string[] = [];
    let page = await load("");
    expect(page.prev).toBeNull();
    expect(page.entries).toHaveLength(50);
    for (;;) {
      seen.push(...page.entries.map((e) => e.target));
      if (!page.next) break;
      page = await load(`?before=${encodeURIComponent(page.next)}`);
    }
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    const back = await load(`?after=${encodeURIComponent(page.prev!)}`);
    expect(back.entries[0]!.target).toBe(seen[50]);
  });

  it("a bad filter is said on the page, not a crash", async () => {
    expect((await load("?before=whenever")).problem).toMatch(/Invalid before/);
  });
});
