// @vitest-environment happy-dom
import { useLoaderData } from "@remix-run/react";
import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderRemixStub } from "../../../tests/kit/component";
import { keepInputOnFailure } from "../ui/submit-failure";
import { LiveProvider, useLive } from "./live";

/**
 * docs/live.md "When the stream is down": the page revalidates once for what it missed when
 * the stream comes up — the first time too. The page's data is the server render's; a change
 * published between that render and the stream's `ready` (the GalaCord bot logging in right
 * after the page loaded) is never sent again, so without the catch-up the page stayed on
 * "Stopped" (the flaky GalaCord e2e "a spinner shows while connecting").
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  FakeEventSource.last = null;
});

class FakeEventSource {
  static last: FakeEventSource | null = null;
  listeners = new Map<string, ((e: MessageEvent) => void)[]>();
  constructor(public url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {}
  emit(type: string, data = "") {
    for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data }));
  }
}

/**
 * The tab's stream, once the provider's effect has opened it: the effect runs after the first
 * render, which on a loaded machine can come after the page's text is on screen.
 */
async function stream(): Promise<void> {
  await waitFor(() => expect(FakeEventSource.last).not.toBeNull());
}

/** A live page at "/" inside the tab's LiveProvider, with its loader (as the root route's when `id` is "root"). */
function renderLivePage(Page: () => JSX.Element, loader: () => Record<string, unknown>, id?: string) {
  vi.stubGlobal("EventSource", FakeEventSource);
  renderRemixStub([
    {
      ...(id ? { id } : {}),
      path: "/",
      Component: () => (
        <LiveProvider>
          <Page />
        </LiveProvider>
      ),
      loader,
    },
  ]);
}

/**
 * A page following stalker sessions, past its first load and the stream's catch-up (two loads),
 * with the throttle's window over. Returns how many times its loader ran so far.
 */
async function stalkerPageCaughtUp(): Promise<() => number> {
  let loads = 0;
  function Page() {
    useLive(["session:stalker"], { fallbackMs: null });
    useLoaderData();
    return <p>page</p>;
  }
  renderLivePage(Page, () => ({ n: ++loads }));
  await screen.findByText("page");
  await stream();
  await act(async () => FakeEventSource.last!.emit("ready"));
  await waitFor(() => expect(loads).toBe(2));
  await new Promise((r) => setTimeout(r, 300));
  return () => loads;
}

/**
 * A live page whose root loader says it was rendered at live sequence `seq`, its stream open.
 * Returns how many times its loader ran so far.
 */
async function pageRenderedAt(seq: number): Promise<() => number> {
  let loads = 0;
  function Page() {
    useLive(["session:relay"], { fallbackMs: null });
    useLoaderData();
    return <p>page</p>;
  }
  renderLivePage(Page, () => ({ liveSeq: seq, n: ++loads }), "root");
  await screen.findByText("page");
  await stream();
  return () => loads;
}

describe("useLive", () => {
  it("revalidates once when the stream first says ready (what changed since the render), and on a live event", async () => {
    let loads = 0;
    let state = "Stopped";
    function Page() {
      useLive(["session:relay"], { fallbackMs: null });
      return <p data-testid="state">{useLoaderData<{ state: string }>().state}</p>;
    }
    renderLivePage(Page, () => {
      loads++;
      return { state };
    });
    expect((await screen.findByTestId("state")).textContent).toBe("Stopped");
    expect(loads).toBe(1);
    // The bot logged in before the stream was up: its event went to nobody.
    state = "Running";
    await stream();
    await act(async () => FakeEventSource.last!.emit("ready"));
    await waitFor(() => expect(screen.getByTestId("state").textContent).toBe("Running"));
    expect(loads).toBe(2);
    // Once up, only events revalidate (throttled); nothing else reloads.
    state = "Stopped";
    await new Promise((r) => setTimeout(r, 300));
    await stream();
    await act(async () => FakeEventSource.last!.emit("live", JSON.stringify({ topic: "session", scope: "relay", key: "bot" })));
    await waitFor(() => expect(screen.getByTestId("state").textContent).toBe("Stopped"));
    expect(loads).toBe(3);
  });

  it("docs/live.md 'The first ready': opens its stream at the sequence the page was rendered at, and skips the catch-up only when the server says nothing was missed", async () => {
    const loads = await pageRenderedAt(7);
    expect(FakeEventSource.last!.url).toBe("/api/events?since=7");
    expect(loads()).toBe(1);
    await act(async () => FakeEventSource.last!.emit("ready", JSON.stringify({ at: 1, missed: false })));
    await new Promise((r) => setTimeout(r, 400));
    expect(loads()).toBe(1);
    // A ready after the stream dropped and came back: whatever it says, the page catches up.
    await act(async () => FakeEventSource.last!.emit("ready", JSON.stringify({ at: 2, missed: false })));
    await waitFor(() => expect(loads()).toBe(2));
  });

  it("catches up on a first ready that says something was missed", async () => {
    const loads = await pageRenderedAt(7);
    expect(loads()).toBe(1);
    await act(async () => FakeEventSource.last!.emit("ready", JSON.stringify({ at: 1, missed: true })));
    await waitFor(() => expect(loads()).toBe(2));
  });

  it("waits while a post is on its way (a revalidation then would make the router drop the redirect the post answers with), then catches up", async () => {
    const loads = await stalkerPageCaughtUp();

    // A post through the form kit's clientAction, its answer not back yet.
    let answer!: (value: unknown) => void;
    const clientAction = keepInputOnFailure();
    const posted = clientAction({
      request: new Request("http://localhost/", { method: "POST", body: new URLSearchParams({ intent: "start-stalker" }) }),
      serverAction: () => new Promise((resolve) => (answer = resolve)),
      params: {},
    } as unknown as Parameters<typeof clientAction>[0]);
    const event = JSON.stringify({ topic: "session", scope: "stalker", key: "1" });
    await stream();
    await act(async () => FakeEventSource.last!.emit("live", event));
    await new Promise((r) => setTimeout(r, 400));
    expect(loads()).toBe(2);

    answer({ ok: true });
    await posted;
    // The change is still owed, and comes once the post is answered, with no other event (a
    // new character's one "gifts loaded" event was lost so in a CI journey).
    await waitFor(() => expect(loads()).toBe(3));
    await new Promise((r) => setTimeout(r, 400));
    expect(loads()).toBe(3);
  });

  it("waits while the router is busy in its own state (a fetcher's redirect under way, not yet rendered), then catches up", async () => {
    const loads = await stalkerPageCaughtUp();

    // What Remix's router says between a fetcher's redirect answer and the navigation it starts.
    const fetchers = new Map([["start-stalker", { state: "loading" }]]);
    vi.stubGlobal("__remixRouter", { state: { navigation: { state: "idle" }, revalidation: "idle", fetchers } });
    const event = JSON.stringify({ topic: "session", scope: "stalker", key: "1" });
    await stream();
    await act(async () => FakeEventSource.last!.emit("live", event));
    await new Promise((r) => setTimeout(r, 400));
    expect(loads()).toBe(2);

    fetchers.set("start-stalker", { state: "idle" });
    // Owed, and caught up once the router is free, with no other event and no render between.
    await waitFor(() => expect(loads()).toBe(3));
    await new Promise((r) => setTimeout(r, 400));
    expect(loads()).toBe(3);
  });
});
