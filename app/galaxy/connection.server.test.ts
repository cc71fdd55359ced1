/**
 * GalaxyConnection against the simulator (a real protocol peer on loopback; never mocked).
 * Spec 2 §4 "Galaxy client connection", §8 "Platform login codes", §9 "Socket retries, delay".
 *
 * Its side effects are collected here through the `log` and `onLogin` options; the app's
 * wiring of them (System Logs, user-agent registry) is tested in app/platform/connection-deps.server.test.ts.
 */
import fs from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { encryptSecret } from "~/utils/secrets.server";
import { startSimulator, type Simulator } from "#sim/server";
import type { SimAccount } from "#sim/world";
import { GALAXY_MESSAGES as M } from "./messages";
import { GalaxyError, GalaxyConnection, type GalaxyConnectionOptions, type GalaxyLogEntry, type GalaxyState, type LoggedInContext } from "./connection.server";
import type { PlanetUser } from "./protocol";

let sim: Simulator;
const connections: GalaxyConnection[] = [];
/** What the connections of the current test reported (System Logs rows in the app). */
let logged: GalaxyLogEntry[] = [];
/** The after-login calls of the current test (the app posts the user-agent data). */
let logins: LoggedInContext[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await control("reset", {});
  logged = [];
  logins = [];
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((s) => s.close()));
});

