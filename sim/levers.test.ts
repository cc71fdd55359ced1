/**
 * Simulator levers for the stalker (galaxy-runtime.md §1.3 "Simulator requirements"): moving
 * scripted users on a seeded schedule, KICK / PRISON / 950 / socket-close injection, USER
 * field count, and the drop after 2 unanswered PINGs. Real sockets (GalaxyConnection) and
 * the real control endpoint.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GalaxyConnection } from "~/galaxy/connection.server";
import type { GalaxyLine } from "~/galaxy/protocol";
import { NpcMover } from "./npcs";
import { startSimulator, type Simulator } from "./server";
import { createWorld } from "./world";

let sim: Simulator;
const conns: GalaxyConnection[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await post("reset", {});
});
afterEach(async () => {
  for (const c of conns.splice(0)) await c.close();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${sim.controlUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function online(i: number, extra: { sek?: string } = {}) {
  const acc = sim.world.accounts.filter((a) => a.kind === "stalker")[i];
  const c = new GalaxyConnection({ url: sim.wsUrl, credentials: { id: acc.id, password: acc.password, nick: acc.nick }, planet: acc.homePlanet, ...extra });
  conns.push(c);
  const lines: GalaxyLine[] = [];
  c.on("line", (l) => lines.push(l));
  c.on("error", () => {});
  await c.connect();
  await new Promise<void>((resolve) => c.once("users", () => resolve()));
  return { acc, c, lines };
}

const until = async (what: string, fn: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("moving scripted users (sim/npcs.ts)", () => {
  it("the same seed gives the same schedule; moves JOIN, PART and SLEEP between general planets", () => {
    const a = new NpcMover(createWorld(7));
    const b = new NpcMover(createWorld(7));
    const ma = a.step(60);
    expect(b.step(60)).toEqual(ma);
    expect(new Set(ma.map((m) => m.how))).toEqual(new Set(["join", "leave", "sleep"]));
    expect(new NpcMover(createWorld(8)).step(60)).not.toEqual(ma);
  });

  it("never moves an account held on a socket; a client on the planet sees arrivals and departures", async () => {
    const { acc, c, lines } = await online(0);
    const res = await post("npcs", { action: "step", steps: 400 });
    expect(res.status).toBe(200);
    expect(res.body.moves.some((m: { id: string }) => m.id === acc.id)).toBe(false);
    expect(sim.world.whereIs(acc.id).planet).toBe(acc.homePlanet);
    await until("arrivals and departures seen", () => lines.some((l) => l.command === "JOIN") && lines.some((l) => ["PART", "SLEEP"].includes(l.command)));
    await until("the client's roster matches the planet", () => c.users.length === sim.world.occupants(acc.homePlanet).length);
  });

  it("start/stop lever moves on a timer; reset stops it and restarts the schedule", async () => {
    expect((await post("npcs", { action: "start", intervalMs: 20 })).body.running).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    const status = (await (await fetch(`${sim.controlUrl}npcs`)).json()) as { steps: number; running: boolean };
    expect(status.steps).toBeGreaterThan(2);
    expect((await post("npcs", { action: "stop" })).body.running).toBe(false);
    await post("reset", {});
    expect((await (await fetch(`${sim.controlUrl}npcs`)).json()).steps).toBe(0);
    expect((await post("npcs", { action: "jump" })).status).toBe(400);
    expect((await post("npcs", { action: "start", intervalMs: 1 })).status).toBe(400);
  });
});

describe("fault injection for sessions", () => {
  it("KICK aimed at a session: it gets KICK <id> with the text and is off the planet; others see it go", async () => {
    const one = await online(0);
    const two = await online(1);
    // Both on the same planet.
    await two.c.joinPlanet(one.acc.homePlanet);
    const res = await post("kick", { accountId: one.acc.id, text: "Bye" });
    expect(res.body.sent).toBe(1);
    await until("KICK line", () => one.lines.some((l) => l.command === "KICK" && l.params[0] === one.acc.id && l.trailing === "Bye"));
    expect(sim.world.whereIs(one.acc.id)).toEqual({ online: true, planet: null });
    expect(one.c.planet).toBeNull();
    await until("the other sees it leave", () => !two.c.users.some((u) => u.id === one.acc.id));
  });

  it("PRISON: the session gets PRISON then 900 Prison*1", async () => {
    const { acc, c, lines } = await online(0);
    expect((await post("prison", { accountId: acc.id })).body.sent).toBe(1);
    await until("in prison", () => c.planet?.name === "Prison*1");
    // Reference §4 (WEB, KICK2, ERWIN, GALAMOD): `:<nick> PRISON <actorGender> :<reason>`, no account id.
    const prison = lines.find((l) => l.command === "PRISON");
    expect(prison).toMatchObject({ prefix: "Warden", params: ["0"], trailing: "You were sent to prison" });
    expect(sim.world.whereIs(acc.id).planet).toBe("Prison*1");
    expect((await post("prison", { accountId: acc.id, planet: "Orion" })).status).toBe(404);
  });

  it("950 on request: 'You login from another device' and the socket closes", async () => {
    const { acc, c } = await online(0);
    const closed = new Promise((r) => c.once("closed", r));
    expect((await post("another-device", { accountId: acc.id })).body.sent).toBe(1);
    await closed;
    expect(c.lastError?.code).toBe("another_device");
  });

  it("counters: a second login of a logged-in account is one 950 takeover; sockets by client address", async () => {
    const get = async () => (await (await fetch(`${sim.controlUrl}counters`)).json()) as Record<string, unknown> & { byRemote: Record<string, string[]> };
    const first = await online(0);
    expect(await get()).toMatchObject({ logins: 1, takeovers: 0, onlineAccounts: 1, doubledAccounts: 0, byRemote: { "127.0.0.1": [first.acc.id] } });
    const closed = new Promise((r) => first.c.once("closed", r));
    await online(0);
    await closed;
    expect(await get()).toMatchObject({ logins: 2, takeovers: 1, onlineAccounts: 1, byRemote: { "127.0.0.1": [first.acc.id] } });
    await post("reset", {});
    expect(await get()).toMatchObject({ logins: 0, takeovers: 0 });
  });

  it("drop one account's socket without a handshake", async () => {
    const { acc, c } = await online(0);
    const other = await online(1);
    const closed = new Promise<{ expected: boolean }>((r) => c.once("closed", r));
    expect((await post("drop", { accountId: acc.id })).body.dropped).toBe(1);
    expect((await closed).expected).toBe(false);
    expect(other.c.state).toBe("connected");
    expect((await post("drop", { accountId: "x" })).status).toBe(400);
  });

  it("USER field count: 4 for web, 5 with a sek", async () => {
    const web = await online(0);
    const android = await online(1, { sek: "abcdefghijklmnop" });
    expect(sim.sockets.sessions(web.acc.id)[0].userFields).toBe(4);
    expect(sim.sockets.sessions(android.acc.id)[0].userFields).toBe(5);
  });
});

describe("PING every interval; drop after 2 unanswered", () => {
  it("a client that answers stays; one that does not is closed after its 2nd unanswered PING", async () => {
    const quick = await startSimulator({ port: 0, pingIntervalMs: 100 });
    try {
      const acc = quick.world.accounts[0];
      const good = new GalaxyConnection({ url: quick.wsUrl, credentials: { id: acc.id, password: acc.password, nick: acc.nick } });
      good.on("error", () => {});
      await good.connect();
      const s = quick.sockets.sessions(acc.id)[0];
      // Four PINGs answered and the client still connected: counted, not timed (a fixed 600 ms
      // saw 3 PONGs on a loaded CI machine, 2026-12-01).
      await until("four PONGs", () => s.pongs > 3, 10_000);
      expect(good.state).toBe("connected");
      // Make the server deaf to this client's PONGs: to it, the client went silent.
      s.ws.removeAllListeners("message");
      await new Promise((r) => good.once("closed", r));
      expect(s.unanswered).toBe(2); // closed at the tick after the 2nd unanswered PING
      await until("recorded", () => quick.sockets.closed.some((c) => c.accountId === acc.id && c.closeReason === "Ping timeout"));
      await good.close();
    } finally {
      await quick.close();
    }
  });
});
