/**
 * The app's wiring of a Galaxy connection, end to end: the simulator as peer, System Logs and
 * the user-agent registry in the test database (spec 2 §3 "Logs", §4 user-agent data).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { listLogs } from "~/models/log.server";
import { startSimulator, type Simulator } from "#sim/server";
import { createGalaxyConnection } from "./connection-deps.server";
import type { GalaxyConnection, GalaxyLogEntry } from "~/galaxy/connection.server";
import { GALAXY_MESSAGES as M } from "~/galaxy/messages";
import { getUserAgent } from "~/models/user-agent.server";

let sim: Simulator;
const open: GalaxyConnection[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  sim.world.reset();
  await (await getDb()).delete(logs); // each test reads only its own System Logs rows
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function connect(options: Parameters<typeof createGalaxyConnection>[0]) {
  const c = createGalaxyConnection({ url: sim.wsUrl, ...options });
  c.on("error", () => {});
  open.push(c);
  return c;
}

describe("createGalaxyConnection", () => {
  it("posts the user-agent data to the registry after login", async () => {
    const acc = sim.world.accounts.find((a) => a.kind === "stalker")!;
    const c = connect({ credentials: { recoveryCode: acc.recoveryCode }, sek: "device-token" });
    await c.connect();
    await c.idle();
    const ua = await getUserAgent(acc.id);
    expect(ua).toMatchObject({ id: acc.id, nick: acc.nick, device: "android", sek: "device-token" });
    expect(ua?.headers["X-Galaxy-Kbv"]).toBe("352");
  });

  it("writes login failures and dropped connections to System Logs with source galaxyAuth, without secrets", async () => {
    const [a, b] = sim.world.accounts.filter((x) => x.kind === "plain");
    const refused = connect({ credentials: { id: a.id, password: "e".repeat(32) } });
    await expect(refused.connect()).rejects.toMatchObject({ message: M.invalidCredentials });
    const dropped = connect({ credentials: { recoveryCode: b.recoveryCode } });
    await dropped.connect();
    const closed = new Promise((r) => dropped.once("closed", r));
    sim.sockets.dropAll();
    await closed;
    await Promise.all([refused.idle(), dropped.idle()]);
    const rows = await listLogs({ source: "galaxyAuth" });
    expect(rows.map((r) => [r.type, r.source, r.message]).sort()).toEqual([
      ["disconnect", "galaxyAuth", M.connectionLost],
      ["error", "galaxyAuth", M.invalidCredentials],
    ]);
    expect(rows.find((r) => r.type === "disconnect")?.details).toMatchObject({ accountId: b.id, nick: b.nick });
    const text = JSON.stringify(rows);
    for (const secret of ["e".repeat(32), b.password, b.recoveryCode]) expect(text).not.toContain(secret);
  });

  it("options may replace or turn off either side effect", async () => {
    const acc = sim.world.accounts.filter((x) => x.kind === "plain")[2];
    const entries: GalaxyLogEntry[] = [];
    const c = connect({ credentials: { id: acc.id, password: "0".repeat(32) }, log: (e) => void entries.push(e), onLogin: null });
    await expect(c.connect()).rejects.toMatchObject({ message: M.invalidCredentials });
    await c.idle();
    expect(entries.map((e) => e.message)).toEqual([M.invalidCredentials]);
    expect(await listLogs({ source: "galaxyAuth" })).toEqual([]);

    const quiet = connect({ credentials: { recoveryCode: acc.recoveryCode }, onLogin: null });
    await quiet.connect();
    await quiet.idle();
    expect(await getUserAgent(acc.id)).toBeNull();
  });
});