async function control(path: string, body?: unknown) {
  const res = await fetch(
    `${sim.controlUrl}${path}`,
    body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  expect(res.status, `${path} → ${res.status}`).toBe(200);
  return res.json();
}

function account(kind: NonNullable<SimAccount["kind"]>, index = 0): SimAccount {
  return sim.world.accounts.filter((a) => a.kind === kind)[index];
}

function connection(options: Partial<GalaxyConnectionOptions> & Pick<GalaxyConnectionOptions, "credentials">) {
  const s = new GalaxyConnection({
    url: sim.wsUrl,
    log: (entry) => void logged.push(entry),
    onLogin: (ctx) => void logins.push(ctx),
    ...options,
  });
  s.on("error", () => {}); // individual tests collect errors themselves
  connections.push(s);
  return s;
}

async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function nextUsers(s: GalaxyConnection, pred: (u: readonly PlanetUser[]) => boolean = () => true) {
  return new Promise<readonly PlanetUser[]>((resolve) => {
    const on = (users: readonly PlanetUser[]) => {
      if (!pred(users)) return;
      s.off("users", on);
      resolve(users);
    };
    s.on("users", on);
  });
}

function collect(s: GalaxyConnection) {
  const states: GalaxyState[] = [];
  const errors: GalaxyError[] = [];
  s.on("state", (st) => states.push(st));
  s.on("error", (e) => errors.push(e));
  return { states, errors };
}

/** The simulator's record of what a client sent, open or closed. */
async function simConnections(accountId?: string) {
  const snap = (await control("connections")) as { open: Conn[]; closed: Conn[]; refused: number; total: number };
  const all = [...snap.closed, ...snap.open];
  return { ...snap, all: accountId ? all.filter((c) => c.accountId === accountId) : all };
}
type Conn = {
  id: number;
  accountId: string | null;
  received: string[];
  quit: string | null;
  pongs: number;
  pings: number;
  state: string;
  clientInfo: Record<string, string>;
};

/** The reported rows, once the connections' background work is done. */
async function authLogs() {
  await Promise.all(connections.map((c) => c.idle()));
  return logged;
}

describe("login (spec 2 §4: greet, auth code, recovery code or user and password)", () => {
  it("logs in by recovery code: IDENT, RECOVER → REGISTER → USER → 999, client info, JOIN, user-agent data", async () => {
    const acc = account("bowling");
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode } });
    const { states } = collect(s);
    const loggedIn = new Promise((r) => s.once("loggedIn", r));
    const users = nextUsers(s);
    const info = await s.connect();
    expect(info).toEqual({ id: acc.id, password: acc.password, nick: acc.nick });
    expect(await loggedIn).toEqual(info);
    expect(states).toEqual(["connecting", "connected"]);
    expect(s.state).toBe("connected");

    // A bare JOIN lands on the account's home planet; the list includes ourselves.
    const list = await users;
    expect(s.planet?.name).toBe(acc.homePlanet);
    expect(list.map((u) => u.id)).toContain(acc.id);
    expect(sim.world.whereIs(acc.id)).toEqual({ online: true, planet: acc.homePlanet });

    const [conn] = (await simConnections(acc.id)).all;
    expect(conn.received.slice(0, 8)).toEqual([
      ":en IDENT 352 -2 4030 1 2 :GALA",
      "RECOVER [redacted]",
      "USER [redacted]",
      "FWLISTVER 0",
      "ADDONS 0 0",
      "MYADDONS 0 0", // the official client sends two numbers (issue 34 item 4)
      "PHONE 700 675 0 2 :chrome 137.0.0.0",
      "JOIN",
    ]);

    // "After 999 it posts the account's user-agent data."
    await s.idle();
    expect(logins).toEqual([{ accountId: acc.id, nick: acc.nick, record: expect.objectContaining({ id: acc.id, nick: acc.nick, device: "web", sek: null }) }]);
    expect(logins[0].record.headers["X-Galaxy-Kbv"]).toBe("352");
  });

  it("logs in with a stored id and password (USER right after HAAAPSI), also in encrypted form", async () => {
    const acc = account("stalker");
    const s = connection({ credentials: { id: acc.id, password: encryptSecret(acc.password), nick: acc.nick }, planet: "Cannon*4", sek: "device-token" });
    const users = nextUsers(s);
    expect(await s.connect()).toEqual({ id: acc.id, password: acc.password, nick: acc.nick });
    await users;
    expect(s.planet).toEqual({ name: "Cannon*4", capacity: 35, closed: false, mode: 2 });
    const [conn] = (await simConnections(acc.id)).all;
    expect(conn.received).not.toContain("RECOVER [redacted]");
    expect(conn.received[1]).toBe("USER [redacted]");
    expect(conn.received).toContain("JOIN Cannon*4");
    await s.idle();
    expect(logins.map((l) => l.record)).toEqual([expect.objectContaining({ id: acc.id, device: "android", sek: "device-token" })]);
  });

  it("is refused with a wrong auth code (451 → Login failed: Invalid credentials), logged to galaxyAuth", async () => {
    const acc = account("plain");
    const before = sim.world.whereIs(acc.id);
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode }, authCode: () => "0000000000" });
    const { errors } = collect(s);
    const err = await s.connect().catch((e: GalaxyError) => e);
    expect(err).toBeInstanceOf(GalaxyError);
    expect(err).toMatchObject({ message: M.invalidCredentials, code: "invalid_credentials", numeric: "451" });
    expect(s.state).toBe("error");
    expect(errors.map((e) => e.message)).toEqual([M.invalidCredentials]);
    await s.idle();
    const logs = await authLogs();
    expect(logs.map((l) => [l.type, l.message])).toEqual([["error", M.invalidCredentials]]);
    // REGISTER had named the account before USER was refused.
    expect(logs[0].details).toEqual({
      accountId: acc.id,
      nick: acc.nick,
      server: new URL(sim.wsUrl).host,
      code: "451",
      attempts: 1,
      cause: expect.any(String),
    });
    expect(sim.world.whereIs(acc.id)).toEqual(before);
  });

  it("451 on stored credentials retries once with the known recovery code (spec 2 §8)", async () => {
    const acc = account("trader");
    const s = connection({ credentials: { id: acc.id, password: "f".repeat(32), nick: acc.nick, recoveryCode: acc.recoveryCode } });
    const { states } = collect(s);
    const info = await s.connect();
    expect(info.password).toBe(acc.password); // the new password from REGISTER
    expect(states).toEqual(["connecting", "connected"]);
    const conns = (await simConnections()).all;
    expect(conns).toHaveLength(2);
    expect(conns[0].received).not.toContain("RECOVER [redacted]");
    expect(conns[1].received).toContain("RECOVER [redacted]");
    await s.idle();
    expect((await authLogs()).map((l) => l.type)).toEqual(["info"]);
  });

  it("451 without a recovery code fails without retrying", async () => {
    const acc = account("trader", 1);
    const s = connection({ credentials: { id: acc.id, password: "0".repeat(32), nick: acc.nick } });
    await expect(s.connect()).rejects.toMatchObject({ message: M.invalidCredentials });
    expect((await simConnections()).total).toBe(1);
  });

  it("452 → Login failed: User is online or banned", async () => {
    await control("faults", { loginCode: 452 });
    const s = connection({ credentials: { recoveryCode: account("plain", 1).recoveryCode } });
    await expect(s.connect()).rejects.toMatchObject({ message: M.onlineOrBanned, code: "online_or_banned", numeric: "452" });
    expect(s.state).toBe("error");
    expect((await simConnections()).total).toBe(1); // a login refusal is not a connection error
  });

  it("601 → Please try to come later.", async () => {
    await control("faults", { loginCode: 601 });
    const s = connection({ credentials: { recoveryCode: account("plain", 2).recoveryCode } });
    await expect(s.connect()).rejects.toMatchObject({ message: M.comeLater, code: "come_later", numeric: "601" });
  });

  it("950 → You login from another device, and the connection closes", async () => {
    const acc = account("plain", 3);
    await control("faults", { loginCode: 950, loginCodeAccounts: [acc.id] });
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode } });
    const { states, errors } = collect(s);
    const closed = new Promise<{ expected: boolean }>((r) => s.once("closed", r));
    await s.connect();
    expect((await closed).expected).toBe(true);
    expect(errors.map((e) => [e.message, e.numeric])).toEqual([[M.anotherDevice, "950"]]);
    expect(states).toEqual(["connecting", "connected", "disconnected"]);
    await s.idle();
    expect((await authLogs()).map((l) => [l.type, l.message])).toEqual([["disconnect", M.anotherDevice]]);
  });

  it("a second login of the same account takes the first over (950 on the first)", async () => {
    const acc = account("supplier");
    const first = connection({ credentials: { recoveryCode: acc.recoveryCode } });
    const { errors } = collect(first);
    await first.connect();
    const closed = new Promise((r) => first.once("closed", r));
    const second = connection({ credentials: { id: acc.id, password: acc.password, nick: acc.nick } });
    await second.connect();
    await closed;
    expect(errors.map((e) => e.message)).toEqual([M.anotherDevice]);
    expect(first.state).toBe("disconnected");
    expect(second.state).toBe("connected");
    expect(sim.world.whereIs(acc.id).online).toBe(true);
  });

  it("without credentials it fails at once", async () => {
    const s = connection({ credentials: {} });
    await expect(s.connect()).rejects.toMatchObject({ message: M.noCredentials });
  });
});

