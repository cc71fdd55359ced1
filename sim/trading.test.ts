/**
 * Simulator parts for the trading run (galaxy-runtime.md §2.3 "Simulator"; sim/trading.ts):
 * head-counts by lever, 403/471/473 join failures, the fly-rate 850 notice or KICK, planet
 * chat seen by the other sessions there, and the flight and chat logs read back through the
 * control endpoint. Real sockets (GalaxyConnection) and real HTTP.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GalaxyConnection, GalaxyError } from "~/galaxy/connection.server";
import type { GalaxyLine } from "~/galaxy/protocol";
import { startSimulator, type Simulator } from "./server";

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
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
async function get(path: string) {
  return (await (await fetch(`${sim.controlUrl}${path}`)).json()) as Record<string, unknown>;
}
async function online(i: number) {
  const acc = sim.world.accounts.filter((a) => a.kind === "trader")[i]!;
  const c = new GalaxyConnection({
    url: sim.wsUrl,
    credentials: { id: acc.id, password: acc.password, nick: acc.nick },
    joinOnConnect: false,
    joinTimeoutMs: 1_000,
  });
  conns.push(c);
  const lines: GalaxyLine[] = [];
  c.on("line", (l) => lines.push(l));
  c.on("error", () => {});
  await c.connect();
  return { acc, c, lines };
}
const until = async (what: string, fn: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("sim/trading.ts levers", () => {
  it("POST /__sim/population sets a planet's head-count (the 353 roster a JOIN sees); 404 unknown planet, 400 bad body", async () => {
    expect((await post("population", { planet: "Orion", count: 12 })).body).toEqual({ planet: "Orion", count: 12 });
    const { acc, c } = await online(0);
    await c.joinPlanet("Orion");
    expect(c.users.filter((u) => u.id !== acc.id)).toHaveLength(12);
    expect((await post("population", { planet: "Nowhere", count: 1 })).status).toBe(404);
    expect((await post("population", { planet: "Orion", count: -1 })).status).toBe(400);
  });

  it("join failures 403 / 473 / 471 (a capacity lowered by POST /__sim/planet) and the flight log", async () => {
    const { acc, c } = await online(1);
    await expect(c.joinPlanet("Nowhere")).rejects.toMatchObject({ numeric: "403" });
    await expect(c.joinPlanet("Vault")).rejects.toMatchObject({ numeric: "473" });
    await post("planet", { name: "Paradise", capacity: 0 });
    await expect(c.joinPlanet("Paradise")).rejects.toBeInstanceOf(GalaxyError);
    await c.joinPlanet("Galaxy");
    const { flights } = (await get(`flights?accountId=${acc.id}`)) as { flights: { planet: string; result: string }[] };
    expect(flights.map((f) => `${f.planet}:${f.result}`)).toEqual(["Nowhere:403", "Vault:473", "Paradise:471", "Galaxy:ok"]);
    await post("reset", {});
    expect(sim.world.planet("Paradise")!.capacity).toBe(60);
  });

  it("fly rate: a JOIN too soon gets the 850 notice, or with flyPenalty kick a KICK with the platform's text", async () => {
    await post("faults", { flyIntervalMs: 5_000 });
    const { acc, c, lines } = await online(2);
    await c.joinPlanet("Galaxy");
    await expect(c.joinPlanet("Orion")).rejects.toBeInstanceOf(GalaxyError); // no answer but the notice
    expect(lines.some((l) => l.command === "850" && /once in 5 s/.test(l.trailing ?? ""))).toBe(true);
    await post("faults", { flyPenalty: "kick" });
    void c.joinPlanet("Orion").catch(() => {});
    await until("KICK", () => lines.some((l) => l.command === "KICK" && l.params[0] === acc.id));
    const kick = lines.find((l) => l.command === "KICK")!;
    expect(kick.trailing).toMatch(/^Oops! You can't go to Orion! You aren't allowed to change Planets that frequently\. Please wait \d+ seconds\.$/);
    expect(sim.world.whereIs(acc.id)).toEqual({ online: true, planet: null });
    const { flights } = (await get(`flights?accountId=${acc.id}`)) as { flights: { result: string }[] };
    expect(flights.map((f) => f.result)).toEqual(["ok", "fly-rate", "fly-rate"]);
  });

  it("planet chat: a post is seen by the other sessions there as PRIVMSG <senderId> 0|1 <target> (1 when addressed, as in the real samples), and read back from GET /__sim/chat", async () => {
    const a = await online(3);
    const b = await online(4);
    await a.c.joinPlanet("Galaxy");
    await b.c.joinPlanet("Galaxy");
    a.c.send("PRIVMSG", [0, 0], "Selling roses 🌹 <b>&</b>");
    a.c.send("PRIVMSG", [0, b.acc.id], `${b.acc.nick}, hi`);
    await until("both lines at b", () => b.lines.filter((l) => l.command === "PRIVMSG").length >= 2);
    expect(b.lines.filter((l) => l.command === "PRIVMSG").map((l) => [l.params, l.trailing])).toEqual([
      [[a.acc.id, "0", "0"], "Selling roses 🌹 <b>&</b>"],
      [[a.acc.id, "1", b.acc.id], `${b.acc.nick}, hi`],
    ]);
    const { chat } = (await get(`chat?planet=Galaxy&fromId=${a.acc.id}`)) as { chat: { toId: string; text: string; nick: string }[] };
    expect(chat.map((x) => [x.toId, x.text, x.nick])).toEqual([
      ["0", "Selling roses 🌹 <b>&</b>", a.acc.nick],
      [b.acc.id, `${b.acc.nick}, hi`, a.acc.nick],
    ]);
  });
});
