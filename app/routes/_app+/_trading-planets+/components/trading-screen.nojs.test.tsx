import type { SessionView } from "#api/sessions";
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
const session = (key: string, over: Partial<SessionView>): SessionView => ({
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
const traders: TraderStatus[] = [
  {
    ...session("10000001", { desired: "run", actual: "active", planet: "Cannon*4", holder: "w1", info: { step: "on_planet" } }),
    accountId: "10000001",
    nick: "Seller",
    state: "on_planet",
    counts,
  },
  { ...session("10000002", {}), accountId: "10000002", nick: "Idler", state: "idle", counts: { ...counts, visits: 0 } },
];

function html(url: string) {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const errors: unknown[] = [];
  // The memory router of the test stub uses useLayoutEffect, which React warns about on the server: only that is dropped.
  const err = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => {
    if (!String(a[0]).includes("useLayoutEffect does nothing on the server")) errors.push(a);
  });
  const Stub = createRemixStub([{ id: "trading", path: "/trading-planets", Component: TradingPlanetsRoute, loader: () => null }]);
  const out = renderToString(
    <Theme>
      <Stub initialEntries={[url]} hydrationData={{ loaderData: { trading: { sequences, planets, ads, traders, loadError: null } } }} />
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
    expect(out).toMatch(
      /<form method="post" action="\/trading-planets"[^>]*>(?:(?!<\/form>).)*name="intent" value="trader-stop"(?:(?!<\/form>).)*value="10000001"/s,
    );
    expect(out).toMatch(/name="intent" value="trader-start"(?:(?!<\/form>).)*value="10000002"/s);
  });

  it("has move up/down forms (first up and last down disabled) and no drag handles", () => {
    const out = html("/trading-planets");
    expect(out).toContain('aria-label="Move Morning down"');
    expect(out).toContain('aria-label="Move Evening up"');
    expect(out).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Move Morning up"|<button[^>]*aria-label="Move Morning up"[^>]*disabled=""/);
    expect(out).not.toContain("Drag Morning");
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