describe("secure socket (spec 2 §4: it opens a secure socket)", () => {
  it("connects over wss to a self-signed peer only when insecure TLS is allowed", async () => {
    const pem = (f: string) => fs.readFileSync(new URL(`../../sim/fixtures/${f}`, import.meta.url));
    const tlsSim = await startSimulator({ port: 0, pingIntervalMs: 0, tls: { key: pem("localhost-key.pem"), cert: pem("localhost-cert.pem") } });
    try {
      expect(tlsSim.wsUrl).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/$/);
      const acc = tlsSim.world.accounts[0];
      const strict = connection({ url: tlsSim.wsUrl, insecureTls: false, retries: 0, credentials: { recoveryCode: acc.recoveryCode } });
      await expect(strict.connect()).rejects.toMatchObject({ code: "connection", serverText: expect.stringMatching(/self[- ]signed/i) });
      const relaxed = connection({ url: tlsSim.wsUrl, insecureTls: true, credentials: { recoveryCode: acc.recoveryCode } });
      expect((await relaxed.connect()).id).toBe(acc.id);
      await relaxed.close();
    } finally {
      await tlsSim.close();
    }
  });
});

describe("connection errors (spec 2 §4, §9: 2 retries, 2 s apart)", () => {
  it("a refused connection is retried twice 2 s apart, then fails naming server down, network issues, firewall", async () => {
    await control("faults", { refuseConnections: true });
    const s = connection({ credentials: { recoveryCode: account("plain", 4).recoveryCode } });
    const { states, errors } = collect(s);
    // Note when each attempt reaches the simulator (an observer on the peer, not a mock).
    const attempts: number[] = [];
    const upgrade = sim.sockets.handleUpgrade;
    sim.sockets.handleUpgrade = (...args) => {
      attempts.push(Date.now());
      upgrade.apply(sim.sockets, args);
    };
    const err = (await s.connect().catch((e: GalaxyError) => e)) as GalaxyError;
    sim.sockets.handleUpgrade = upgrade;
    expect(sim.sockets.refused).toBe(3);
    expect(err).toMatchObject({ code: "connection" });
    expect(err.message).toBe(M.connectionFailed);
    expect(err.message).toMatch(/server down/);
    expect(err.message).toMatch(/network issues/);
    expect(err.message).toMatch(/firewall/);
    expect(states).toEqual(["connecting", "error"]);
    expect(errors).toHaveLength(1);
    // Order and spacing only: each retry comes after the 2 s pause (a lower bound, never exact).
    expect(attempts).toHaveLength(3);
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(1900);
    expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(1900);
    await s.idle();
    expect((await authLogs()).map((l) => [l.type, l.message])).toEqual([["error", M.connectionFailed]]);
  }, 20_000);

  it("nothing listening (ECONNREFUSED) is retried too", async () => {
    const other = await startSimulator({ port: 0, pingIntervalMs: 0 });
    const url = other.wsUrl;
    await other.close();
    const s = connection({ url, credentials: { recoveryCode: "AAAAAAAAAA" }, retryDelayMs: 50 });
    await expect(s.connect()).rejects.toMatchObject({ code: "connection", message: M.connectionFailed, serverText: expect.stringMatching(/ECONNREFUSED/) });
  });

  it("a connection that works on the second attempt connects", async () => {
    await control("faults", { refuseConnections: true });
    const s = connection({ credentials: { recoveryCode: account("plain", 5).recoveryCode }, retryDelayMs: 1000 });
    const p = s.connect();
    await waitFor(() => sim.sockets.refused >= 1, "first refusal");
    await control("faults", { refuseConnections: false });
    await expect(p).resolves.toMatchObject({ id: account("plain", 5).id });
    expect(sim.sockets.refused).toBe(1);
  });

  it("a dropped connection → state error, closed, and a galaxyAuth disconnect row", async () => {
    const acc = account("bowling", 1);
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode } });
    await s.connect();
    const { states, errors } = collect(s);
    const closed = new Promise<{ expected: boolean }>((r) => s.once("closed", r));
    expect((await control("faults", { dropConnections: true })).dropped).toBe(1);
    expect((await closed).expected).toBe(false);
    expect(states).toEqual(["error"]);
    expect(errors.map((e) => [e.code, e.message])).toEqual([["connection_lost", M.connectionLost]]);
    expect(s.planet).toBeNull();
    await s.idle();
    const logs = await authLogs();
    expect(logs.map((l) => [l.type, l.message])).toEqual([["disconnect", M.connectionLost]]);
    expect(logs[0].details).toMatchObject({ accountId: acc.id });
    expect(sim.world.whereIs(acc.id).online).toBe(false);
  });

  it("close() during the retry pause stops retrying", async () => {
    await control("faults", { refuseConnections: true });
    const s = connection({ credentials: { recoveryCode: account("plain", 6).recoveryCode } });
    const p = s.connect().catch((e: GalaxyError) => e);
    await waitFor(() => sim.sockets.refused >= 1, "first refusal");
    await s.close();
    expect(await p).toMatchObject({ code: "closed" });
    expect(s.state).toBe("disconnected");
    expect(sim.sockets.refused).toBe(1);
  });
});

