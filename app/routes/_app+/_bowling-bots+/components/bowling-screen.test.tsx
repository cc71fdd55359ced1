// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { renderRemixStub } from "../../../../../tests/kit/component";
import type { BowlingRow } from "../gifts";
import { BowlingRowView } from "./bowling-row";
import { CompanionDialog } from "./companion-dialog";
import { RefreshControl } from "./refresh-control";

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
    fireEvent.focus(button);
    await waitFor(() => expect(screen.getByRole("tooltip").textContent).toBe("Click to refresh data"));
  });

  it("relative time with the absolute time on hover", async () => {
    const at = new Date(Date.now() - 5 * 60_000).toISOString();
    renderRemixStub([{ path: "/gifts", Component: () => <RefreshControl lastFetched={at} progress={progress({ outcome: "success" })} notice={null} /> }]);
    const time = (await screen.findByTestId("last-fetched")).querySelector("time")!;
    await waitFor(() => expect(time.textContent).toBe("5m ago"));
    expect(time.getAttribute("dateTime")).toBe(at);
    expect(time.getAttribute("title")).toMatch(/\d/);
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
            suppliers={[{ _id: "s", account_id: "200", nick: "Sup" }]}
            recipients={[{ _id: "r", account_id: "300", nick: "Rec" }]}
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
            suppliers={[{ _id: "s", account_id: "200", nick: "Sup" }]}
            recipients={[{ _id: "r", account_id: "300", nick: "Rec" }]}
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
  const renderRow = (r: BowlingRow) =>
    renderRemixStub([
      {
        path: "/gifts",
        Component: () => (
          <table>
            <tbody>
              <BowlingRowView row={r} />
            </tbody>
          </table>
        ),
      },
    ]);

  it("before the first refresh: status placeholder and gift skeletons", async () => {
    renderRow(row);
    expect(await screen.findByTestId("status-loading")).toBeTruthy();
    expect(screen.getByTestId("gifts-loading")).toBeTruthy();
    expect(screen.getByText("No companion")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Assign Companion for Bowler" })).toBeTruthy();
  });

  it("spec 1 §8 'Per-user stats failure shows 'Failed to load gifts' on the row'; the room name in the badge", async () => {
    renderRow({ ...row, isOnline: true, room: "Bowling*2", giftsFailed: true });
    expect((await screen.findByTestId("gifts-failed")).textContent).toBe("Failed to load gifts");
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
