/**
 * The one reconnect supervisor (docs/sessions.md "One supervisor"): the attempt counter
 * restarts after a connection that was up (issue 29: the next drop showed "attempt 6").
 */
import { describe, expect, it } from "vitest";
import type { SessionPatch } from "../session-host.server";
import { superviseConnection, type ConnectionOutcome } from "./supervise";

const POLICY = { dropRetryMs: 1, dropRetries: 2, backoffMaxMs: 4, busyRetryMs: 1, busyRetries: 3, firstConnect: "persist" as const };

function session() {
  const controller = new AbortController();
  const reports: SessionPatch[] = [];
  return {
    controller,
    reports,
    s: {
      signal: controller.signal,
      label: "Stalker Test",
      holdsLock: async () => true,
      report: async (patch: SessionPatch) => {
        reports.push(patch);
        return true;
      },
      end: async () => {},
      log: async () => {},
    },
  };
}

describe("superviseConnection", () => {
  it("counts attempts up while the connection never comes up, and restarts the count after one that was up", async () => {
    const { s, reports, controller } = session();
    const outcomes: ConnectionOutcome[] = [
      { kind: "dropped", wasOnline: false, why: "refused 1" },
      { kind: "dropped", wasOnline: false, why: "refused 2" },
      { kind: "dropped", wasOnline: false, why: "refused 3" },
      // Up for a while, then the platform drops it.
      { kind: "dropped", wasOnline: true, why: "dropped after being up" },
      { kind: "dropped", wasOnline: false, why: "refused again" },
    ];
    const attempts: number[] = [];
    await superviseConnection(s, POLICY, async (attempt) => {
      attempts.push(attempt);
      const next = outcomes.shift();
      if (!next) {
        controller.abort();
        return { kind: "aborted" };
      }
      return next;
    });
    // The attempt each connect was told, and the one each "reconnecting" wait showed.
    expect(attempts).toEqual([0, 1, 2, 3, 1, 2]);
    const waits = reports.filter((r) => r.nextRetryAt).map((r) => [r.attempt, r.error]);
    expect(waits).toEqual([
      [1, "refused 1"],
      [2, "refused 2"],
      [3, "refused 3"],
      [1, "dropped after being up"],
      [2, "refused again"],
    ]);
  });
});

/**
 * Issue 34 item 2: the platform refuses a login with 452 for 10 s after the account left. A
 * 452 right after our own logout (a stop then a start, a restart, a drain) waits for that
 * window to pass — shown as reconnecting with the next try at our logout + 10 s + margin —
 * then connects; Collections (`busyOnFirst: "fail"`) waits too. Decision 0042.
 */
describe("superviseConnection: 452 right after our own logout", () => {
  const refused452: ConnectionOutcome = { kind: "refused", code: "online_or_banned", message: "Login failed: User is online or banned" };

  function run(policy: Parameters<typeof superviseConnection>[1], allowedAt: () => number | null, outcomes: ConnectionOutcome[]) {
    const t = session();
    const ends: unknown[] = [];
    const logs: string[] = [];
    const s = {
      ...t.s,
      accountId: "1001",
      reloginAllowedAt: async () => allowedAt(),
      end: async (e: unknown) => void ends.push(e),
      log: async (_type: string, message: string) => void logs.push(message),
    };
    const connectedAt: number[] = [];
    const done = superviseConnection(s, policy, async () => {
      connectedAt.push(Date.now());
      const next = outcomes.shift();
      if (next) return next;
      // Up: the runner reports active itself, then the operator stops it.
      await s.report({ actual: "active" });
      t.controller.abort();
      return { kind: "aborted" };
    });
    return { done, reports: t.reports, ends, logs, connectedAt };
  }

  it("waits until our logout + 10 s + margin (not busyRetryMs), shown as reconnecting with nextRetryAt, then connects", async () => {
    const allowed = Date.now() + 300; // our QUIT was 10.7 s ago: the window passes in 0.3 s
    const busyPolicy = { ...POLICY, busyRetryMs: 60_000 };
    const r = run(busyPolicy, () => (Date.now() < allowed ? allowed : null), [refused452]);
    await r.done;
    expect(r.ends).toEqual([]);
    const wait = r.reports.find((p) => p.actual === "reconnecting" && p.nextRetryAt);
    expect(wait).toEqual({
      actual: "reconnecting",
      attempt: 1,
      error: "Login failed: User is online or banned; we logged it out less than 10 s ago; the platform lets an account back in 10 s after it left",
      nextRetryAt: new Date(allowed),
    });
    expect(r.connectedAt).toHaveLength(2);
    expect(r.connectedAt[1]!).toBeGreaterThanOrEqual(allowed);
    expect(r.reports.at(-1)).toEqual({ actual: "active" });
    expect(r.logs.some((l) => l.includes("next try at"))).toBe(true);
  });

  it("Collections (busyOnFirst fail): a 452 after our own logout waits and connects; one with no recent logout of ours fails at once", async () => {
    const collections = { ...POLICY, firstConnect: "give-up" as const, busyOnFirst: "fail" as const };
    const allowed = Date.now() + 200;
    const ours = run(collections, () => (Date.now() < allowed ? allowed : null), [refused452]);
    await ours.done;
    expect(ours.ends).toEqual([]);
    expect(ours.connectedAt).toHaveLength(2);
    expect(ours.reports.at(-1)).toEqual({ actual: "active" });

    const notOurs = run(collections, () => null, [refused452]);
    await notOurs.done;
    expect(notOurs.ends).toEqual([{ actual: "failed", error: "Login failed: User is online or banned" }]);
    expect(notOurs.connectedAt).toHaveLength(1);
  });

  it("a 452 again after the window is the platform's own refusal: the policy's busy retries, then failed", async () => {
    const allowed = Date.now() + 100;
    const r = run(POLICY, () => (Date.now() < allowed ? allowed : null), [refused452, refused452, refused452, refused452, refused452]);
    await r.done;
    // One wait for our window, then busyRetries (3) retries, then failed.
    expect(r.connectedAt).toHaveLength(5);
    expect(r.reports.filter((p) => p.nextRetryAt).map((p) => p.error)).toEqual([
      "Login failed: User is online or banned; we logged it out less than 10 s ago; the platform lets an account back in 10 s after it left",
      "Login failed: User is online or banned; retry 1 of 3",
      "Login failed: User is online or banned; retry 2 of 3",
      "Login failed: User is online or banned; retry 3 of 3",
    ]);
    expect(r.ends).toEqual([{ actual: "failed", error: "Login failed: User is online or banned" }]);
  });
});