describe("planets (spec 2 §4: changing planet; reference §5.3 tracking)", () => {
  it("changing planet while not connected → Not connected to Galaxy", async () => {
    const s = connection({ credentials: { recoveryCode: account("plain", 7).recoveryCode } });
    await expect(s.joinPlanet("Galaxy")).rejects.toMatchObject({ message: M.notConnected, code: "not_connected" });
    await s.connect();
    await s.close();
    await expect(s.joinPlanet("Galaxy")).rejects.toMatchObject({ message: M.notConnected });
    expect(() => s.send("PRIVMSG", [0, 0], "hi")).toThrow(M.notConnected);
  });

  it("tracks the planet and its users through 900, 353/366, JOIN, PART and SLEEP", async () => {
    const acc = account("trader", 2);
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode }, planet: "Cannon*7" });
    const planets: (string | null)[] = [];
    s.on("planet", (p) => planets.push(p?.name ?? null));
    const first = nextUsers(s);
    await s.connect();
    const users = await first;
    const expected = sim.world.occupants("Cannon*7");
    expect(users.map((u) => u.id)).toEqual(expected);
    expect(users.find((u) => u.role === "owner")?.nick).toBe("Cannon*7"); // the game bot
    expect(planets).toEqual(["Cannon*7"]);

    // Someone arrives (JOIN with gender), falls asleep (SLEEP), another arrives and leaves (PART).
    const [a, b] = sim.world.accounts.filter((x) => x.kind === "recipient" && !sim.world.whereIs(x.id).online);
    let next = nextUsers(s, (u) => u.some((x) => x.id === a.id));
    await control("presence", { id: a.id, planet: "Cannon*7" });
    const joined = (await next).find((u) => u.id === a.id)!;
    expect(joined).toMatchObject({ nick: a.nick, gender: a.gender });
    next = nextUsers(s, (u) => !u.some((x) => x.id === a.id));
    await control("presence", { id: a.id, planet: null, how: "sleep" });
    await next;
    next = nextUsers(s, (u) => u.some((x) => x.id === b.id));
    await control("presence", { id: b.id, planet: "Cannon*7" });
    await next;
    next = nextUsers(s, (u) => !u.some((x) => x.id === b.id));
    await control("presence", { id: b.id, planet: "Galaxy" });
    await next;
    expect(s.users.map((u) => u.id).sort()).toEqual(sim.world.occupants("Cannon*7").sort());

    // Flying elsewhere replaces planet and list.
    const info = await s.joinPlanet("RingToss*3");
    expect(info.name).toBe("RingToss*3");
    expect(s.planet?.name).toBe("RingToss*3");
    expect(s.users.map((u) => u.id)).toEqual(sim.world.occupants("RingToss*3"));
    expect(sim.world.whereIs(acc.id)).toEqual({ online: true, planet: "RingToss*3" });
    expect(sim.world.occupants("Cannon*7")).not.toContain(acc.id);
  });

  it("a KICK of someone else removes them; our own KICK, or PRISON, takes us off the planet", async () => {
    const acc = account("stalker", 1);
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode }, planet: "Cannon*9" });
    const ready = nextUsers(s);
    await s.connect();
    const listed = await ready;
    const other = listed.find((u) => u.id !== acc.id)!;
    const planets: (string | null)[] = [];
    s.on("planet", (p) => planets.push(p?.name ?? null));

    let next = nextUsers(s);
    await control("send", { accountId: acc.id, line: `:Cannon*9 KICK ${other.id} 0 :bye\r\n` });
    expect((await next).map((u) => u.id)).toEqual(listed.filter((u) => u.id !== other.id).map((u) => u.id));
    expect(s.planet?.name).toBe("Cannon*9");

    next = nextUsers(s);
    await control("send", { accountId: acc.id, line: `:Cannon*9 KICK ${acc.id} 1 :out\r\n` });
    expect(await next).toEqual([]);
    expect(planets).toEqual([null]);
    expect(s.planet).toBeNull();
    expect(s.state).toBe("connected");

    // Back on a planet, then imprisoned.
    await s.joinPlanet("Galaxy");
    next = nextUsers(s);
    await control("send", { accountId: acc.id, line: ":Warden PRISON 0 :caught\r\n" });
    expect(await next).toEqual([]);
    expect(planets).toEqual([null, "Galaxy", null]);
  });

  it("sees another client's JOIN and PART on its planet", async () => {
    const [x, y] = [account("recipient", 2), account("recipient", 3)];
    const sx = connection({ credentials: { recoveryCode: x.recoveryCode }, planet: "Bowling*2" });
    const ready = nextUsers(sx);
    await sx.connect();
    await ready;
    const arrived = nextUsers(sx, (u) => u.some((v) => v.id === y.id));
    const sy = connection({ credentials: { recoveryCode: y.recoveryCode }, planet: "Bowling*2" });
    await sy.connect();
    await arrived;
    const left = nextUsers(sx, (u) => !u.some((v) => v.id === y.id));
    await sy.close();
    await left;
  });

  it("a full planet answers 471 (This Planet is full!), unknown 403, closed 473; the connection stays connected", async () => {
    const s = connection({ credentials: { recoveryCode: account("plain", 8).recoveryCode }, planet: "Galaxy" });
    const { errors } = collect(s);
    await s.connect();
    await control("faults", { fullPlanets: ["Cannon*3"] });
    await expect(s.joinPlanet("Cannon*3")).rejects.toMatchObject({ message: M.planetFull, code: "join", numeric: "471" });
    await expect(s.joinPlanet("Tiny")).rejects.toMatchObject({ numeric: "471" }); // full by head-count
    await expect(s.joinPlanet("Nowhere*99")).rejects.toMatchObject({ message: M.noSuchPlanet, numeric: "403" });
    await expect(s.joinPlanet("Vault")).rejects.toMatchObject({ message: M.planetLocked, numeric: "473" });
    await expect(s.joinPlanet("two words")).rejects.toMatchObject({ message: M.invalidPlanet });
    expect(errors.map((e) => e.numeric)).toEqual(["471", "471", "403", "473"]);
    expect(s.state).toBe("connected");
    expect((await s.joinPlanet("Cannon*4")).name).toBe("Cannon*4");
  });
});

