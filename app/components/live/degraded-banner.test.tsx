// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderRemixStub } from "../../../tests/kit/component";
import { DegradedBanner } from "./degraded-banner";
import { LiveProvider, LIVE_REOPEN_MS } from "./live";

/**
 * Issue 29 item 3: "the live stream tells open pages it is degraded" — the shell shows what
 * the server says is unreachable, and recovers by itself: the banner goes when the server says
 * so, and a stream the server refused (a 503 while the database is down) is opened again.
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

class FakeEventSource {
  static all: FakeEventSource[] = [];
  listeners = new Map<string, ((e: MessageEvent) => void)[]>();
  readyState = 0;
  constructor(public url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.readyState = 2;
  }
  emit(type: string, data = "") {
    for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data }));
  }
}

function renderShell() {
  FakeEventSource.all = [];
  vi.stubGlobal("EventSource", FakeEventSource);
  renderRemixStub([
    {
      path: "/",
      Component: () => (
        <LiveProvider>
          <DegradedBanner />
          <p>page</p>
        </LiveProvider>
      ),
    },
  ]);
}

const degraded = (down: string[], messages: string[]) => JSON.stringify({ down, messages, at: Date.now() });

describe("DegradedBanner", () => {
  it("names what the server says is down, and goes when it is back", async () => {
    renderShell();
    await screen.findByText("page");
    const source = FakeEventSource.all[0]!;
    await act(async () => source.emit("degraded", degraded([], [])));
    expect(screen.queryByRole("status")).toBeNull();

    await act(async () => source.emit("degraded", degraded(["redis"], ["Job engine offline: Redis is not reachable"])));
    expect(screen.getByRole("status").textContent).toContain("Job engine offline: Redis is not reachable");
    expect(screen.getByRole("status").textContent).toContain("Pages work");

    await act(async () => source.emit("degraded", degraded(["database"], ["The database is unreachable"])));
    expect(screen.getByRole("status").textContent).toContain("The database is unreachable");

    await act(async () => source.emit("degraded", degraded([], [])));
    await waitFor(() => expect(screen.queryByRole("status")).toBeNull());
  });

  it("opens the stream again after the server refused it", async () => {
    renderShell();
    await screen.findByText("page");
    expect(FakeEventSource.all).toHaveLength(1);
    vi.useFakeTimers();
    const refused = FakeEventSource.all[0]!;
    refused.readyState = 2; // what a browser does with a non-200 answer: closed for good
    act(() => refused.emit("error"));
    act(() => void vi.advanceTimersByTime(LIVE_REOPEN_MS));
    expect(FakeEventSource.all).toHaveLength(2);
    // A dropped stream the browser retries itself (still CONNECTING) is left to the browser.
    const retrying = FakeEventSource.all[1]!;
    act(() => retrying.emit("error"));
    act(() => void vi.advanceTimersByTime(LIVE_REOPEN_MS * 2));
    expect(FakeEventSource.all).toHaveLength(2);
  });
});
