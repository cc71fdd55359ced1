/**
 * The "recently left" window (issue 34 item 2, simulator side only): reference §4, 452 "the
 * account is still online; come back 10 s after leaving". Only a session that left with a
 * QUIT starts it. This file sets a short window on purpose (its subject is the window itself);
 * the simulator's default is 10 s (decision 0042: the product waits its own logout's window out).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GalaxyConnection } from "~/galaxy/connection.server";
import { simOptionsFromEnv } from "./main";
import { startSimulator, type Simulator } from "./server";

const WINDOW_MS = 400;
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0, reloginWindowMs: WINDOW_MS });
});
afterAll(async () => {
  await sim.close();
});

function conn(recoveryCode: string) {
  const c = new GalaxyConnection({ url: sim.wsUrl, credentials: { recoveryCode }, log: () => {}, retries: 0 });
  c.on("error", () => {});
  return c;
}

describe("sim: login within the window after a QUIT gets 452", () => {
  it("QUIT, then a login at once: 452 'User is online or banned'; after the window it passes", async () => {
    const acc = sim.world.accounts.find((a) => a.kind === "stalker")!;
    const first = conn(acc.recoveryCode);
    await first.connect();
    await first.close(); // sends QUIT :ds
    await expect(conn(acc.recoveryCode).connect()).rejects.toMatchObject({ code: "online_or_banned" });
    await new Promise((r) => setTimeout(r, WINDOW_MS + 100));
    const again = conn(acc.recoveryCode);
    await expect(again.connect()).resolves.toBeTruthy();
    await again.close();
  });

  it("a socket that closed without QUIT does not start the window", async () => {
    const acc = sim.world.accounts.filter((a) => a.kind === "stalker")[1]!;
    const first = conn(acc.recoveryCode);
    await first.connect();
    expect(sim.sockets.dropAccount(acc.id)).toBe(1);
    const next = conn(acc.recoveryCode);
    await expect(next.connect()).resolves.toBeTruthy();
    await next.close();
    await first.close();
  });

  it("SIM_RELOGIN_WINDOW_MS sets it; unset is 10 s; 0 turns it off", () => {
    expect(simOptionsFromEnv({ ...process.env, SIM_RELOGIN_WINDOW_MS: "2500" }).reloginWindowMs).toBe(2_500);
    expect(simOptionsFromEnv({ ...process.env, SIM_RELOGIN_WINDOW_MS: "" }).reloginWindowMs).toBe(10_000);
    expect(simOptionsFromEnv({ ...process.env, SIM_RELOGIN_WINDOW_MS: "0" }).reloginWindowMs).toBe(0);
  });

  it("a simulator started without the option has the 10 s window on; reloginWindowMs 0 turns it off", async () => {
    for (const [options, expected] of [
      [{}, "online_or_banned"],
      [{ reloginWindowMs: 0 }, null],
    ] as const) {
      const other = await startSimulator({ port: 0, pingIntervalMs: 0, ...options });
      try {
        const acc = other.world.accounts.find((a) => a.kind === "stalker")!;
        const mk = () => {
          const c = new GalaxyConnection({ url: other.wsUrl, credentials: { recoveryCode: acc.recoveryCode }, log: () => {}, retries: 0 });
          c.on("error", () => {});
          return c;
        };
        const first = mk();
        await first.connect();
        await first.close();
        const second = mk();
        const outcome = await second.connect().then(
          () => null,
          (e: { code?: string }) => e.code ?? "other",
        );
        await second.close();
        expect(outcome).toBe(expected);
      } finally {
        await other.close();
      }
    }
  });
});
