/**
 * A GalaCord link closed before its connection exists (issue 18's lost-stop window, here in the
 * relay: a connection deleted while the link's supervisor was still writing "connecting").
 * Real sockets to the Galaxy simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { resetEnv } from "~/utils/env.server";
import { GalaxyLink } from "./galaxy-link";
import { relaySettings } from "./settings";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_WS_URL = sim.wsUrl;
  resetEnv();
});
afterAll(async () => {
  await sim?.close();
});

describe("GalaxyLink.close()", () => {
  it("a close that lands while the supervisor writes 'connecting' ends the link without logging in", async () => {
    const acc = sim.world.accounts.find((a) => a.kind === "plain")!;
    const reports: string[] = [];
    const link: GalaxyLink = new GalaxyLink(
      { accountId: acc.id, nick: acc.nick, password: acc.password, recoveryCode: acc.recoveryCode },
      "1180000000000000102",
      null,
      relaySettings(),
      { onPlanet: () => {}, onChat: () => {}, onPassword: () => {} },
      {
        holdsLock: async () => true,
        // The delete arrives while the first "connecting" write is in flight: no socket yet.
        report: async (patch) => {
          if (patch.actual) reports.push(patch.actual);
          if (patch.actual === "connecting") await link.close();
          return true;
        },
        end: async () => {},
        log: async () => {},
      },
    );
    const t0 = Date.now();
    const outcome = await Promise.race([link.run().then(() => "returned"), new Promise((r) => setTimeout(() => r("still running"), 5_000))]);
    expect(outcome).toBe("returned");
    expect(reports).not.toContain("active");
    const { open, closed } = sim.sockets.snapshot();
    expect([...open, ...closed].filter((c) => c.accountId === acc.id && Date.parse(c.openedAt) >= t0)).toHaveLength(0);
  });
});
