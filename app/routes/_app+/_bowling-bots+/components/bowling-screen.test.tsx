// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RefreshStatus } from "~/components/ui/refresh-outcome";
import { renderRemixStub } from "../../../../../tests/kit/component";
import type { BowlingData, BowlingRow } from "../gifts";
import { BowlingRowView, GIFTS_NOT_LOADED, type RowContext } from "./bowling-row";
import { BowlingScreen } from "./bowling-screen";
import { CompanionDialog } from "./companion-dialog";
import { RefreshControl } from "./refresh-control";

// The Summary panel has its own tests (app/components/summary); importing it with the whole screen
// here fails to resolve ~/data/gifts under happy-dom, so the screen renders without it.
vi.mock("~/components/summary/summary-panel", () => ({ SUMMARY_EXPAND_PARAM: "summary", SummaryPanel: () => null }));

/** Spec 1 §2 header refresh control, companion dialog and rows, §4 refresh states, in a Remix stub (happy-dom). */
afterEach(cleanup);

type Progress = Parameters<typeof RefreshControl>[0]["progress"];
const progress = (p: Partial<NonNullable<Progress>>): Progress => ({
  running: false,
  done: 0,
  total: 0,
  failed: 0,
  startedAt: "2026-11-23T12:00:00.000Z",
  finishedAt: null,
  outcome: null,
  ...p,
});

describe("spec 1 §2 refresh control", () => {
  it("'???' when unknown; the ghost button with the tooltip 'Click to refresh data'", async () => {
    renderRemixStub([{ path: "/gifts", Component: () => <RefreshControl lastFetched={null} progress={null} notice={null} /> }]);
    expect((await screen.findByTestId("last-fetched")).textContent).toBe("???");
    const button = screen.getByRole("button", { name: "Click to refresh data" });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(button.className).toContain("rt-variant-ghost");
    // Issue 32 item 4: the tooltip's code (Hint) is not fetched until a hint is wanted — after
    // hydration and a pause the trigger is still the plain button (no Radix data-state).
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getByRole("button", { name: "Click to refresh data" }).getAttribute("data-state")).toBeNull();
    // Focusing it loads the code, and the hint opens on the focused trigger.
    act(() => button.focus());
    await waitFor(() => expect(screen.getByRole("tooltip").textContent).toBe("Click to refresh data"));
    expect(screen.getByRole("button", { name: "Click to refresh data" })).toBe(document.activeElement);
  });

  it("relative time with the absolute time on hover", async () => {
    const at = new Date(Date.now() - 5 * 60_000).toISOString();
    renderRemixStub([{ path: "/gifts", Component: () => <RefreshControl lastFetched={at} progress={progress({ outcome: "success" })} notice={null} /> }]);
    const time = (await screen.findByTestId("last-fetched")).querySelector("time")!;
    await waitFor(() => expect(time.textContent).toBe("5m ago"));
    expect(time.getAttribute("dateTime")).toBe(at);
    expect(time.getAttribute("title")).toMatch(/\d/);
  });

  it("after a failed refresh the two times are labelled: 'Last success … · Last try failed …' (issue 30 A7)", async () => {
    const success = new Date(Date.now() - 2 * 3600_000).toISOString();
    const tried = new Date(Date.now() - 20_000).toISOString();
    renderRemixStub([
      {
        path: "/gifts",
        Component: () => <RefreshControl lastFetched={success} progress={progress({ outcome: "failure", finishedAt: tried })} notice={null} />,
      },
    ]);
    const label = await screen.findByTestId("last-fetched");
    await waitFor(() => expect(label.textContent).toBe("Last success 2h ago · Last try failed just now"));
    expect([...label.querySelectorAll("time")].map((t) => t.getAttribute("dateTime"))).toEqual([success, tried]);
    cleanup();
    // Never fetched: the success says so; a successful or partial refresh shows the one time, as spec 1 §2.
    renderRemixStub([
      { path: "/gifts", Component: () => <RefreshControl lastFetched={null} progress={progress({ outcome: "failure", finishedAt: tried })} notice={null} /> },
    ]);
    await waitFor(async () => expect((await screen.findByTestId("last-fetched")).textContent).toBe("Last success ??? · Last try failed just now"));
    cleanup();
    renderRemixStub([
      {
        path: "/gifts",
        Component: () => <RefreshControl lastFetched={success} progress={progress({ outcome: "partial", finishedAt: tried })} notice={null} />,
      },
    ]);
    await waitFor(async () => expect((await screen.findByTestId("last-fetched")).textContent).toBe("2h ago"));
  });

  it("'Loading...', disabled and spinning while refreshing (a click is ignored)", async () => {
    renderRemixStub([
      {
        path: "/gifts",
        Component: () => <RefreshControl lastFetched="2026-11-23T12:00:00.000Z" progress={progress({ running: true, total: 4, done: 1 })} notice={null} />,
        action: () => {
          throw new Error("no post while refreshing");
        },
      },
    ]);
    expect((await screen.findByTestId("last-fetched")).textContent).toBe("Loading...");
    const button = screen.getByRole("button", { name: "Click to refresh data" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.querySelector("svg")!.getAttribute("class")).toContain("gt-spin");
  });
});

