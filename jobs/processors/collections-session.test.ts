/**
 * The Collections live connection (spec 2 §4 "Galaxy client connection", §8 "Platform login
 * codes") held by the session host in a real worker child process, against the simulator's
 * socket: connect → "connected" (the account is online on the platform), Change planet, the
 * header's disconnect → QUIT, and a refused login → the spec's text.
 */
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { GENERAL_PLANETS } from "#sim/world";
import { createTestOperator } from "#tests/kit/auth";
import { GALAXY_MESSAGES } from "~/galaxy/messages";
import { changePlanet, connectAccount, disconnectAccount, getConnection } from "~/models/collections-connection.server";
import { saveProfile } from "~/models/collections.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { deleteKeys, freePort, spawnWorker, waitFor, type WorkerChild } from "../test-helpers";

let sim: Simulator;
const children: WorkerChild[] = [];
function start(env: Record<string, string> = {}) {
  const w = spawnWorker({ GALAXY_WS_URL: sim.wsUrl, GALAXY_SERVICES_URL: sim.servicesUrl, COLLECTIONS_TIME_SCALE: "0.05", ...env });
  children.push(w);
  return w;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_WS_URL = sim.wsUrl;
  resetEnv();
});
afterEach(() => {
  for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
});
afterAll(async () => {
  await sim.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

describe("the collections session (spec 2 §4 'Galaxy client connection')", () => {
  it("connects (state connected, online on the platform), changes planet, and disconnects with QUIT", async () => {
    const a = sim.world.accounts[7]!;
    const op = await createTestOperator();
    await saveProfile(op.id, { accountId: a.id, nick: a.nick, password: a.password, loginMethod: "recovery" });
    const w = start();
    await connectAccount(a.id);
    await waitFor(`connected\n${w.output()}`, async () => (await getConnection(a.id)).state === "connected", 30_000);
    await waitFor("online in the simulator", () => sim.world.whereIs(a.id)?.online, 10_000);

    const planet = GENERAL_PLANETS.find((p) => p !== sim.world.whereIs(a.id)?.planet)!;
    await changePlanet(a.id, planet);
    await waitFor(`on ${planet}\n${w.output()}`, () => sim.world.whereIs(a.id)?.planet === planet, 15_000);
    await waitFor("planet reported", async () => (await getConnection(a.id)).planet === planet, 10_000);

    await disconnectAccount(a.id);
    await waitFor("offline in the simulator", () => !sim.world.whereIs(a.id)?.online, 15_000);
    expect((await getConnection(a.id)).state).toBe("disconnected");
    w.child.kill("SIGTERM");
    await w.exited;
  }, 60_000);

  it("a refused login ends in 'error' with the spec's 451 text, desired disconnected", async () => {
    const a = sim.world.accounts[8]!;
    const op = await createTestOperator();
    await saveProfile(op.id, { accountId: a.id, nick: a.nick, password: "not-the-password", loginMethod: "recovery" });
    const w = start();
    await connectAccount(a.id);
    await waitFor(`error\n${w.output()}`, async () => (await getConnection(a.id)).state === "error", 30_000);
    expect(await getConnection(a.id)).toMatchObject({ desired: "disconnected", error: GALAXY_MESSAGES.invalidCredentials });
    w.child.kill("SIGTERM");
    await w.exited;
  }, 60_000);

  it("a platform that cannot be reached: 2 retries, then 'error' with the text naming server down, network issues, firewall", async () => {
    const a = sim.world.accounts[9]!;
    const op = await createTestOperator();
    await saveProfile(op.id, { accountId: a.id, nick: a.nick, password: a.password, loginMethod: "recovery" });
    // A "server" that drops every connection at once, counting the attempts.
    let attempts = 0;
    const down = net.createServer((socket) => {
      attempts++;
      socket.destroy();
    });
    const port = await freePort();
    await new Promise<void>((resolve) => down.listen(port, "127.0.0.1", resolve));
    const w = start({ GALAXY_WS_URL: `ws://127.0.0.1:${port}/` });
    await connectAccount(a.id);
    await waitFor(`error\n${w.output()}`, async () => (await getConnection(a.id)).state === "error", 30_000);
    await new Promise<void>((resolve) => down.close(() => resolve()));
    expect(attempts).toBe(3); // the first try and 2 retries (spec 2 §9)
    const c = await getConnection(a.id);
    expect(c.error).toBe(GALAXY_MESSAGES.connectionFailed);
    expect(c.error).toMatch(/server down, network issues, or a firewall/);
    w.child.kill("SIGTERM");
    await w.exited;
  }, 60_000);
});
