// @vitest-environment happy-dom
import { useLoaderData } from "@remix-run/react";
import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveProvider } from "~/components/live/live";
import { renderRemixStub } from "../../../../../tests/kit/component";
import type { CollectionsData } from "../collections";
import { CollectionsScreen } from "./collections-screen";

/**
 * Issue 18 "Live pages" on the Collections screen: its one live subscription revalidates the
 * page on its operator's `collections` events and its account's session events, not on
 * anyone else's, and polls only while the stream is down and Auto runs. The stream is a fake
 * EventSource (the real one, fed by Redis, is tested in api.events.test.ts and the worker's
 * publishing in jobs/processors/automation.test.ts).
 */

type Handler = (e: MessageEvent<string>) => void;
class FakeEventSource {
  static current: FakeEventSource | null = null;
  handlers = new Map<string, Handler[]>();
  constructor(readonly url: string) {
    FakeEventSource.current = this;
  }
  addEventListener(type: string, handler: Handler) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }
  close() {}
  emit(type: string, data: unknown = {}) {
    act(() => {
      for (const h of this.handlers.get(type) ?? []) h(new MessageEvent(type, { data: JSON.stringify(data) }));
    });
  }
}

beforeEach(() => {
  vi.stubGlobal("EventSource", FakeEventSource);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  FakeEventSource.current = null;
});

const OPERATOR = "0b7f9c1e-1111-4222-8333-944445555666";
const ACCOUNT = "12345678";

function screenData(autoOn: boolean): CollectionsData {
  return {
    operatorId: OPERATOR,
    profiles: [],
    profile: { id: "p1", accountId: ACCOUNT, nick: "Tester", profilePic: null, lastUsed: new Date().toISOString(), loginMethod: "recovery" },
    connection: { state: "disconnected", planet: null, error: null },
    collectionId: 178,
    recipientId: "10000001",
    giftIds: null,
    items: null,
    auto: { on: autoOn, repeat: 0, intervalSeconds: 30, runCount: autoOn ? 1 : 0, step: autoOn ? "mastic" : null },
    activity: [],
    characters: [],
    panel: "hide",
  } as unknown as CollectionsData;
}

function renderScreen(autoOn: boolean) {
  const loads = { count: 0 };
  function Page() {
    return <CollectionsScreen data={useLoaderData() as CollectionsData} />;
  }
  renderRemixStub([
    {
      path: "/collections",
      Component: () => (
        <LiveProvider>
          <Page />
        </LiveProvider>
      ),
      loader: () => {
        loads.count++;
        return screenData(autoOn);
      },
    },
  ]);
  return loads;
}

const live = (event: { topic: string; scope?: string; key?: string }) => FakeEventSource.current!.emit("live", { ...event, at: Date.now() });
const pause = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

describe("the Collections screen follows its live events (issue 18)", () => {
  it("revalidates on its operator's collections events and its account's session events, not on others", async () => {
    const loads = renderScreen(false);
    await screen.findByRole("heading", { name: "Collections" });
    expect(loads.count).toBe(1);
    // The stream's first ready: one catch-up for what changed since the render (docs/live.md).
    FakeEventSource.current!.emit("ready");
    await waitFor(() => expect(loads.count).toBe(2));

    live({ topic: "collections", scope: OPERATOR });
    await waitFor(() => expect(loads.count).toBe(3));

    live({ topic: "collections", scope: "another-operator" });
    live({ topic: "session", scope: "stalker", key: ACCOUNT });
    live({ topic: "refresh", scope: "bowling" });
    await pause(600);
    expect(loads.count).toBe(3);

    live({ topic: "session", scope: "collections", key: ACCOUNT });
    await waitFor(() => expect(loads.count).toBe(4));
  });

  it("while the stream is up it does not poll, even with Auto on; while it is down it polls every 2 s, only with Auto on", async () => {
    const on = renderScreen(true);
    await screen.findByRole("heading", { name: "Collections" });
    FakeEventSource.current!.emit("ready");
    await pause(2_300);
    // The first ready's one catch-up, and no poll.
    expect(on.count).toBe(2);
    FakeEventSource.current!.emit("offline");
    await waitFor(() => expect(on.count).toBeGreaterThanOrEqual(3), { timeout: 3_000 });
    cleanup();

    const off = renderScreen(false);
    await screen.findByRole("heading", { name: "Collections" });
    FakeEventSource.current!.emit("offline");
    await pause(2_300);
    expect(off.count).toBe(1);
  }, 15_000);
});
