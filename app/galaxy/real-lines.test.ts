/**
 * Recorded real server lines (app/galaxy/real-lines.fixture.ts, issue 34 item 6): the
 * client's parser reads each one, a live GalaxyConnection takes them without an error and
 * acts on them, and the simulator sends the same shapes for the same events (issue 34
 * item 4). Reference galaxy-platform.md §2–§5.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { GalaxyConnection } from "./connection.server";
import { lineTokens, parseLine, readHaaapsi, readJoin, readRegister, type GalaxyLine, type Notice, type PlanetUser } from "./protocol";
import { REAL_LINES, REAL_OTHER, REAL_SELF } from "./real-lines.fixture";

let sim: Simulator;
const open: GalaxyConnection[] = [];
beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
});
afterAll(async () => {
  await sim.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function until<T>(what: string, fn: () => T, ms = 5000): Promise<NonNullable<T>> {
  const start = Date.now();
  for (;;) {
    const v = fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() - start > ms) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const real = (cmd: string) => REAL_LINES.filter((l) => parseLine(l.line).command === cmd).map((l) => parseLine(l.line));

describe("recorded real lines", () => {
  it("every one parses; the handshake readers and the user record read the real shapes", () => {
    expect(REAL_LINES).toHaveLength(13);
    for (const { line, source } of REAL_LINES) expect(() => parseLine(line), `${line} (${source})`).not.toThrow();
    expect(readHaaapsi(real("HAAAPSI")[0]!).seed).toBe("aBcDeFgHiJ");
    expect(readRegister(real("REGISTER")[0]!)).toEqual({ id: REAL_SELF.id, password: "0123456789abcdef0123456789abcdef", nick: REAL_SELF.nick });
    const { user, teleport } = readJoin(real("JOIN")[0]!);
    expect(user).toMatchObject({ id: REAL_OTHER.id, nick: REAL_OTHER.nick, position: 778, x: 1556 });
    expect(teleport).toEqual(["-1", "-1", "-1"]);
    expect(real("ADDON_TAG").map((l) => [l.prefix, ...l.params])).toEqual([
      ["del", "200"],
      ["del", "232"],
    ]);
  });

  it("a live GalaxyConnection takes them: no error, the arrival and sleep change the roster, the 850 is a notice, PING gets PONG", async () => {
    const acc = sim.world.accounts.find((a) => a.kind === "stalker")!;
    const c = new GalaxyConnection({ url: sim.wsUrl, credentials: { recoveryCode: acc.recoveryCode }, planet: "Galaxy", log: () => {} });
    open.push(c);
    const errors: Error[] = [];
    const notices: Notice[] = [];
    const lines: GalaxyLine[] = [];
    const rosters: (readonly PlanetUser[])[] = [];
    c.on("error", (e: Error) => errors.push(e));
    c.on("notice", (n: Notice) => notices.push(n));
    c.on("line", (l: GalaxyLine) => lines.push(l));
    await c.connect();
    await until("on Galaxy", () => c.planet?.name === "Galaxy" && c.users.length > 0);
    c.on("users", (u: readonly PlanetUser[]) => rosters.push(u));
    // The post-login lines, as the platform sent them (the handshake ones were parsed above).
    const after = REAL_LINES.filter((l) => !/^(HAAAPSI|DOMAINS|REGISTER) /.test(l.line)).map((l) => l.line.replace(REAL_SELF.id, acc.id));
    sim.sockets.sendRaw(after.map((l) => `${l}\r\n`).join(""), acc.id);
    const pongs = () => sim.sockets.sessions(acc.id)[0]?.received.filter((l) => l === "PONG").length ?? 0;
    await until("all lines seen", () => lines.some((l) => l.command === "SLEEP"));
    await until("PONG", () => pongs() >= 1);
    expect(errors).toEqual([]);
    expect(c.state).toBe("connected");
    expect(rosters.some((u) => u.some((v) => v.id === REAL_OTHER.id && v.nick === REAL_OTHER.nick))).toBe(true);
    expect(c.users.some((u) => u.id === REAL_OTHER.id)).toBe(false);
    expect(notices.map((n) => n.html)).toEqual([parseLine(REAL_LINES.find((l) => l.line.startsWith("850"))!.line).trailing]);
    const pm = lines.find((l) => l.command === "PRIVMSG")!;
    expect(pm.params).toEqual([REAL_OTHER.id, "1", acc.id]);
  });

  it("the simulator sends the same shapes: EVENT 1 0 and :del ADDON_TAG after 999, FOUNDER <id> cr/21, 860 groups of 3, 850 without prefix, PRIVMSG to us with 1", async () => {
    const [a, b] = sim.world.accounts.filter((x) => x.kind === "recipient");
    const seen = new Map<string, GalaxyLine[]>();
    const mk = (acc: typeof a, planet: string) => {
      const c = new GalaxyConnection({ url: sim.wsUrl, credentials: { recoveryCode: acc!.recoveryCode }, planet, log: () => {} });
      open.push(c);
      const mine: GalaxyLine[] = [];
      seen.set(acc!.id, mine);
      c.on("error", () => {});
      c.on("line", (l: GalaxyLine) => mine.push(l));
      return c;
    };
    // A founder's planet: the simulator's FOUNDER line for it.
    const owned = sim.world.planets.find((p) => p.founderId && !p.closed)!;
    const ca = mk(a, owned.name);
    await ca.connect();
    await until("planet shown", () => seen.get(a!.id)!.some((l) => l.command === "366"));
    const got = seen.get(a!.id)!;
    const after999 = got.slice(got.findIndex((l) => l.command === "999") + 1);
    expect(after999.slice(0, 3).map((l) => l.raw)).toEqual(["EVENT 1 0", ":del ADDON_TAG 200", ":del ADDON_TAG 232"]);
    const founder = got.find((l) => l.command === "FOUNDER")!;
    expect(founder.params).toEqual([owned.founderId, "cr/21"]);
    const r860 = got.find((l) => l.command === "860")!;
    expect(lineTokens(r860).length % 3).toBe(0);
    expect(r860.params[2]).toMatch(/^1;aura\/0_\d;0;0;33$/);
    // Replies to the setup lines (reference §4: 883 forbidden-word version, 859/871 addon lists' end).
    await until("setup replies", () => ["883", "859", "871"].every((k) => got.some((l) => l.command === k)));

    const cb = mk(b, owned.name);
    await cb.connect();
    await until("b on the planet", () => ca.users.some((u) => u.id === b!.id));
    cb.send("PRIVMSG", [0, 0], "hello all");
    cb.send("PRIVMSG", [0, a!.id], `${a!.nick}, hi`);
    await until("both chats", () => got.filter((l) => l.command === "PRIVMSG").length >= 2);
    expect(got.filter((l) => l.command === "PRIVMSG").map((l) => l.params)).toEqual([
      [b!.id, "0", "0"],
      [b!.id, "1", a!.id],
    ]);
  });
});
