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