describe("side effects passed in (log, onLogin)", () => {
  it("a failing onLogin is reported and the connection stays connected", async () => {
    const acc = account("plain", 15);
    const s = connection({
      credentials: { recoveryCode: acc.recoveryCode },
      onLogin: async () => {
        throw new Error("registry down");
      },
    });
    await s.connect();
    await s.idle();
    expect(logged).toEqual([{ type: "error", message: M.userAgentFailed, details: expect.objectContaining({ accountId: acc.id, cause: "registry down" }) }]);
    expect(s.state).toBe("connected");
  });

  it("a logger that throws or rejects does not disturb the connection", async () => {
    const acc = account("plain", 16);
    const calls: string[] = [];
    const throwing = connection({
      credentials: { id: acc.id, password: "1".repeat(32) },
      log: (entry) => {
        calls.push(entry.message);
        throw new Error("log store down");
      },
    });
    await expect(throwing.connect()).rejects.toMatchObject({ message: M.invalidCredentials });
    const rejecting = connection({
      credentials: { recoveryCode: acc.recoveryCode },
      log: async (entry) => {
        calls.push(entry.message);
        throw new Error("log store down");
      },
    });
    await rejecting.connect();
    await control("faults", { dropConnections: true });
    await waitFor(() => rejecting.state === "error", "drop");
    await Promise.all([throwing.idle(), rejecting.idle()]);
    expect(calls).toEqual([M.invalidCredentials, M.connectionLost]);
  });

  it("without log and onLogin nothing is reported and nothing runs after login", async () => {
    const acc = account("plain", 17);
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode }, log: null, onLogin: null });
    await s.connect();
    await control("faults", { dropConnections: true });
    await waitFor(() => s.state === "error", "drop");
    expect(await authLogs()).toEqual([]);
    expect(logins).toEqual([]);
  });
});

