// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DailyTotal } from "#api/summary";
import { renderRemixStub } from "../../../tests/kit/component";
import { orderedGiftCounts, SummaryPanel, type SummaryPanelData } from "./summary-panel";

// vite.config.ts denies "**/data/**" to the dev server, which also keeps happy-dom tests from
// loading app/data/gifts.ts; the picture component is stood in by a titled tile (its own
// behaviour is tested in the e2e journeys).
vi.mock("~/components/gift-image", () => ({ GiftImage: ({ name }: { name: string }) => <span title={name} data-gift={name} /> }));

/**
 * The Summary panel (spec 2 §2 "All Characters screen" / spec 1 §2) and its Gift Rates dialog
 * (spec 2 §4 "Gift rates dialog", §5), in a Remix route stub in happy-dom.
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const day = (date: string, awards: Record<string, number>, ballStats: Record<string, number>): DailyTotal => ({ date, awards, ballStats });
const totals = [
  day("2026-11-23", { Clay: 8 }, { "Fire Cannon Ball": 10 }),
  day("2026-11-22", { "Silver Ring": 3 }, {}),
  day("2026-11-20", { Clay: 4 }, { "Fire Cannon Ball": 1 }),
];

function render(summary: SummaryPanelData | undefined, url = "/gifts") {
  return renderRemixStub([{ path: "/gifts", Component: () => <SummaryPanel summary={summary} /> }], { initialEntries: [url] });
}

describe("spec 2 §2 Summary panel", () => {
  it("title 'Summary' with a 'Gift Rates' button beside it; only the first 2 rows until the chevron expands them", async () => {
    render({ dailyTotals: totals, rates: {}, chart: null, failed: false });
    expect(await screen.findByRole("heading", { name: "Summary" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Gift Rates" })).toBeTruthy();
    expect(screen.getAllByTestId("summary-row")).toHaveLength(2);
    expect(screen.getAllByTestId("summary-row")[0]!.textContent).toContain("23");
    expect(screen.getAllByTestId("summary-row")[0]!.textContent).toContain("Nov");
    const chevron = screen.getByTestId("summary-chevron");
    expect(chevron.getAttribute("href")).toBe("/gifts?summary=all");
    fireEvent.click(chevron);
    await waitFor(() => expect(screen.getAllByTestId("summary-row")).toHaveLength(3));
    fireEvent.click(screen.getByTestId("summary-chevron"));
    await waitFor(() => expect(screen.getAllByTestId("summary-row")).toHaveLength(2));
  });

  it("no chevron with 2 rows or fewer; the URL param expands without JavaScript", async () => {
    render({ dailyTotals: totals.slice(0, 2), rates: {}, chart: null, failed: false });
    await screen.findByRole("heading", { name: "Summary" });
    expect(screen.queryByTestId("summary-chevron")).toBeNull();
    cleanup();
    render({ dailyTotals: totals, rates: {}, chart: null, failed: false }, "/gifts?summary=all");
    await screen.findByRole("heading", { name: "Summary" });
    expect(screen.getAllByTestId("summary-row")).toHaveLength(3);
  });

  it("totals appear only if gift rates exist: spent -, received +, net + when ≥ 0, one decimal", async () => {
    render({ dailyTotals: totals, rates: { Clay: 4, "Fire Cannon Ball": 1, "Silver Ring": 0.5 }, chart: null, failed: false });
    await screen.findByRole("heading", { name: "Summary" });
    const [first, second] = screen.getAllByTestId("summary-values");
    expect(first!.textContent).toBe("-10.0+2.0-8.0");
    expect(second!.textContent).toBe("-0.0+6.0+6.0");
    cleanup();
    render({ dailyTotals: totals, rates: {}, chart: null, failed: false });
    await screen.findByRole("heading", { name: "Summary" });
    expect(screen.queryByTestId("summary-values")).toBeNull();
  });

  it("items spent and awards received with gift images", async () => {
    render({ dailyTotals: totals, rates: {}, chart: null, failed: false });
    await screen.findByRole("heading", { name: "Summary" });
    const row = screen.getAllByTestId("summary-row")[0]!;
    expect(within(row).getByTestId("summary-spent").textContent).toContain("10");
    expect(within(row).getByTestId("summary-awards").textContent).toContain("8");
    expect(within(row).getAllByTitle("Clay").length).toBeGreaterThan(0);
    expect(row.querySelector('[data-gift="Fire Cannon Ball"]')).toBeTruthy();
  });

  it("empty, failed and loading states", async () => {
    render({ dailyTotals: [], rates: {}, chart: null, failed: false });
    expect(await screen.findByText("No records found for the last 7 days")).toBeTruthy();
    cleanup();
    render({ dailyTotals: [], rates: {}, chart: null, failed: true });
    expect(await screen.findByText("Failed to load daily totals")).toBeTruthy();
    cleanup();
    render(undefined);
    expect(await screen.findByTestId("summary-skeleton")).toBeTruthy();
  });

  it("the net chart is an SVG with one bar per day", async () => {
    const chart = ["17", "18", "19", "20", "21", "22", "23"].map((d, i) => ({ date: `2026-11-${d}`, net: i - 3 }));
    render({ dailyTotals: totals, rates: { Clay: 1 }, chart, failed: false });
    const svg = await screen.findByTestId("summary-chart");
    expect(svg.querySelectorAll("rect")).toHaveLength(7);
    expect(svg.getAttribute("aria-label")).toContain("23 Nov: +3.0");
  });
});

describe("spec 2 §4/§5 Gift Rates dialog", () => {
  it("loads the rates when it opens (as prize/fireball pairs), saves only complete pairs as prize/fireballs, closes after a successful save", async () => {
    const calls: Array<{ url: string; init?: RequestInit }> = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, init });
        if (!init?.method || init.method === "GET") return Response.json({ rates: { Clay: 2.5, "Fire Cannon Ball": 1 } });
        return Response.json({ rates: JSON.parse(String(init.body)).rates });
      }),
    );
    render({ dailyTotals: [], rates: {}, chart: null, failed: false });
    fireEvent.click(await screen.findByRole("link", { name: "Gift Rates" }));
    const prize = (await screen.findByLabelText("Clay prize")) as HTMLInputElement;
    await waitFor(() => expect(prize.value).toBe("5"));
    expect((screen.getByLabelText("Clay fireballs") as HTMLInputElement).value).toBe("2");
    expect(screen.getAllByLabelText(/ prize$/)).toHaveLength(8);
    fireEvent.change(screen.getByLabelText("Skeleton Key prize"), { target: { value: "3" } });
    fireEvent.change(screen.getByLabelText("Silver Ring prize"), { target: { value: "7" } });
    fireEvent.change(screen.getByLabelText("Silver Ring fireballs"), { target: { value: "2" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByLabelText("Clay prize")).toBeNull());
    const post = calls.find((c) => c.init?.method === "POST")!;
    expect(post.url).toBe("/api/gift-rates");
    expect(JSON.parse(String(post.init!.body))).toEqual({ rates: { Clay: 2.5, "Fire Cannon Ball": 1, "Silver Ring": 3.5 } });
  });

  it("what is typed before the stored rates arrive is kept; the other rows take the stored values", async () => {
    let answer!: (res: Response) => void;
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    render({ dailyTotals: [], rates: {}, chart: null, failed: false });
    fireEvent.click(await screen.findByRole("link", { name: "Gift Rates" }));
    const prize = (await screen.findByLabelText("Skeleton Key prize")) as HTMLInputElement;
    fireEvent.change(prize, { target: { value: "-5" } });
    await waitFor(() => expect(answer).toBeTypeOf("function"));
    answer(Response.json({ rates: { Clay: 2.5, "Skeleton Key": 4 } }));
    await waitFor(() => expect((screen.getByLabelText("Clay prize") as HTMLInputElement).value).toBe("5"));
    expect(prize.value).toBe("-5");
    expect(screen.getByRole("button", { name: "Save" }).hasAttribute("disabled")).toBe(true);
  });

  it("a failed save is only logged and the dialog stays open (spec 2 §8)", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init?: RequestInit) =>
        init?.method === "POST" ? Response.json({ error: "x", message: "x" }, { status: 500 }) : Response.json({ rates: {} }),
      ),
    );
    render({ dailyTotals: [], rates: {}, chart: null, failed: false });
    // renderRemixStub has console.warn under a spy (it passes other warnings through).
    const warn = vi.mocked(console.warn);
    fireEvent.click(await screen.findByRole("link", { name: "Gift Rates" }));
    await screen.findByLabelText("Clay prize");
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(warn.mock.calls.some((c) => String(c[0]).includes("save failed"))).toBe(true));
    expect(screen.getByLabelText("Clay prize")).toBeTruthy();
  });
});

describe("issue 19 item 12: every day lists its gifts in the same order", () => {
  it("the order of the gift rate names, unknown names after them A–Z, zeros left out", () => {
    const a = orderedGiftCounts({ "Silver Ring": 2, Zeta: 1, Clay: 3, Alpha: 4, "Skeleton Key": 0 });
    const b = orderedGiftCounts({ Alpha: 4, Clay: 3, Zeta: 1, "Silver Ring": 2 });
    expect(a.map(([n]) => n)).toEqual(["Clay", "Silver Ring", "Alpha", "Zeta"]);
    expect(b).toEqual(a);
  });
});
