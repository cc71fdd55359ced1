// @vitest-environment happy-dom
/**
 * Issue 29 "One state per badge": each phase shows one state — waiting for a worker (and why),
 * connecting (the only spinner), active, retrying with its next try, stopped, failed — and the
 * screens that had their own words ("Starting", "Logging in to Discord…", "Connecting") no
 * longer show them above "Waiting for a worker".
 */
import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { SavedAccount } from "#api/galacord";
import { PHASE_TEXTS, sessionPhase, type SessionView } from "#api/sessions";
import { BotNotice, BotStatusDot } from "~/routes/_app+/_galacord+/components/bot-status";
import { StatusBadge } from "~/routes/_app+/_galacord+/components/account-row";
import { JobsBadge } from "~/components/shell/jobs-badge";
import { renderRemixStub } from "../../../tests/kit/component";
import { SessionDetail } from "./session-detail";
import { SessionPhaseBadge } from "./session-phase";

afterEach(cleanup);

function view(over: Partial<SessionView>, liveness: Parameters<typeof sessionPhase>[1] = null): SessionView {
  const base = {
    purpose: "relay" as const,
    key: "bot",
    accountId: null,
    desired: "run" as const,
    actual: "active" as const,
    since: new Date().toISOString(),
    error: null,
    note: null,
    attempt: 0,
    nextRetryAt: null,
    holder: "w1",
    holderAlive: true,
    planet: null,
    info: {},
    ...over,
  };
  return { ...base, ...sessionPhase(base, liveness) };
}

const lost = () => view({ actual: "active", holder: "w-dead", holderAlive: false });
const retrying = () => view({ actual: "reconnecting", attempt: 2, error: "Connection lost", nextRetryAt: new Date(Date.now() + 12_000).toISOString() });

function show(node: React.ReactNode) {
  renderRemixStub([{ path: "/", Component: () => <>{node}</> }]);
}

describe("SessionPhaseBadge: one state each", () => {
  const cases: [string, SessionView, string, boolean][] = [
    ["waiting (worker lost)", lost(), PHASE_TEXTS.workerLost, false],
    [
      "waiting (all full)",
      view({ actual: "waiting", holder: null }, { alive: new Set(["w1"]), full: { relay: PHASE_TEXTS.full(10, 10) } }),
      "Waiting for a worker: all workers are full (10 of 10)",
      false,
    ],
    ["connecting", view({ actual: "connecting" }), "Connecting", true],
    ["active", view({ actual: "active" }), "Active", false],
    ["stopped", view({ desired: "stop", actual: "stopped", holder: null }), "Stopped", false],
    ["failed", view({ desired: "stop", actual: "failed", error: "Login failed", holder: null }), "Failed", false],
  ];
  for (const [name, session, text, spinner] of cases) {
    it(name, async () => {
      show(<SessionPhaseBadge session={session} />);
      const badge = await screen.findByTestId("session-phase");
      expect(badge.textContent).toBe(text);
      expect(badge.getAttribute("data-phase")).toBe(session.phase);
      expect(!!badge.querySelector(".rt-Spinner")).toBe(spinner);
    });
  }

  it("retrying shows the next try, no spinner, not 'Connecting'", async () => {
    show(<SessionPhaseBadge session={retrying()} />);
    const badge = await screen.findByTestId("session-phase");
    expect(badge.getAttribute("data-phase")).toBe("retrying");
    expect(badge.textContent).toMatch(/^Retrying in 1[12] s$/);
    expect(badge.querySelector(".rt-Spinner")).toBeNull();
  });
});

describe("screens show one state", () => {
  it("GalaCord bot whose worker is lost: the truth, no 'Starting', no 'Logging in to Discord…' spinner, no 'another worker takes it over'", async () => {
    const session = lost();
    const status = { isRunning: false, error: null, connectedChannels: 0, state: "waiting" as const, stateText: session.status, session };
    show(
      <>
        <BotStatusDot status={status} />
        <BotNotice status={status} />
      </>,
    );
    expect((await screen.findByTestId("bot-state")).textContent).toBe(PHASE_TEXTS.workerLost);
    expect(screen.queryByText("Starting")).toBeNull();
    expect(screen.queryByText("Logging in to Discord…")).toBeNull();
    expect(screen.queryByText(/another worker takes it over/)).toBeNull();
    expect(screen.getByText("0 active connections", { exact: false })).toBeTruthy();
  });

  it("GalaCord relay row: a retry is spec 2 §4's 'Connecting' spinner; a connection no worker holds says so instead", async () => {
    const row = (session: SessionView) =>
      ({
        accountId: "1",
        nick: "N",
        planet: null,
        isConnected: false,
        state: "connecting",
        desired: "connected",
        error: null,
        session: { ...session, purpose: "relay-link" as const, key: "1", accountId: "1" },
      }) as unknown as SavedAccount;
    show(
      <>
        <div data-testid="retrying-row">
          <StatusBadge account={row(retrying())} pending={null} />
        </div>
        <div data-testid="lost-row">
          <StatusBadge account={row(lost())} pending={null} />
        </div>
      </>,
    );
    const retryingRow = await screen.findByTestId("retrying-row");
    expect(retryingRow.textContent?.trim()).toBe("Connecting");
    expect(retryingRow.querySelector('[data-testid="session-phase"]')).toBeNull();
    const lostRow = screen.getByTestId("lost-row");
    expect(lostRow.querySelector('[data-testid="session-phase"]')?.textContent).toMatch(/^Worker lost · waiting for a worker/);
    expect(lostRow.textContent).not.toContain("Connecting");
  });

  it("the detail line of a lost holder says worker lost once (not 'Its worker stopped; another worker takes it over')", async () => {
    show(<SessionDetail session={lost()} />);
    const line = await screen.findByTestId("session-detail");
    expect(line.textContent).toMatch(/^Worker lost · waiting for a worker/);
  });

  it("the header counts live workers and says when one was lost", async () => {
    show(<JobsBadge jobs={{ redis: "up", worker: "running", workers: 2, lost: 1 }} />);
    expect((await screen.findByText(/Jobs online/)).textContent).toBe("Jobs online · 2 workers · 1 lost");
    cleanup();
    show(<JobsBadge jobs={{ redis: "up", worker: "stopped", workers: 0, lost: 1 }} />);
    expect((await screen.findByText(/Worker/)).textContent).toBe("Worker lost");
  });
});
