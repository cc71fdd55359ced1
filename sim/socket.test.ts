/**
 * The simulator spoken to with a raw `ws` client, the way public bots talk (reference §3.1,
 * §9): sloppy `text + " \r\n"` lines, the 5-field USER, several IDENT client codes.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { authCode, nativeAuthCode, parseLine, splitFrame } from "~/galaxy/protocol";
import { startSimulator, type Simulator } from "./server";

let sim: Simulator;
const clients: Raw[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await post("reset", {});
});
afterEach(() => {
  for (const c of clients.splice(0)) c.ws.terminate();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${sim.controlUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
async function get(path: string) {
  const res = await fetch(`${sim.controlUrl}${path}`);
  return { status: res.status, body: await res.json() };
}

/** A bare client: every received line is kept; `next` waits for one matching. */
class Raw {
  lines: string[] = [];
  #seen = 0;
  #waiters: (() => void)[] = [];
  closed: Promise<number>;
  constructor(readonly ws: WebSocket) {
    ws.on("message", (d) => {
      this.lines.push(...splitFrame(d.toString()));
      for (const w of this.#waiters.splice(0)) w();
    });
    this.closed = new Promise((r) => ws.on("close", (code) => r(code)));
  }
  static async open(url = sim.wsUrl): Promise<Raw> {
    const ws = new WebSocket(url);
    const c = new Raw(ws);
    clients.push(c);
    await new Promise((res, rej) => {
      ws.once("open", res);
      ws.once("error", rej);
    });
    return c;
  }
  /** Sends like the sloppy bots: a space before CRLF. */
  say(line: string) {
    this.ws.send(`${line} \r\n`);
  }
  /** The next line (after those already taken) whose command matches. */
  async next(command: string, timeoutMs = 3000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.#seen < this.lines.length) {
        const line = this.lines[this.#seen++];
        if (parseLine(line).command === command) return line;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${command} line; got ${JSON.stringify(this.lines)}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }
}

async function login(acc = sim.world.accounts[20], code = 352) {
  const c = await Raw.open();
  const seed = parseLine(await c.next("HAAAPSI")).params[0];
  c.say(`:en IDENT ${code} -2 4030 1 2 :GALA`);
  c.say(`RECOVER ${acc.recoveryCode}`);
  const reg = parseLine(await c.next("REGISTER")).params;
  expect(reg).toEqual([acc.id, acc.password, acc.nick]);
  c.say(`USER ${reg[0]} ${reg[1]} ${reg[2]} ${authCode(seed)} AbCdEfGhIjKlMnOp`);
  await c.next("999");
  return c;
}

describe("socket peer (reference §3.1 handshake)", () => {
  it("greets with HAAAPSI <seed> 20, then RECOVER → REGISTER, 5-field USER → 999, JOIN → 900/353/366", async () => {
    const acc = sim.world.accounts.find((a) => !sim.world.whereIs(a.id).online)!;
    const c = await login(acc);
    expect(c.lines[0]).toMatch(/^HAAAPSI [A-Za-z0-9]{10} 20$/);
    expect(sim.world.whereIs(acc.id)).toEqual({ online: true, planet: null });
    c.say("FWLISTVER 0");
    c.say("PHONE 700 675 0 2 :chrome 137.0.0.0");
    c.say("JOIN Cannon*2");
    expect(await c.next("900")).toBe("900 Cannon*2 35 0 2");
    const names = parseLine(await c.next("353"));
    expect(names.params).toEqual(["1", "=", "Cannon*2"]);
    expect(names.trailing).toContain(`@Cannon*2 ${sim.world.planet("Cannon*2")!.founderId}`);
    await c.next("366");
    await c.next("332");
    // `FOUNDER <id> cr/21`: the crown field as in the recorded real log (issue 34 item 4).
    expect(await c.next("FOUNDER")).toBe(`FOUNDER ${sim.world.planet("Cannon*2")!.founderId} cr/21`);
    expect(sim.world.whereIs(acc.id)).toEqual({ online: true, planet: "Cannon*2" });
    const conn = (await get("connections")).body.open.find((x: { accountId: string }) => x.accountId === acc.id);
    expect(conn.clientInfo).toEqual({ FWLISTVER: "0", PHONE: "700 675 0 2 :chrome 137.0.0.0" });
    expect(conn.received).toContain("USER [redacted]");
    c.say("QUIT :ds");
    expect(await c.closed).toBe(1000);
    expect(sim.world.whereIs(acc.id)).toEqual({ online: false, planet: null });
  });

  it("sends USER directly after HAAAPSI with stored id and password (4 fields)", async () => {
    const acc = sim.world.accounts[30];
    const c = await Raw.open();
    const seed = parseLine(await c.next("HAAAPSI")).params[0];
    c.say(":ru IDENT 323 -2 4030 1 2 :GALA");
    c.say(`USER ${acc.id} ${acc.password} ${acc.nick} ${authCode(seed)}`);
    await c.next("999");
  });

  it.each([352, 350, 312, 323, 186])("accepts IDENT client code %i", async (code) => {
    await login(sim.world.accounts[40], code);
  });

  it("accepts the native client (IDENT 355 -1) with its own auth code", async () => {
    const acc = sim.world.accounts[41];
    const c = await Raw.open();
    const seed = parseLine(await c.next("HAAAPSI")).params[0];
    c.say(":ru IDENT 355 -1 0000 1 2 :GALA");
    c.say(`USER ${acc.id} ${acc.password} ${acc.nick} ${nativeAuthCode(seed)} AbCdEfGhIjKlMnOp`);
    await c.next("999");
  });

  it("refuses a wrong auth code with 451 and closes", async () => {
    const acc = sim.world.accounts[21];
    const c = await Raw.open();
    await c.next("HAAAPSI");
    c.say(":en IDENT 352 -2 4030 1 2 :GALA");
    c.say(`USER ${acc.id} ${acc.password} ${acc.nick} 0000000000`);
    expect(await c.next("451")).toBe("451 USER :Wrong auth code");
    await c.closed;
  });

  it("refuses an unknown client code, an unknown recovery code, a wrong password, and USER before IDENT", async () => {
    const a = await Raw.open();
    await a.next("HAAAPSI");
    a.say(":en IDENT 999 -2 4030 1 2 :GALA");
    await a.next("451");
    await a.closed;

    const b = await Raw.open();
    await b.next("HAAAPSI");
    b.say(":en IDENT 352 -2 4030 1 2 :GALA");
    b.say("RECOVER NOPE000000");
    expect(await b.next("451")).toBe("451 RECOVER :Invalid recovery code or password");
    await b.closed;

    const acc = sim.world.accounts[22];
    const c = await Raw.open();
    const seed = parseLine(await c.next("HAAAPSI")).params[0];
    c.say(":en IDENT 352 -2 4030 1 2 :GALA");
    c.say(`USER ${acc.id} ${"0".repeat(32)} ${acc.nick} ${authCode(seed)}`);
    await c.next("451");

    const d = await Raw.open();
    const seedD = parseLine(await d.next("HAAAPSI")).params[0];
    d.say(`USER ${acc.id} ${acc.password} ${acc.nick} ${authCode(seedD)}`);
    await d.next("451");
  });

  it("answers PING with PONG, 421 to unknown commands, and survives malformed lines", async () => {
    const c = await login(sim.world.accounts[23]);
    c.ws.send(":srv\r\n%%%\r\n");
    c.say("PING");
    await c.next("PONG");
    c.say("FROBNICATE 1");
    expect(await c.next("421")).toBe("421 FROBNICATE :Unknown command");
    const conn = (await get("connections")).body.open[0];
    expect(conn.malformed).toBe(2);
  });
});

describe("planets and presence between clients", () => {
  it("relays JOIN, PRIVMSG, REMOVE, SLEEP and PART to the others on the planet", async () => {
    const [x, y] = sim.world.accounts.filter((a) => a.kind === "stalker" && !sim.world.whereIs(a.id).online);
    const a = await login(x);
    a.say("JOIN Bowling*5");
    await a.next("366");
    const b = await login(y);
    b.say("JOIN Bowling*5");
    await b.next("366");
    const join = parseLine(await a.next("JOIN"));
    expect(join.params.slice(0, 4)).toEqual([sim.world.people.get(y.id)!.clan ?? "-", y.nick, y.id, String(y.gender)]);
    expect(join.params.slice(-3)).toEqual(["-1", "-1", "-1"]);
    b.say("PRIVMSG 0 0 :hello: everyone");
    expect(await a.next("PRIVMSG")).toBe(`PRIVMSG ${y.id} 0 0 :hello: everyone`);
    b.say("REMOVE 321");
    expect(await a.next("REMOVE")).toBe(`REMOVE ${y.id} 321`);
    b.say("SLEEP");
    expect(await a.next("SLEEP")).toBe(`SLEEP ${y.id}`);
    expect(sim.world.whereIs(y.id)).toEqual({ online: false, planet: null });
    b.say("JOIN Bowling*5");
    await a.next("JOIN");
    b.say("PART");
    expect(await a.next("PART")).toBe(`PART ${y.id} ${y.gender} -1 -1 -1`);
    expect(sim.world.whereIs(y.id)).toEqual({ online: true, planet: null });
  });

  it("answers 403, 471 (natural and injected), 473, and the fly interval when set", async () => {
    const c = await login(sim.world.accounts[24]);
    c.say("JOIN Atlantis");
    expect(await c.next("403")).toBe("403 Atlantis :No such channel");
    c.say("JOIN Tiny");
    expect(await c.next("471")).toBe("471 Tiny :Channel is full");
    await post("faults", { fullPlanets: ["RingToss*2"] });
    c.say("JOIN RingToss*2");
    await c.next("471");
    c.say("JOIN Vault");
    await c.next("473");
    await post("faults", { flyIntervalMs: 60_000 });
    c.say("JOIN RingToss*3");
    await c.next("366");
    c.say("JOIN RingToss*4");
    // The only real 850 (KICK2 log) has no `:srv` prefix (issue 34 item 4).
    expect(await c.next("850")).toBe("850 :You can't fly more often than once in 60 s");
  });

  it("a bare JOIN lands on the home planet", async () => {
    const acc = sim.world.accounts.find((a) => !sim.world.whereIs(a.id).online)!;
    const c = await login(acc);
    c.say("JOIN");
    expect(parseLine(await c.next("900")).params[0]).toBe(acc.homePlanet);
  });
});

describe("control endpoint /__sim/", () => {
  it("lists accounts with recovery codes, planets, and whereIs", async () => {
    const { body } = await get("accounts?kind=bowling");
    expect(body.accounts.length).toBeGreaterThan(5);
    expect(body.accounts[0]).toMatchObject({
      kind: "bowling",
      recoveryCode: expect.stringMatching(/^\w{10}$/),
      password: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const planets = (await get("planets?kind=cannon")).body.planets;
    expect(planets).toHaveLength(35);
    expect(planets[0]).toMatchObject({ name: "Cannon*1", kind: "cannon", capacity: 35, full: false });
    const id = body.accounts[0].id;
    expect((await get(`whereis/${id}`)).body).toEqual(sim.world.whereIs(id));
  });

  it("validates fault input", async () => {
    expect((await post("faults", { loginCode: 500 })).status).toBe(400);
    expect((await post("faults", { latencyMs: -1 })).status).toBe(400);
    expect((await post("faults", { nonsense: true })).status).toBe(400);
    expect((await get("nowhere")).status).toBe(404);
  });

  it("refuses new connections while refuseConnections is on, and counts them", async () => {
    await post("faults", { refuseConnections: true });
    await expect(Raw.open()).rejects.toThrow();
    expect((await get("connections")).body.refused).toBe(1);
    await post("faults", { refuseConnections: false });
    await Raw.open();
  });

  it("delays every line by latencyMs (lower bound only) and keeps their order", async () => {
    const c = await login(sim.world.accounts[25]);
    await post("faults", { latencyMs: 150 });
    const t0 = Date.now();
    c.say("JOIN Orion");
    await c.next("366");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    const order = c.lines.slice(c.lines.findIndex((l) => l.startsWith("900"))).map((l) => parseLine(l).command);
    expect(order.slice(0, 2)).toEqual(["900", "353"]);
  });

  it("hold: a login waits, its lines in order, until hold is off; a session already online is not held; reset lets go too", async () => {
    const online = await login(sim.world.accounts[28]);
    expect((await post("faults", { hold: true })).body.faults).toMatchObject({ hold: true });
    const acc = sim.world.accounts[29];
    const c = await Raw.open();
    const seed = parseLine(await c.next("HAAAPSI")).params[0];
    c.say(":en IDENT 352 -2 4030 1 2 :GALA");
    c.say(`USER ${acc.id} ${acc.password} ${acc.nick} ${authCode(seed)}`);
    c.say("JOIN Orion");
    online.say("PING");
    await online.next("PONG");
    await expect(c.next("999", 300)).rejects.toThrow(/no 999 line/);
    expect(sim.world.whereIs(acc.id).online).toBe(false);
    await post("faults", { hold: false });
    await c.next("999");
    await c.next("366");
    expect(sim.world.whereIs(acc.id)).toEqual({ online: true, planet: "Orion" });

    await post("faults", { hold: true });
    const other = sim.world.accounts[31];
    const d = await Raw.open();
    const seed2 = parseLine(await d.next("HAAAPSI")).params[0];
    d.say(":en IDENT 352 -2 4030 1 2 :GALA");
    d.say(`USER ${other.id} ${other.password} ${other.nick} ${authCode(seed2)}`);
    await expect(d.next("999", 300)).rejects.toThrow(/no 999 line/);
    expect((await post("reset", {})).body.faults).toMatchObject({ hold: false });
    expect(await d.closed).toBe(1006);
  });

  it("drops open connections on dropConnections and resets everything on reset", async () => {
    const acc = sim.world.accounts[26];
    const c = await login(acc);
    expect((await post("faults", { dropConnections: true, latencyMs: 5 })).body).toMatchObject({ dropped: 1, faults: { latencyMs: 5 } });
    expect(await c.closed).toBe(1006);
    expect(sim.world.whereIs(acc.id).online).toBe(false);
    const r = await post("reset", {});
    expect(r.body.faults.latencyMs).toBe(0);
    expect((await get("connections")).body).toMatchObject({ open: [], closed: [], refused: 0 });
  });

  it("reset leaves no history behind, even of sessions whose sockets are still closing", async () => {
    const acc = sim.world.accounts[27];
    await login(acc);
    const refused = await Raw.open();
    refused.say(":en IDENT 352 -2 4030 1 2 :GALA");
    refused.say("RECOVER NOSUCHCODE");
    await refused.next("451");
    // Reset at once, before either socket's close event can arrive: the history must stay empty.
    const r = await post("reset", {});
    expect(r.body.dropped).toBeGreaterThanOrEqual(1);
    expect((await get("connections")).body).toMatchObject({ open: [], closed: [], total: 0 });
    expect(sim.world.whereIs(acc.id).online).toBe(false);
  });

  it("login faults: 452 and 601 refuse, 950 takes the session over after its first planet", async () => {
    const acc = sim.world.accounts[27];
    await post("faults", { loginCode: 452 });
    let c = await Raw.open();
    let seed = parseLine(await c.next("HAAAPSI")).params[0];
    c.say(":en IDENT 352 -2 4030 1 2 :GALA");
    c.say(`USER ${acc.id} ${acc.password} ${acc.nick} ${authCode(seed)}`);
    expect(await c.next("452")).toMatch(/^452 USER :User is online or banned/);
    await c.closed;

    await post("faults", { loginCode: 950 });
    c = await Raw.open();
    seed = parseLine(await c.next("HAAAPSI")).params[0];
    c.say(":en IDENT 352 -2 4030 1 2 :GALA");
    c.say(`USER ${acc.id} ${acc.password} ${acc.nick} ${authCode(seed)}`);
    await c.next("999");
    c.say("JOIN Orion");
    await c.next("366");
    await c.next("950");
    await c.closed;
  });

  it("PINGs on request and closes sessions that never answer", async () => {
    const quick = await startSimulator({ port: 0, pingIntervalMs: 100, pingTimeoutMs: 150 });
    try {
      const acc = quick.world.accounts[0];
      const c = await Raw.open(quick.wsUrl);
      const seed = parseLine(await c.next("HAAAPSI")).params[0];
      c.say(":en IDENT 352 -2 4030 1 2 :GALA");
      c.say(`USER ${acc.id} ${acc.password} ${acc.nick} ${authCode(seed)}`);
      await c.next("999");
      await c.next("PING");
      expect(await c.next("ERROR", 3000)).toBe("ERROR :Ping timeout");
      await c.closed;
    } finally {
      await quick.close();
    }
  });

  it("sends raw lines and chat on request", async () => {
    const acc = sim.world.accounts[28];
    const c = await login(acc);
    c.say("JOIN Orion");
    await c.next("366");
    expect((await post("send", { accountId: acc.id, line: "EVENT 1 0" })).body.sent).toBe(1);
    expect(await c.next("EVENT")).toBe("EVENT 1 0");
    const other = sim.world.occupants("Orion").find((id) => id !== acc.id)!;
    expect((await post("say", { planet: "Orion", fromId: other, text: "hi there" })).body.sent).toBe(1);
    expect(await c.next("PRIVMSG")).toBe(`PRIVMSG ${other} 0 0 :hi there`);
    expect((await post("presence", { id: acc.id, planet: "Vega" })).status).toBe(409);
  });
});

describe("one HTTP server", () => {
  it("serves /services/ and answers 404 elsewhere; the socket only at /", async () => {
    const acc = sim.world.accounts[0];
    const res = await fetch(`${sim.servicesUrl}?a=pay_get_balance&userID=${acc.id}&password=${acc.password}`);
    expect(res.status).toBe(200);
    expect((await fetch(`${sim.url}/other`)).status).toBe(404);
    await expect(Raw.open(`${sim.wsUrl}elsewhere`)).rejects.toThrow();
  });

  it("listens on loopback only", async () => {
    await expect(startSimulator({ host: "0.0.0.0" as "127.0.0.1" })).rejects.toThrow(/loopback/);
  });
});