describe("keepalive, notices, malformed lines, logout", () => {
  it("answers the server's PING with PONG", async () => {
    const acc = account("plain", 9);
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode } });
    await s.connect();
    expect((await control("ping", { accountId: acc.id })).sent).toBe(1);
    const conn = await waitFor(async () => (await simConnections(acc.id)).all.find((c) => c.pongs === 1), "PONG");
    expect(conn.pings).toBe(1);
    expect(conn.received.at(-1)).toBe("PONG");
  });

  it("a malformed line is emitted as an error and the connection carries on", async () => {
    const acc = account("plain", 10);
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode } });
    const ready = nextUsers(s);
    await s.connect();
    await ready;
    const { errors, states } = collect(s);
    await control("send", { accountId: acc.id, line: ":srv\r\n353 1 = Galaxy :- Nick notanid 0 1\r\nJOIN - Half\r\n" });
    await waitFor(() => errors.length >= 3, "three protocol errors");
    expect(errors.map((e) => e.code)).toEqual(["protocol", "protocol", "protocol"]);
    expect(errors[0].message).toMatch(new RegExp(`^${M.malformedLine}`));
    expect(states).toEqual([]);
    expect(s.state).toBe("connected");
    await control("ping", { accountId: acc.id });
    await waitFor(async () => (await simConnections(acc.id)).all.find((c) => c.pongs === 1), "PONG after the bad lines");
  });

  it("without an error listener a malformed line does not crash", async () => {
    const acc = account("plain", 11);
    const s = new GalaxyConnection({ url: sim.wsUrl, credentials: { recoveryCode: acc.recoveryCode } });
    connections.push(s);
    await s.connect();
    await control("send", { accountId: acc.id, line: ":srv\r\n" });
    await control("ping", { accountId: acc.id });
    await waitFor(async () => (await simConnections(acc.id)).all.find((c) => c.pongs === 1), "PONG");
    expect(s.state).toBe("connected");
  });

  it("assembles 850 notices sent in chunks", async () => {
    const acc = account("plain", 12);
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode } });
    await s.connect();
    const notice = new Promise((r) => s.once("notice", r));
    await control("send", { accountId: acc.id, line: ":Prison 850 5 0 :<p>part one,\r\n850 5 1 : part two</p>\r\n" });
    expect(await notice).toEqual({ id: "5", title: "Prison", html: "<p>part one, part two</p>" });
  });

  it("sends QUIT :ds on close and goes offline", async () => {
    const acc = account("plain", 13);
    const s = connection({ credentials: { recoveryCode: acc.recoveryCode } });
    await s.connect();
    const { states } = collect(s);
    const closed = new Promise<{ expected: boolean }>((r) => s.once("closed", r));
    await s.close();
    expect((await closed).expected).toBe(true);
    expect(states).toEqual(["disconnected"]);
    const conn = await waitFor(async () => (await simConnections(acc.id)).closed.find((c) => c.accountId === acc.id), "closed connection");
    expect(conn.quit).toBe("ds");
    expect(conn.received.at(-1)).toBe("QUIT :ds");
    expect(sim.world.whereIs(acc.id)).toEqual({ online: false, planet: null });
    expect(await authLogs()).toEqual([]); // a wanted logout is not a disconnect to log
  });

  it("never reports passwords or recovery codes", async () => {
    const acc = account("plain", 14);
    const a = connection({ credentials: { id: acc.id, password: "e".repeat(32), recoveryCode: "ZZZZZZZZZZ" } });
    await a.connect().catch(() => {});
    const b = connection({ credentials: { recoveryCode: acc.recoveryCode } });
    await b.connect();
    await control("faults", { dropConnections: true });
    await waitFor(() => b.state === "error", "drop");
    await Promise.all([a.idle(), b.idle()]);
    const text = JSON.stringify(await authLogs());
    expect(text).toContain(M.invalidCredentials);
    expect(text).toContain(M.connectionLost);
    for (const secret of [acc.password, acc.recoveryCode, "e".repeat(32), "ZZZZZZZZZZ"]) expect(text).not.toContain(secret);
    expect(JSON.stringify(b)).not.toContain(acc.password);
  });
});
