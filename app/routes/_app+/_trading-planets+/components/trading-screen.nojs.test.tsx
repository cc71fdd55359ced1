import { sessionPhase, type SessionView } from "#api/sessions";
import { Theme } from "@radix-ui/themes";
import { createRemixStub } from "@remix-run/testing";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { Ad, CustomPlanet, PlanetSequence, TraderStatus } from "#api/trading";
import TradingPlanetsRoute from "../trading-planets";

/**
 * The server's HTML (what a browser without JavaScript gets): native checkboxes and selects,
 * move up/down forms, the URL-opened form, dialog and confirmations, the ads' checkboxes.
 */
const sequences: PlanetSequence[] = [
  {
    _id: "11111111-1111-4111-8111-111111111111",
    name: "Morning",
    seconds: 8,
    closedPlanetsLevel: 51,
    openPlanetsLevel: 15,
    isActive: true,
    sequence: [{ id: "a", planetType: "ring", shuffle: true }],
  },
  {
    _id: "22222222-2222-4222-8222-222222222222",
    name: "Evening",
    seconds: 6,
    closedPlanetsLevel: 51,
    openPlanetsLevel: 15,
    isActive: false,
    sequence: [{ id: "b", planetType: "russian", shuffle: false }],
  },
];
const planets: CustomPlanet[] = [{ _id: "33333333-3333-4333-8333-333333333333", name: "Spam Den", type: "blacklisted" }];
const ads: Ad[] = [{ _id: "55555555-5555-4555-8555-555555555555", adsMessage: "WTS ⭐ rings", category: "ads", isActive: true }];

const counts = { visits: 4, posts: 3, replies: 1, skipped: 1, failures: 0, rounds: 0 };
const session = (key: string, over: Partial<SessionView>): SessionView =>
  withPhase({
    purpose: "trader",
    key,
    accountId: key,
    desired: "stop",
    actual: "stopped",
    since: "2026-01-01T00:00:00.000Z",
    error: null,
    note: null,
    attempt: 0,
    nextRetryAt: null,
    holder: null,
    holderAlive: null,
    planet: null,
    info: {},
    ...over,
  });
const withPhase = (v: Omit<SessionView, "phase" | "status">): SessionView => ({ ...v, ...sessionPhase(v) });
const traders: TraderStatus[] = [
  {
    ...session("10000001", { desired: "run", actual: "active", planet: "Cannon*4", holder: "w1", info: { step: "on_planet" } }),
    accountId: "10000001",
    nick: "Seller",
    state: "on_planet",
    counts,
    at: { sequenceId: "seq0", sequence: "Morning", step: 2, steps: 3, planetType: "cannon", planet: 4, planets: 12 },
  },
  { ...session("10000002", {}), accountId: "10000002", nick: "Idler", state: "idle", counts: { ...counts, visits: 0 }, at: null },
];

function html(url: string, extra: Record<string, unknown> = {}) {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const errors: unknown[] = [];
  // The memory router of the test stub uses useLayoutEffect, which React warns about on the server: only that is dropped.
  const err = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => {
    if (!String(a[0]).includes("useLayoutEffect does nothing on the server")) errors.push(a);
  });
  const Stub = createRemixStub([{ id: "trading", path: "/trading-planets", Component: TradingPlanetsRoute, loader: () => null }]);
  const out = renderToString(
    <Theme>
      <Stub initialEntries={[url]} hydrationData={{ loaderData: { trading: { sequences, planets, ads, traders, loadError: null, ...extra } } }} />
    </Theme>,
  );
  warn.mockRestore();
  err.mockRestore();
  expect(errors).toEqual([]);
  return out;
}

