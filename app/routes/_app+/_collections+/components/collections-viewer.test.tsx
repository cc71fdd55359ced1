// @vitest-environment happy-dom
import { Outlet, useLoaderData } from "@remix-run/react";
import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveProvider } from "~/components/live/live";
import { SHELL_ROUTE_ID } from "~/components/ui/write-only";
import { renderRemixStub } from "../../../../../tests/kit/component";
import type { CollectionsData } from "../collections";
import { CollectionsScreen, VIEWER_NOTE } from "./collections-screen";

/**
 * Issue 21 item 1: "Viewers read everything an operator reads and change nothing ... the UI
 * hides or disables what they cannot do". The Collections screen as a viewer: the profile,
 * items, Auto state and Activity Log, and none of its forms (every one of them posts a write);
 * as an operator the same screen has them. The role comes from the shell's loader.
 */
class QuietEventSource {
  addEventListener() {}
  close() {}
}
beforeEach(() => vi.stubGlobal("EventSource", QuietEventSource));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function data(withProfile: boolean): CollectionsData {
  return {
    operatorId: "0b7f9c1e-1111-4222-8333-944445555666",
    profiles: [{ id: "p1", accountId: "12345678", nick: "Tester", profilePic: null, lastUsed: new Date().toISOString(), loginMethod: "recovery" }],
    profile: withProfile
      ? { id: "p1", accountId: "12345678", nick: "Tester", profilePic: null, lastUsed: new Date().toISOString(), loginMethod: "recovery" }
      : null,
    connection: withProfile ? { state: "connected", planet: "Clay*1", error: null } : null,
    collectionId: 178,
    recipientId: "10000001",
    giftIds: ["g1"],
    items: null,
    auto: { on: true, repeat: 3, intervalSeconds: 30, runCount: 2, step: "mastic" },
    activity: [{ id: "a1", status: "success", message: "Collected 3 items", at: "2026-11-26T01:00:00.000Z", accountId: "2001" }],
    characters: [],
    panel: "hide",
  } as unknown as CollectionsData;
}

function renderAs(role: "operator" | "viewer", withProfile: boolean) {
  function Page() {
    return <CollectionsScreen data={useLoaderData() as CollectionsData} />;
  }
  renderRemixStub(
    [
      {
        id: SHELL_ROUTE_ID,
        path: "/",
        loader: () => ({ operator: { name: "x", role, canWrite: role !== "viewer" } }),
        Component: () => <Outlet />,
        children: [
          {
            path: "collections",
            loader: () => data(withProfile),
            Component: () => (
              <LiveProvider>
                <Page />
              </LiveProvider>
            ),
          },
        ],
      },
    ],
    { initialEntries: ["/collections"] },
  );
}

const WRITES = [
  "Disconnect from Galaxy",
  "Log out of Galaxy",
  "Change planet",
  "Run",
  "Status",
  "Refresh gift inventory",
  "Send (1)",
  "Auto on",
  "Clear",
  "Show floating panel",
  "Log in as Tester",
  "Remove Tester",
];

describe("the Collections screen for a viewer (issue 21)", () => {
  it("an operator gets every write", async () => {
    renderAs("operator", true);
    await screen.findByRole("heading", { name: "Collections" });
    for (const name of WRITES) expect(screen.getByRole(name === "Auto on" ? "switch" : "button", { name }), name).toBeTruthy();
  });

  it("a viewer reads the profile, the Auto state and the Activity Log, and gets none of the writes", async () => {
    renderAs("viewer", true);
    await screen.findByRole("heading", { name: "Collections" });
    expect(screen.getByRole("heading", { name: "Tester" })).toBeTruthy();
    expect(screen.getByTestId("connection-state").textContent).toBe("Connected");
    expect(screen.getByTestId("run-counter").textContent).toBe("Auto on · Runs: 2 / 3 · mastic");
    expect(screen.getByText("Collected 3 items")).toBeTruthy();
    expect(screen.queryAllByRole("button")).toEqual([]);
    expect(screen.queryAllByRole("switch")).toEqual([]);
    expect(document.querySelectorAll("form[method='post']").length).toBe(0);
  });

  it("a viewer without a profile finds a note instead of the recovery-code login", async () => {
    renderAs("viewer", false);
    expect(await screen.findByText(VIEWER_NOTE)).toBeTruthy();
    expect(screen.queryByRole("textbox", { name: /recovery code/i })).toBeNull();
    expect(screen.queryByRole("button", { name: "Log in" })).toBeNull();
  });
});
