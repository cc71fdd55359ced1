/**
 * The Collections live connection (spec 2 §4 "Galaxy client connection", §8 "Platform login
 * codes") held by the session host in a real worker child process, against the simulator's
 * socket: connect → "connected" (the account is online on the platform), Change planet, the
 * header's disconnect → QUIT, a refused login → the spec's text, an unexpected drop → "connecting"
 * and a reconnect with backoff (as the stalker), 950 → the spec's text and no reconnect.
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
import { deleteKeys, endsWithin, freePort, spawnWorker, stopWhileConnecting, waitFor, type WorkerChild } from "../test-helpers";
import { connectionTimings, reconnectDelay, runCollectionsSession } from "./collections";

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
  await simPost("reset", {}).catch(() => {});
  await sim.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

async function simPost(path: string, body: unknown) {
  const res = await fetch(`${sim.controlUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** A saved profile of a fresh simulator account, a worker, and the connection up. */
async function connected(index: number) {
  const a = sim.world.accounts[index]!;
  const op = await createTestOperator();
  await saveProfile(op.id, { accountId: a.id, nick: a.nick, password: a.password, loginMethod: "recovery" });
  const w = start();
  await connectAccount(a.id);
  await waitFor(`connected\n${w.output()}`, async () => (await getConnection(a.id)).state === "connected", 30_000);
  await waitFor("online in the simulator", () => sim.sockets.sessions(a.id).length === 1, 10_000);
  return { a, w };
}

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
    expect(await getConnection(a.id)).toMatchObject({ desired: "stop", actual: "failed", error: GALAXY_MESSAGES.invalidCredentials });
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

  it("issue 30 A8: a worker told to stop while the first connection still waits on the platform ends it at once, not after its tries", async () => {
    const a = sim.world.accounts[10]!;
    const op = await createTestOperator();
    await saveProfile(op.id, { accountId: a.id, nick: a.nick, password: a.password, loginMethod: "recovery" });
    // A "platform" that takes the connection and never answers: each of the first connection's
    // three tries waits out its login timeout (20 s).
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    const port = await freePort();
    await new Promise<void>((resolve) => silent.listen(port, "127.0.0.1", resolve));
    try {
      const w = start({ GALAXY_WS_URL: `ws://127.0.0.1:${port}/` });
      await connectAccount(a.id);
      await waitFor(`a socket opened\n${w.output()}`, () => sockets.length > 0, 30_000);
      w.child.kill("SIGTERM");
      expect(await w.exited).toMatchObject({ code: 0 });
      // Before: Ctrl-C printed "[jobs] active jobs did not finish within 6000 ms (collections
      // session …); stopping anyway": the connect sat in its login wait, and the session handed
      // back was due at once and taken again by the closing worker itself.
      expect(w.output()).not.toMatch(/did not finish/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 90_000);

  it("spec 2 §4/§9: an unexpected drop → 'connecting', reconnected after 2 s (scaled) and 'connected' again", async () => {
    const { a, w } = await connected(10);
    const before = sim.sockets.total;
    // Issue 29: the planet it was on stays on the card while it reconnects (it joins it again).
    const was = (await waitFor("on a planet", async () => (await getConnection(a.id)).planet ?? undefined, 10_000))!;
    expect((await simPost("drop", { accountId: a.id })).dropped).toBe(1);
    // Held in "connecting" while the platform refuses the socket, past the 2 quick retries.
    await simPost("faults", { refuseConnections: true });
    try {
      const refused = sim.sockets.refused;
      await waitFor(`connecting after the drop\n${w.output()}`, async () => (await getConnection(a.id)).state === "connecting", 10_000, 20);
      await waitFor("4 refused reconnects", () => sim.sockets.refused - refused >= 4, 15_000, 20);
      // The truth while it cannot reconnect: the reason, the attempt, when the next try is. (During
      // an attempt itself there is no next try yet — supervise.ts writes nextRetryAt null — so the
      // row is read while it waits for the next one.)
      const c = (await waitFor("waiting for the next try", async () => {
        const row = await getConnection(a.id);
        return row.nextRetryAt ? row : null;
      }))!;
      expect(c).toMatchObject({ desired: "run", actual: "reconnecting", state: "connecting", planet: was, error: GALAXY_MESSAGES.connectionFailed });
      expect(c.attempt).toBeGreaterThanOrEqual(4);
      expect(c.nextRetryAt).not.toBeNull();
    } finally {
      await simPost("faults", { refuseConnections: false });
    }
    await waitFor(`connected again\n${w.output()}`, async () => (await getConnection(a.id)).state === "connected", 30_000);
    expect(await getConnection(a.id)).toMatchObject({ desired: "run", actual: "active", error: null, attempt: 0 });
    expect(sim.sockets.sessions(a.id)).toHaveLength(1);
    expect(sim.sockets.total).toBeGreaterThan(before);

    // A plain drop with the platform up: back by itself.
    const total = sim.sockets.total;
    expect((await simPost("drop", { accountId: a.id })).dropped).toBe(1);
    await waitFor(`a new socket\n${w.output()}`, () => sim.sockets.total > total && sim.sockets.sessions(a.id).length === 1, 15_000, 20);
    await waitFor("connected after the second drop", async () => (await getConnection(a.id)).state === "connected", 15_000);

    await disconnectAccount(a.id);
    await waitFor("offline after disconnect", () => sim.sockets.sessions(a.id).length === 0, 15_000);
    w.child.kill("SIGTERM");
    await w.exited;
  }, 90_000);

  it("reconnect backoff: 2 retries 2 s apart, then doubling, capped at 5 minutes (as the stalker)", () => {
    const t = { ...connectionTimings(), retryMs: 2_000, backoffMaxMs: 300_000 };
    expect([1, 2, 3, 4, 5, 9, 20].map((i) => reconnectDelay(i, t))).toEqual([2_000, 2_000, 4_000, 8_000, 16_000, 256_000, 300_000]);
  });

  it("a disconnect while reconnecting ends it: no new socket, state 'disconnected'", async () => {
    const { a, w } = await connected(11);
    await simPost("faults", { refuseConnections: true });
    const refused = sim.sockets.refused;
    expect((await simPost("drop", { accountId: a.id })).dropped).toBe(1);
    await waitFor("a refused reconnect", () => sim.sockets.refused > refused, 10_000, 20);
    await disconnectAccount(a.id);
    await simPost("faults", { refuseConnections: false });
    await new Promise((r) => setTimeout(r, 1_500)); // several (scaled) reconnect delays
    expect(sim.sockets.sessions(a.id)).toHaveLength(0);
    expect(await getConnection(a.id)).toMatchObject({ desired: "stop", state: "disconnected" });
    w.child.kill("SIGTERM");
    await w.exited;
  }, 60_000);

  it("a stop that lands while it is still writing 'connecting' (before the socket exists) ends it without logging in", async () => {
    const a = sim.world.accounts[20]!;
    const op = await createTestOperator();
    await saveProfile(op.id, { accountId: a.id, nick: a.nick, password: a.password, loginMethod: "recovery" });
    const { ctx, reports } = stopWhileConnecting("collections", a.id);
    const t0 = Date.now();
    expect(await endsWithin(runCollectionsSession(ctx))).toBe("returned");
    expect(reports).not.toContain("active");
    const { open, closed } = sim.sockets.snapshot();
    expect([...open, ...closed].filter((c) => c.accountId === a.id && Date.parse(c.openedAt) >= t0)).toHaveLength(0);
  });

  it("spec 2 §8 950: 'You login from another device', state 'error', no reconnect", async () => {
    const { a, w } = await connected(12);
    const total = sim.sockets.total;
    expect((await simPost("another-device", { accountId: a.id })).sent).toBe(1);
    await waitFor(`error\n${w.output()}`, async () => (await getConnection(a.id)).state === "error", 15_000);
    expect(await getConnection(a.id)).toMatchObject({ desired: "stop", state: "error", error: GALAXY_MESSAGES.anotherDevice });
    await new Promise((r) => setTimeout(r, 1_000)); // several (scaled) reconnect delays
    expect(sim.sockets.total).toBe(total);
    expect(sim.sockets.sessions(a.id)).toHaveLength(0);
    w.child.kill("SIGTERM");
    await w.exited;
  }, 60_000);

  it("452 on a reconnect: retried after 12 s (scaled) up to 3 times, then 'error' with 'Login failed: User is online or banned'", async () => {
    const { a, w } = await connected(13);
    await simPost("faults", { loginCode: 452, loginCodeAccounts: [a.id] });
    try {
      const total = sim.sockets.total;
      expect((await simPost("drop", { accountId: a.id })).dropped).toBe(1);
      await waitFor(`a 452 retry\n${w.output()}`, async () => /retry \d of 3$/.test((await getConnection(a.id)).error ?? ""), 15_000, 20);
      expect((await getConnection(a.id)).state).toBe("connecting");
      await waitFor(`error\n${w.output()}`, async () => (await getConnection(a.id)).state === "error", 30_000);
      expect(await getConnection(a.id)).toMatchObject({ desired: "stop", error: GALAXY_MESSAGES.onlineOrBanned });
      expect(sim.sockets.total - total).toBe(4); // the reconnect and 3 retries
    } finally {
      await simPost("faults", { loginCode: null, loginCodeAccounts: null });
    }
    w.child.kill("SIGTERM");
    await w.exited;
  }, 60_000);

  it("issue 29: keeps its planet across reconnects (the card and the platform agree after each drop)", async () => {
    const { a, w } = await connected(14);
    const home = sim.world.whereIs(a.id)?.planet;
    const planet = GENERAL_PLANETS.find((p) => p !== home)!;
    await changePlanet(a.id, planet);
    await waitFor("planet reported", async () => (await getConnection(a.id)).planet === planet, 10_000);
    for (let round = 0; round < 3; round++) {
      const total = sim.sockets.total;
      expect((await simPost("drop", { accountId: a.id })).dropped).toBe(1);
      await waitFor(`a new socket (round ${round})\n${w.output()}`, () => sim.sockets.total > total && sim.sockets.sessions(a.id).length === 1, 15_000, 20);
      await waitFor(`connected again (round ${round})`, async () => (await getConnection(a.id)).state === "connected", 15_000);
      // On the same planet at the platform, and the card says so (it settles once the JOIN's answer is written).
      await waitFor(`on ${planet} at the platform (round ${round})`, () => sim.world.whereIs(a.id)?.planet === planet, 10_000);
      await waitFor(`the card says ${planet} (round ${round})`, async () => (await getConnection(a.id)).planet === planet, 5_000);
      // And stays so (no late write of "none").
      await new Promise((r) => setTimeout(r, 300));
      expect((await getConnection(a.id)).planet).toBe(planet);
    }
    await disconnectAccount(a.id);
    w.child.kill("SIGTERM");
    await w.exited;
  }, 90_000);
});