describe("Trading Planets without JavaScript (server HTML)", () => {
  it("issue 11 'The trading run': each trading character with its state beside the sequences and a Start/Stop POST form", () => {
    const out = html("/trading-planets");
    expect(out).toContain("Trading run");
    expect(out).toMatch(/data-testid="trader-state"[^>]*>on planet Cannon\*4</);
    expect(out).toMatch(/data-testid="trader-state"[^>]*>idle</);
    expect(out).toContain("3 posts · 4 visits · 1 reply");
    // Issue 30 A7: which sequence and step the run is on (the stopped one says nothing of it).
    expect(out).toMatch(/data-testid="trader-at"[^>]*>Sequence “Morning” · step 2 of 3 \(cannon\) · planet 4 of 12</);
    expect(out.match(/data-testid="trader-at"/g)).toHaveLength(1);
    expect(out).toMatch(
      /<form method="post" action="\/trading-planets"[^>]*>(?:(?!<\/form>).)*name="intent" value="trader-stop"(?:(?!<\/form>).)*value="10000001"/s,
    );
    expect(out).toMatch(/name="intent" value="trader-start"(?:(?!<\/form>).)*value="10000002"/s);
  });

  it("has move up/down forms (first up and last down disabled) and no drag handles", () => {
    const out = html("/trading-planets");
    // Named "Move Morning down" from the card's name (issue 20: the name is in the markup once).
    const morning = "seq0";
    const evening = "seq1";
    expect(out).toContain(`id="${morning}-name">Morning</strong>`);
    expect(out).toContain(`aria-labelledby="${morning}-move-down ${morning}-name ${morning}-move-down-dir"`);
    expect(out).toContain(`<span hidden="" id="${morning}-move-down-dir">down</span>`);
    expect(out).toContain(`aria-labelledby="${evening}-move-up ${evening}-name ${evening}-move-up-dir"`);
    expect(out).toMatch(new RegExp(`<button type="submit" name="direction" value="up" disabled=""[^>]*id="${morning}-move-up"`));
    expect(out).toMatch(new RegExp(`<button type="submit" name="direction" value="down" disabled=""[^>]*id="${evening}-move-down"`));
    expect(out).not.toMatch(new RegExp(`<button type="submit" name="direction" value="down" disabled=""[^>]*id="${morning}-move-down"`));
    // Issue 20 "one form per action bar": up and down are two submit buttons of one form (the pressed one posts its direction).
    const moveForm = out.match(new RegExp(`<form[^>]*>(?:(?!</form>).)*id="${morning}-move-up"(?:(?!</form>).)*</form>`, "s"))?.[0] ?? "";
    expect(moveForm).toContain(`id="${morning}-move-down"`);
    expect(moveForm.match(/name="intent" value="sequence-move"/g)).toHaveLength(1);
    expect(out.split(">Morning<")).toHaveLength(2);
    expect(out).not.toContain("Drag");
    expect(out).toContain('value="sequence-move"');
  });

  it("the sequence form opened by the URL has native checkboxes and a native planet type select with entry counts", () => {
    const out = html("/trading-planets?sequence=11111111-1111-4111-8111-111111111111");
    expect(out).toContain("Edit Sequence");
    expect(out).toContain('<select name="planetType"');
    expect(out).toContain("ring (15)");
    expect(out).toContain("russian (0)");
    expect(out.match(/<input[^>]*shuffle-a[^>]*>/)?.[0]).toBe('<input type="checkbox" name="shuffle-a" checked="" value="on"/>');
    expect(out).toContain('name="op" value="add"');
  });

  it("the Custom Planets dialog and its “Delete Planet” confirmation come from the URL", () => {
    const out = html("/trading-planets?planets=blacklisted&confirm=planet:33333333-3333-4333-8333-333333333333");
    expect(out).toContain("Custom Planets");
    expect(out).toContain("Delete Planet");
    expect(out).toContain("Are you sure you want to delete “Spam Den”?");
  });

  it("issue 30 A6 (decision 0047): the new-ad form posts to the page with its own id as the fragment, so a refusal opens at it", () => {
    const out = html("/trading-planets");
    expect(out).toMatch(/<form method="post" action="\/trading-planets#gt-ad-new"[^>]* id="gt-ad-new"/);
  });

  it("issue 20 'Light rows': an ad's text is in the row once; active and delete are one form whose submit buttons say which", () => {
    const out = html("/trading-planets");
    expect(out.split("WTS ⭐ rings")).toHaveLength(2);
    const row = out.match(/<li class="rt-reset rt-BaseCard rt-Card[^"]*gt-ad[^"]*" data-testid="ad"[^>]*>.*?<\/li>/s)?.[0] ?? "";
    expect(row.match(/<form /g)).toHaveLength(1);
    expect(row).toMatch(/<form method="post" action="\/trading-planets"/);
    expect(row).toContain('name="intent" value="ad-active"');
    expect(row).toContain(">Deactivate</button>");
    expect(row).toContain('name="intent" value="ad-delete"');
    expect(row).toContain('name="isActive" value="false"');
    expect(row).toContain('name="redirectTo" value="/trading-planets"');
    const id = "ad0";
    expect(row).toContain(`aria-labelledby="${id}-delete ${id}-text"`);
    expect(row).toContain(`id="${id}-edit" aria-labelledby="${id}-edit ${id}-text"`);
    expect(row).toContain('href="/trading-planets?ad=55555555-5555-4555-8555-555555555555">Edit</a>');
  });

  it("issue 20 'Bounded pages': plain links to the other pages of each list, keeping the rest of the URL", () => {
    const page = (p: number, pages: number, total: number, per: number) => ({ page: p, pages, total, per });
    const out = html("/trading-planets?adsPage=2&select=1", { pages: { sequences: page(1, 3, 60, 25), ads: page(2, 3, 120, 50), msg: page(1, 1, 3, 50) } });
    expect(out).toMatch(
      /<nav class="gt-pager" aria-label="Sequence pages">.*?Showing 1–25 of 60 · page 1 of 3.*?href="\/trading-planets\?adsPage=2&amp;select=1&amp;seqPage=2"[^>]*>Next →/s,
    );
    expect(out).toMatch(/<nav class="gt-pager" aria-label="Ads pages"><a [^>]*href="\/trading-planets\?select=1"[^>]*>← Previous<\/a>/);
    expect(out).toMatch(/aria-label="Ads pages">.*?Showing 51–100 of 120 · page 2 of 3.*?href="\/trading-planets\?adsPage=3&amp;select=1"[^>]*>Next →/s);
    expect(out).not.toContain('aria-label="Messages pages"');
  });

  it("select=1 shows the ads' checkboxes and Delete Selected; with ids the “Delete Selected Ads” confirmation posts them", () => {
    const select = html("/trading-planets?select=1");
    expect(select).toContain('form="gt-ads-select"');
    expect(select).toContain("Delete Selected");
    const confirm = html("/trading-planets?select=1&ids=55555555-5555-4555-8555-555555555555");
    expect(confirm).toContain("Delete Selected Ads");
    expect(confirm).toContain("cannot be undone");
    expect(confirm).toContain('value="ads-delete-selected"');
    expect(confirm).toContain('name="ids" value="55555555-5555-4555-8555-555555555555"');
  });
});