const row: BowlingRow = {
  _id: "u1",
  account_id: "100",
  nick: "Bowler",
  initials: "BO",
  picUrl: null,
  isOnline: null,
  room: null,
  gifts: null,
  giftsFailed: false,
  stale: null,
  collection: null,
  companion: null,
};

describe("spec 1 §2 companion dialog", () => {
  it("'Assign Companion': Assign is enabled only with one supplier and one recipient", async () => {
    renderRemixStub([
      {
        path: "/gifts",
        Component: () => (
          <CompanionDialog
            open
            onClose={() => {}}
            closeHref="/gifts"
            row={row}
            candidates={{ suppliers: [{ _id: "s", account_id: "200", nick: "Sup" }], recipients: [{ _id: "r", account_id: "300", nick: "Rec" }] }}
          />
        ),
      },
    ]);
    const dialog = await screen.findByRole("dialog", { name: "Assign Companion" });
    const assign = () => screen.getByRole("button", { name: "Assign" }) as HTMLButtonElement;
    expect(dialog).toBeTruthy();
    expect(assign().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Supplier"), { target: { value: "200" } });
    expect(assign().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Recipient"), { target: { value: "300" } });
    expect(assign().disabled).toBe(false);
  });

  it("issue 20: without the page's list it fetches the suppliers and recipients on open; a failure stays in the dialog with Retry", async () => {
    const answers = [
      () => Promise.resolve(new Response(JSON.stringify({ error: "x", message: "x" }), { status: 500 })),
      () =>
        Promise.resolve(
          Response.json({ suppliers: [{ _id: "s", account_id: "200", nick: "Sup" }], recipients: [{ _id: "r", account_id: "300", nick: "Rec" }] }),
        ),
    ];
    const fetchMock = vi.fn((_url: string) => answers.shift()!());
    vi.stubGlobal("fetch", fetchMock);
    try {
      renderRemixStub([{ path: "/gifts", Component: () => <CompanionDialog open onClose={() => {}} closeHref="/gifts" row={row} candidates={null} /> }]);
      await screen.findByRole("dialog", { name: "Assign Companion" });
      expect(await screen.findByRole("alert")).toHaveProperty("textContent", expect.stringContaining("Failed to load suppliers and recipients"));
      expect((screen.getByLabelText("Supplier") as HTMLSelectElement).disabled).toBe(true);
      fireEvent.click(screen.getByRole("button", { name: "Retry" }));
      await screen.findByRole("option", { name: "Sup (200)" });
      expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(["/gifts/companion-candidates", "/gifts/companion-candidates"]);
      expect(screen.queryByTestId("companion-candidates-status")).toBeNull();
      fireEvent.change(screen.getByLabelText("Supplier"), { target: { value: "200" } });
      fireEvent.change(screen.getByLabelText("Recipient"), { target: { value: "300" } });
      expect((screen.getByRole("button", { name: "Assign" }) as HTMLButtonElement).disabled).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("'Update Companion' with the current supplier and recipient chosen", async () => {
    const withCompanion = { ...row, companion: { _id: "c1", bowling_id: "100", supplier: "200", consumer: "300", supplierNick: "Sup", consumerNick: "Rec" } };
    renderRemixStub([
      {
        path: "/gifts",
        Component: () => (
          <CompanionDialog
            open
            onClose={() => {}}
            closeHref="/gifts"
            row={withCompanion}
            candidates={{ suppliers: [{ _id: "s", account_id: "200", nick: "Sup" }], recipients: [{ _id: "r", account_id: "300", nick: "Rec" }] }}
          />
        ),
      },
    ]);
    await screen.findByRole("dialog", { name: "Update Companion" });
    expect((screen.getByLabelText("Supplier") as HTMLSelectElement).value).toBe("200");
    expect((screen.getByRole("button", { name: "Update" }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe("spec 1 §2 row", () => {
  const ctx: RowContext = { search: "", canWrite: true, hydrated: true, loading: true, deleting: null };
  const renderRow = (r: BowlingRow, c: Partial<RowContext> = {}) =>
    renderRemixStub([
      {
        path: "/gifts",
        Component: () => (
          <table>
            <tbody>
              <BowlingRowView row={r} ctx={{ ...ctx, ...c }} />
            </tbody>
          </table>
        ),
      },
    ]);

  it("while the first refresh runs: status placeholder and gift skeletons", async () => {
    renderRow(row, { loading: true });
    expect(await screen.findByTestId("status-loading")).toBeTruthy();
    expect(screen.getByTestId("gifts-loading")).toBeTruthy();
    expect(screen.queryByTestId("gifts-not-loaded")).toBeNull();
    expect(screen.getByText("No companion")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Assign Companion for Bowler" }).getAttribute("href")).toBe("/gifts?dialog=companion&account=100");
  });

  it("issue 19 item 8: an account no refresh has loaded yet says 'Gifts not loaded yet' (no skeleton that never resolves)", async () => {
    renderRow(row, { loading: false, search: "?page=2&q=bo" });
    expect((await screen.findByTestId("gifts-not-loaded")).textContent).toBe(GIFTS_NOT_LOADED);
    expect(screen.queryByTestId("gifts-loading")).toBeNull();
    expect(screen.getByLabelText("Capybara of Bowler: not loaded").textContent).toBe("—");
    // The row's links keep the page and the search.
    expect(screen.getByRole("link", { name: "Assign Companion for Bowler" }).getAttribute("href")).toBe("/gifts?page=2&q=bo&dialog=companion&account=100");
    expect(screen.getByRole("button", { name: "Delete Bowler" }).getAttribute("data-delete")).toBe("100");
  });

  it("spec 1 §8 'Per-user stats failure shows 'Failed to load gifts' on the row'; the room name in the badge", async () => {
    renderRow({ ...row, isOnline: true, room: "Bowling*2", giftsFailed: true });
    expect((await screen.findByTestId("gifts-failed")).textContent).toBe("Failed to load gifts");
    expect(screen.getByTestId("status-badge").textContent).toBe("Bowling*2");
  });

  it("issue 18 item 5: a failed refresh keeps the last known chips, marked 'stale · 2h ago' with the absolute time and the reason on hover", async () => {
    const since = new Date(Date.now() - 2 * 3600_000 - 60_000).toISOString();
    renderRow({
      ...row,
      isOnline: true,
      room: "Bowling*2",
      gifts: [{ type: 11, name: "RBB", img: "", amount: 60 }],
      giftsFailed: true,
      stale: { since, reason: "The platform answered 500 to gift_stats_ajax: Simulated service failure", parts: ["gifts", "status"] },
    });
    const chips = await screen.findByRole("list", { name: "Gifts of Bowler" });
    // Issue 30 B4: the chip says which gift in its text (visually hidden beside the picture), not only in its hover title.
    expect(chips.querySelector('[data-type="11"]')!.textContent).toBe("RBB: 60");
    expect(screen.queryByTestId("gifts-failed")).toBeNull();
    const mark = screen.getByTestId("stale");
    await waitFor(() => expect(mark.textContent).toMatch(/^stale · 2h ago/));
    expect(mark.getAttribute("title")).toBe("Last refresh failed: The platform answered 500 to gift_stats_ajax: Simulated service failure");
    const time = mark.querySelector("time")!;
    expect(time.getAttribute("dateTime")).toBe(since);
    expect(time.getAttribute("title")).toMatch(/\d/);
    expect(screen.getByTestId("status-badge").textContent).toBe("Bowling*2");
  });

  it("chips coloured by the thresholds, companion nicks, 'N items' of Capybara", async () => {
    renderRow({
      ...row,
      isOnline: false,
      gifts: [
        { type: 11, name: "RBB", img: "", amount: 50 },
        { type: 12, name: "GBB", img: "", amount: 199 },
      ],
      collection: [
        { imageUrl: "", count: 3 },
        { imageUrl: "", count: 0 },
      ],
      companion: { _id: "c", bowling_id: "100", supplier: "200", consumer: "300", supplierNick: "Sup", consumerNick: "Rec" },
    });
    const chips = await screen.findByRole("list", { name: "Gifts of Bowler" });
    expect(chips.querySelector('[data-type="11"]')!.getAttribute("data-color")).toBe("green");
    expect(chips.querySelector('[data-type="12"]')!.getAttribute("data-color")).toBe("red");
    expect(screen.getByTestId("status-badge").textContent).toBe("Offline");
    expect(screen.getByTestId("companion").textContent).toBe("Supplier: Sup · Consumer: Rec");
    expect(screen.getByRole("link", { name: "Capybara of Bowler: 3 items" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Update Companion for Bowler" })).toBeTruthy();
  });
});

describe("issue 18 item 5: the refresh's progress and outcome line", () => {
  const renderStatus = (props: Parameters<typeof RefreshStatus>[0]) => renderRemixStub([{ path: "/", Component: () => <RefreshStatus {...props} /> }]);

  it("'Refreshing n of N accounts, f failed' with a progress bar while running", async () => {
    renderStatus({ progress: progress({ running: true, done: 2, total: 5, failed: 1 }), notice: null, noun: "accounts" });
    const line = await screen.findByTestId("refresh-progress");
    expect(line.textContent).toBe("Refreshing 2 of 5 accounts, 1 failed");
    expect(screen.getByRole("progressbar", { name: "Refresh progress" }).getAttribute("value")).toBe("2");
  });

  it("after the end: the warning naming the failed accounts with the reason; the failure; no line for a success unless asked", async () => {
    const finishedAt = new Date().toISOString();
    const warning = { type: "warning" as const, message: "Data refreshed for 3 of 5 accounts; 2 failed: Ann, bob", description: "Simulated service failure" };
    const view = renderStatus({ progress: progress({ done: 5, total: 5, failed: 2, outcome: "partial", finishedAt }), notice: warning, noun: "accounts" });
    const line = await screen.findByTestId("refresh-outcome");
    expect(line.textContent).toMatch(/^Last refresh: Data refreshed for 3 of 5 accounts; 2 failed: Ann, bob \(Simulated service failure\) · just now$/);
    expect(line.getAttribute("data-accent-color")).toBe("amber");
    view.unmount();

    renderStatus({
      progress: progress({ done: 5, total: 5, failed: 5, outcome: "failure", finishedAt }),
      notice: { type: "error", message: "Failed to refresh data", description: "All 5 accounts failed: Simulated service failure" },
      noun: "accounts",
    });
    expect((await screen.findByTestId("refresh-outcome")).textContent).toMatch(
      /^Last refresh: Failed to refresh data \(All 5 accounts failed: Simulated service failure\)/,
    );
    cleanup();

    const success = { type: "success" as const, message: "Data refreshed successfully" };
    renderStatus({ progress: progress({ done: 5, total: 5, outcome: "success", finishedAt }), notice: success, noun: "accounts" });
    await waitFor(() => expect(screen.queryByTestId("refresh-outcome")).toBeNull());
    cleanup();
    renderStatus({ progress: progress({ done: 5, total: 5, outcome: "success", finishedAt }), notice: success, noun: "users", showSuccess: true });
    expect((await screen.findByTestId("refresh-outcome")).textContent).toMatch(/^Last refresh: Data refreshed successfully · just now$/);
  });
});

describe("issue 19 item 8 on the Bowling Bots screen: skeleton only while a refresh runs", () => {
  const data = (p: Progress): BowlingData =>
    ({
      rows: [row],
      query: "",
      userCount: 1,
      matching: 1,
      page: { page: 1, pages: 1, size: 50 },
      suppliers: [],
      recipients: [],
      companionCount: 0,
      totals: { gifts: [], collection: 0 },
      lastFetched: null,
      undo: null,
      progress: p,
      notice: null,
      refreshingNoJs: false,
      summary: { dailyTotals: [], rates: {}, chart: null, failed: false },
    }) as unknown as BowlingData;
  const renderScreen = (p: Progress) =>
    renderRemixStub([{ path: "/gifts", Component: () => <BowlingScreen data={data(p)} /> }], { initialEntries: ["/gifts"] });

  it("an account just added, before any refresh: 'Gifts not loaded yet'", async () => {
    renderScreen(null);
    expect((await screen.findByTestId("gifts-not-loaded")).textContent).toBe("Gifts not loaded yet");
    expect(screen.queryByTestId("gifts-loading")).toBeNull();
    expect(screen.queryByTestId("bowling-pager")).toBeNull();
  });

  it("issue 30 B5: without JavaScript a refresh started elsewhere is followed (the page reloads itself until the outcome), not left at 'Refreshing 0 of 0 accounts'", async () => {
    renderScreen(progress({ running: true }));
    await screen.findByTestId("gifts-loading");
    const reload = [...document.querySelectorAll("noscript")].map((n) => n.innerHTML).join("");
    expect(reload).toContain('<meta http-equiv="refresh" content="2">');
    cleanup();
    // Not while a dialog or question is open (a reload would throw away what is typed), nor once it ended.
    renderRemixStub([{ path: "/gifts", Component: () => <BowlingScreen data={data(progress({ running: true }))} /> }], {
      initialEntries: ["/gifts?confirm=all"],
    });
    await screen.findByTestId("gifts-loading");
    expect([...document.querySelectorAll("noscript")].map((n) => n.innerHTML).join("")).not.toContain("http-equiv");
    cleanup();
    renderScreen(progress({ running: false, finishedAt: "2026-11-23T12:01:00.000Z", outcome: "success" }));
    await screen.findAllByTestId("bowling-row").catch(() => null);
    expect([...document.querySelectorAll("noscript")].map((n) => n.innerHTML).join("")).not.toContain("http-equiv");
  });

  it("while the first refresh runs: the skeleton", async () => {
    renderScreen(progress({ running: true, total: 1 }));
    expect(await screen.findByTestId("gifts-loading")).toBeTruthy();
    expect(screen.queryByTestId("gifts-not-loaded")).toBeNull();
  });
});
