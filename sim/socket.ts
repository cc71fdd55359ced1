/**
 * The simulator's chat socket: a real protocol peer speaking the Galaxy line format
 * (reference §2–§5): HAAAPSI on open, IDENT, RECOVER → REGISTER, USER with the auth code,
 * 999, JOIN → 900/353/366/332/FOUNDER/860, JOIN/PART/SLEEP/REMOVE to the other users of a
 * planet, PRIVMSG relay, PING/PONG, QUIT. Faults come from `world.faults`.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, WebSocket } from "ws";
import { authCode, KNOWN_CLIENT_CODES, nativeAuthCode } from "~/galaxy/protocol";
import { simFormat, simMask, simParse, simSplit, type SimLine } from "./codec";
import { flyTooOftenKick, SimTrading } from "./trading";
import type { PresenceChange, SimAccount, SimPerson, SimPlanet, World } from "./world";

export type SocketOptions = {
  /** How often the server PINGs logged-in sessions (default 30 s; 0 disables). */
  pingIntervalMs?: number;
  /** A session that leaves a PING unanswered this long is closed (default: no time limit). */
  pingTimeoutMs?: number;
  /** A session that leaves this many PINGs in a row unanswered is closed (default 2; galaxy-runtime.md §1.3). */
  maxUnansweredPings?: number;
  /**
   * The "recently left" window (issue 34 item 2, groundwork): a login within this long after
   * the account's previous session left **with a QUIT** gets `452` ("come back 10 s after
   * leaving", reference §4). A socket that closed or vanished without QUIT does not start it.
   * Default 10 s (decision 0042: the product waits our own logout's window out); 0 turns it off.
   */
  reloginWindowMs?: number;
};

/** The "recently left" window's default (decision 0042): galaxy-platform.md §4 452, "come back 10 s after leaving". */
export const DEFAULT_RELOGIN_WINDOW_MS = 10_000;

/** A simulator started without `reloginWindowMs`: SIM_RELOGIN_WINDOW_MS when set (tests scale it down), else the platform's 10 s. */
function reloginWindowFromEnv(): number {
  const raw = process.env.SIM_RELOGIN_WINDOW_MS;
  const v = raw === undefined || raw === "" ? NaN : Number(raw);
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_RELOGIN_WINDOW_MS;
}

/** Server texts. The platform's real ones are unknown or Russian; these are ours. */
export const SIM_TEXTS = {
  451: "Invalid recovery code or password",
  452: "User is online or banned. You can log in again 10 seconds after leaving",
  601: "Please try to come later.",
  950: "Someone logged in to your account from another device",
  wrongAuth: "Wrong auth code",
  notIdentified: "Send IDENT first",
  unsupportedClient: "Unsupported client",
  noSuchPlanet: "No such channel",
  full: "Channel is full",
  locked: "This Planet is locked!",
  flyTooOften: (s: number) => `You can't fly more often than once in ${s} s`,
  unknown: "Unknown command",
  pingTimeout: "Ping timeout",
  kicked: "You were kicked out of the planet",
  imprisoned: "You were sent to prison",
} as const;

/** Who imprisons when a test or the console does it (a nick and a gender, as on the platform). */
export const SIM_WARDEN = { nick: "Warden", gender: 0 } as const;
/** The crown image on FOUNDER lines (`FOUNDER <id> cr/21` in the recorded real log). */
export const FOUNDER_CROWN = "cr/21";
/** `:del ADDON_TAG <n>` lines after 999: the two the recorded real log shows. */
const DELETED_ADDON_TAGS = [200, 232];
/** Version numbers the simulator answers FWLISTVER / ADDONS / MYADDONS with ([D], none is public). */
const SIM_FWLIST_VERSION = 0;
const SIM_ADDONS_VERSION = 0;

/** PRIVMSG's middle field: `1` on a line addressed to someone (the real samples), `0` on public chat ([D]). */
function privmsgMiddle(target: string | number): number {
  return String(target) === "0" ? 0 : 1;
}

const MAX_HISTORY = 200;
const RECORDS_PER_353 = 8;

export type ConnectionSnapshot = {
  id: number;
  accountId: string | null;
  nick: string | null;
  state: "handshake" | "online" | "closed";
  clientCode: number | null;
  locale: string | null;
  planet: string | null;
  openedAt: string;
  closedAt: string | null;
  closeReason: string | null;
  quit: string | null;
  pings: number;
  pongs: number;
  malformed: number;
  clientInfo: Record<string, string>;
  /** How many fields the USER line had (4 web, 5 with the Android sek), null before USER. */
  userFields: number | null;
  /** Lines received from the client, credentials masked, oldest first (last 200). */
  received: string[];
  /** The client's address (which host holds the socket, for the multi-host test). */
  remoteAddress: string | null;
};

type Op = { kind: "send"; text: string } | { kind: "close"; code: number; reason: string };

export class SimConnection {
  readonly openedAt = new Date();
  readonly seed: string;
  clientCode: number | null = null;
  identType: string | null = null;
  locale: string | null = null;
  account: SimAccount | null = null;
  state: "handshake" | "online" | "closed" = "handshake";
  /** In the closed history already (dropAll records before the socket's close event). */
  recorded = false;
  /** Lines held by the `hold` fault, oldest first; null when nothing is held. */
  held: string[] | null = null;
  received: string[] = [];
  pings = 0;
  pongs = 0;
  /** PINGs sent since the last PONG. */
  unanswered = 0;
  malformed = 0;
  outstandingPingAt: number | null = null;
  quit: string | null = null;
  closedAt: Date | null = null;
  closeReason: string | null = null;
  clientInfo: Record<string, string> = {};
  userFields: number | null = null;
  lastFlyAt = 0;
  remoteAddress: string | null = null;
  /** Login fault 950: take the session over after its first planet is shown. */
  pendingTakeover = false;
  #lastAt = 0;
  #pending = 0;

  constructor(
    readonly id: number,
    readonly ws: WebSocket,
    private readonly server: SimSocketServer,
  ) {
    this.seed = server.world.nextSeed();
  }

  get world() {
    return this.server.world;
  }

  get planet(): string | null {
    return this.account && this.state === "online" ? this.world.whereIs(this.account.id).planet : null;
  }

  /** Sends a line (CRLF added when missing) after the injected latency, keeping order. */
  send(line: string) {
    this.#schedule({ kind: "send", text: line.endsWith("\r\n") ? line : `${line}\r\n` });
  }

  sendLine(command: string, params: (string | number)[] = [], trailing: string | null = null, prefix: string | null = null) {
    this.send(simFormat(command, params, trailing, prefix));
  }

  /** Closes after every line already queued went out. */
  closeAfterSend(reason: string, code = 1000) {
    this.#schedule({ kind: "close", code, reason });
  }

  #schedule(op: Op) {
    const latency = this.world.faults.latencyMs;
    if (latency <= 0 && this.#pending === 0) return this.#run(op);
    const at = Math.max(Date.now() + Math.max(0, latency), this.#lastAt);
    this.#lastAt = at;
    this.#pending++;
    setTimeout(() => {
      this.#pending--;
      this.#run(op);
    }, at - Date.now());
  }

  #run(op: Op) {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (op.kind === "send") this.ws.send(op.text);
    else {
      this.closeReason ??= op.reason;
      this.ws.close(op.code, op.reason.slice(0, 120));
    }
  }

  snapshot(): ConnectionSnapshot {
    return {
      id: this.id,
      accountId: this.account?.id ?? null,
      nick: this.account?.nick ?? null,
      state: this.state,
      clientCode: this.clientCode,
      locale: this.locale,
      planet: this.planet,
      openedAt: this.openedAt.toISOString(),
      closedAt: this.closedAt?.toISOString() ?? null,
      closeReason: this.closeReason,
      quit: this.quit,
      pings: this.pings,
      pongs: this.pongs,
      malformed: this.malformed,
      clientInfo: { ...this.clientInfo },
      userFields: this.userFields,
      received: [...this.received],
      remoteAddress: this.remoteAddress,
    };
  }
}

export class SimSocketServer {
  readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  readonly connections = new Map<number, SimConnection>();
  /** Recently closed connections, newest last (for tests: what did the client send?). */
  readonly closed: ConnectionSnapshot[] = [];
  refused = 0;
  total = 0;
  /**
   * Kicks: logins that took over a session still online (950 "another device" sent to it), in
   * order, with when the old session was opened. A worker that let its sessions go before
   * another logged them in causes none (decision 0028).
   */
  kicks: { accountId: string; at: Date; oldOpenedAt: Date }[] = [];
  /**
   * Counters for the multi-host test (tests/hosts/): logins accepted, and 950 "another device"
   * sent because a second login of the same account arrived while its first socket was still
   * logged in — each one is the platform kicking an account that two holders had online.
   */
  readonly counters = { logins: 0, takeovers: 0 };
  /** Per account: the 950 takeovers (same reason as `counters.takeovers`). */
  readonly takeoversByAccount = new Map<string, number>();
  #nextId = 1;
  #byAccount = new Map<string, SimConnection>();
  /** When each account's last session left with a QUIT (the "recently left" window). */
  #quitAt = new Map<string, number>();
  #pingTimer: NodeJS.Timeout | null = null;
  #onPresence = (c: PresenceChange) => this.#broadcastPresence(c);
  /** Flight and chat logs, populations (sim/trading.ts, issue 11). */
  readonly trading: SimTrading;

  constructor(
    readonly world: World,
    private readonly options: SocketOptions = {},
  ) {
    world.on("presence", this.#onPresence);
    this.trading = new SimTrading(world);
    const every = options.pingIntervalMs ?? 30_000;
    if (every > 0) {
      this.#pingTimer = setInterval(() => this.#pingTick(), every);
      this.#pingTimer.unref();
    }
  }

  /** Called from the HTTP server's upgrade event for path `/`. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    if (this.world.faults.refuseConnections) {
      this.refused++;
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, req.socket.remoteAddress ?? null));
  }

  #accept(ws: WebSocket, remoteAddress: string | null) {
    const conn = new SimConnection(this.#nextId++, ws, this);
    conn.remoteAddress = remoteAddress?.replace(/^::ffff:/, "") ?? null;
    this.total++;
    this.connections.set(conn.id, conn);
    ws.on("message", (data) => {
      const text = Buffer.isBuffer(data)
        ? data.toString("utf8")
        : Array.isArray(data)
          ? Buffer.concat(data).toString("utf8")
          : Buffer.from(data).toString("utf8");
      for (const raw of simSplit(text)) {
        // The `hold` fault: a socket still in its handshake has its lines held, in order, until
        // the hold is off (sim/world.ts); lines that come meanwhile queue behind them.
        if (conn.held || (this.world.faults.hold && conn.state === "handshake")) this.#hold(conn, raw);
        else this.#deliver(conn, raw);
      }
    });
    ws.on("error", () => {});
    ws.on("close", (code, reason) => this.#closed(conn, code, reason.toString()));
    // Reference §3.1 ordering note: HAAAPSI right after open suits both client styles.
    conn.sendLine("HAAAPSI", [conn.seed, 20]);
  }

  #deliver(conn: SimConnection, raw: string) {
    try {
      this.#handle(conn, raw);
    } catch (err) {
      // A simulator bug must show up in the test, not kill the peer.
      console.warn(`[galaxy-sim] error handling "${simMask(raw)}":`, (err as Error).message);
    }
  }

  #hold(conn: SimConnection, raw: string) {
    if (conn.held) return void conn.held.push(raw);
    conn.held = [raw];
    void this.world.untilReleased().then(() => {
      const lines = conn.held ?? [];
      conn.held = null;
      for (const line of lines) this.#deliver(conn, line);
    });
  }

  #closed(conn: SimConnection, code: number, reason: string) {
    if (conn.recorded) return; // dropAll already recorded it
    conn.recorded = true;
    conn.state = "closed";
    conn.closedAt = new Date();
    conn.closeReason ??= reason || (conn.quit !== null ? "quit" : `code ${code}`);
    this.connections.delete(conn.id);
    const acc = conn.account;
    if (acc && this.#byAccount.get(acc.id) === conn) {
      this.#byAccount.delete(acc.id);
      this.world.setOffline(acc.id);
    }
    this.closed.push(conn.snapshot());
    if (this.closed.length > 100) this.closed.shift();
  }

  #handle(conn: SimConnection, raw: string) {
    if (conn.state === "closed") return;
    if (conn.received.push(simMask(raw)) > MAX_HISTORY) conn.received.shift();
    const line = simParse(raw);
    if (!line) {
      conn.malformed++;
      return;
    }
    const cmd = line.command;
    const arg = (i: number) => line.params[i] ?? (i === line.params.length ? (line.trailing ?? undefined) : undefined);

    switch (cmd) {
      case "PING":
        conn.sendLine("PONG");
        return;
      case "PONG":
        conn.pongs++;
        conn.unanswered = 0;
        conn.outstandingPingAt = null;
        return;
      case "QUIT":
        conn.quit = line.trailing ?? line.params.join(" ");
        // Offline at once: the account is free again before the socket finishes closing.
        if (conn.account && this.#byAccount.get(conn.account.id) === conn) {
          this.#byAccount.delete(conn.account.id);
          this.world.setOffline(conn.account.id);
          this.#quitAt.set(conn.account.id, Date.now());
        }
        conn.state = "closed";
        conn.closeAfterSend("quit");
        return;
      case "IDENT": {
        const code = Number(line.params[0]);
        conn.locale = line.prefix;
        if (!(KNOWN_CLIENT_CODES as readonly number[]).includes(code)) {
          conn.sendLine("451", ["IDENT"], SIM_TEXTS.unsupportedClient);
          conn.closeAfterSend("unsupported client");
          return;
        }
        conn.clientCode = code;
        conn.identType = line.params[1] ?? null;
        return;
      }
      case "RECOVER":
        return this.#recover(conn, arg(0));
      case "USER":
        return this.#user(conn, line);
    }

    if (conn.state !== "online" || !conn.account) return; // nothing else before 999
    const me = conn.account;
    switch (cmd) {
      case "FWLISTVER":
        conn.clientInfo[cmd] = line.params.join(" ");
        // 883 <ver>: the forbidden-word list's version (reference §4); the client has the current one.
        conn.sendLine("883", [SIM_FWLIST_VERSION]);
        return;
      case "ADDONS":
      case "MYADDONS":
        conn.clientInfo[cmd] = line.params.join(" ");
        // 859 / 871: the addon lists' final version (reference §4, 858/859 and 870/871), no items.
        conn.sendLine(cmd === "ADDONS" ? "859" : "871", [SIM_ADDONS_VERSION, 0]);
        return;
      case "PHONE":
        conn.clientInfo.PHONE = line.trailing === null ? line.params.join(" ") : `${line.params.join(" ")} :${line.trailing}`;
        return;
      case "JOIN":
        return this.#join(conn, arg(0));
      case "PART":
        this.world.leavePlanet(me.id);
        return;
      case "SLEEP":
        this.world.setOffline(me.id, "sleep");
        return;
      case "REMOVE": {
        const pos = Number(line.params[0]);
        const person = this.world.people.get(me.id);
        const planet = conn.planet;
        if (!person || !Number.isInteger(pos) || !planet) return;
        person.position = pos;
        this.#toPlanet(planet, simFormat("REMOVE", [me.id, pos]), conn);
        return;
      }
      case "PRIVMSG": {
        const planet = conn.planet;
        const target = line.params[1] ?? "0";
        if (!planet || line.trailing === null || !/^-?\d+$/.test(target)) return;
        this.trading.recordChat(me.id, planet, target, line.trailing);
        this.#toPlanet(planet, simFormat("PRIVMSG", [me.id, privmsgMiddle(target), target], line.trailing), conn);
        return;
      }
      case "HISTORY":
      case "ACTION":
      case "WHOIS":
      case "WHO":
      case "EMO":
      case "T":
      case "MENU_CMD":
      case "OBJ_CMD":
      case "OBJ_ACT":
      case "OBJ_UACT":
      case "REFRESH_PLANET":
      case "CLI_BACKGROUND":
      case "CLI_FOREGROUND":
      case "KICK":
      case "BAN":
      case "OP":
      case "DEOP":
      case "INVITE":
        return; // accepted; the simulator does not model these
      default:
        conn.sendLine("421", [cmd], SIM_TEXTS.unknown);
    }
  }

  #refuse(conn: SimConnection, code: number | string, what: string, text: string) {
    conn.sendLine(String(code), [what], text);
    conn.closeAfterSend(`login refused (${code})`);
  }

  #recover(conn: SimConnection, rc: string | undefined) {
    if (conn.clientCode === null) return this.#refuse(conn, 451, "RECOVER", SIM_TEXTS.notIdentified);
    const account = rc ? this.world.findByRecoveryCode(rc) : undefined;
    if (!account) return this.#refuse(conn, 451, "RECOVER", SIM_TEXTS[451]);
    conn.sendLine("DOMAINS", ["galaxy.mobstudio.ru"]);
    conn.sendLine("REGISTER", [account.id, account.password, account.nick]);
  }

  #user(conn: SimConnection, line: SimLine) {
    if (conn.state !== "handshake") return;
    conn.userFields = line.params.length + (line.trailing !== null ? 1 : 0);
    if (conn.clientCode === null) return this.#refuse(conn, 451, "USER", SIM_TEXTS.notIdentified);
    // `USER <id> <password> <nick> <authcode> [<extra>]`: the 5th field some clients add is ignored.
    const [id, password, , code] = line.params;
    const expected = conn.identType === "-1" ? nativeAuthCode(conn.seed) : authCode(conn.seed);
    if (!id || !password || code !== expected) return this.#refuse(conn, 451, "USER", SIM_TEXTS.wrongAuth);
    const f = this.world.faults;
    const faulted = f.loginCode !== null && (!f.loginCodeAccounts || f.loginCodeAccounts.includes(id));
    if (faulted && f.loginCode !== 950) return this.#refuse(conn, f.loginCode!, "USER", SIM_TEXTS[f.loginCode as 451 | 452 | 601]);
    const account = this.world.findAccount(id);
    if (!account || account.password !== password) return this.#refuse(conn, 451, "USER", SIM_TEXTS[451]);
    const window = this.options.reloginWindowMs ?? reloginWindowFromEnv();
    const left = this.#quitAt.get(account.id);
    if (window > 0 && left !== undefined && Date.now() - left < window) return this.#refuse(conn, 452, "USER", SIM_TEXTS[452]);

    // One session per account: a new login takes the old one over (950 there).
    const old = this.#byAccount.get(account.id);
    this.#byAccount.set(account.id, conn);
    if (old && old !== conn) {
      this.kicks.push({ accountId: account.id, at: new Date(), oldOpenedAt: old.openedAt });
      if (this.kicks.length > 1000) this.kicks.shift();
      this.counters.takeovers++;
      this.takeoversByAccount.set(account.id, (this.takeoversByAccount.get(account.id) ?? 0) + 1);
      old.sendLine("950", [], SIM_TEXTS[950]);
      old.closeAfterSend("taken over");
    }
    conn.account = account;
    conn.state = "online";
    this.counters.logins++;
    this.world.setOnline(account.id);
    conn.sendLine("999");
    // What the platform sends right after 999 in the recorded real log (KICK2 log.txt @ 815dc4d).
    conn.sendLine("EVENT", [1, 0]);
    for (const tag of DELETED_ADDON_TAGS) conn.sendLine("ADDON_TAG", [tag], null, "del");
    if (faulted && f.loginCode === 950) {
      conn.pendingTakeover = true;
      setTimeout(() => this.#takeover(conn), 1000).unref();
    }
  }

  #takeover(conn: SimConnection) {
    if (!conn.pendingTakeover || conn.state !== "online") return;
    conn.pendingTakeover = false;
    conn.sendLine("950", [], SIM_TEXTS[950]);
    conn.closeAfterSend("taken over");
  }

  #join(conn: SimConnection, name: string | undefined) {
    const me = conn.account!;
    const now = Date.now();
    const interval = this.world.faults.flyIntervalMs;
    if (interval > 0 && now - conn.lastFlyAt < interval) {
      this.trading.recordFlight(me.id, name ?? null, "fly-rate");
      if (this.world.faults.flyPenalty === "kick") {
        this.kick(me.id, flyTooOftenKick(name ?? "", Math.ceil((interval - (now - conn.lastFlyAt)) / 1000)));
        return;
      }
      conn.sendLine("850", [], SIM_TEXTS.flyTooOften(Math.ceil(interval / 1000)));
      return;
    }
    const current = this.world.whereIs(me.id).planet;
    // A bare JOIN: the last planet, else the home planet (reference §5.2).
    const planet = name ? this.world.planet(name) : this.world.planet(current ?? me.homePlanet);
    const refuse = (code: "403" | "471" | "473", what: string, text: string) => {
      this.trading.recordFlight(me.id, name ?? null, code);
      conn.sendLine(code, [what], text);
    };
    if (!planet) return refuse("403", name ?? "", SIM_TEXTS.noSuchPlanet);
    if (planet.name !== current) {
      if (planet.closed) return refuse("473", planet.name, SIM_TEXTS.locked);
      if (this.world.isFull(planet)) return refuse("471", planet.name, SIM_TEXTS.full);
    }
    this.trading.recordFlight(me.id, planet.name, "ok");
    conn.lastFlyAt = now;
    if (planet.name !== current) this.world.moveTo(me.id, planet.name);
    this.#showPlanet(conn, planet);
    if (conn.pendingTakeover) this.#takeover(conn);
  }

  /** What a client gets after a successful JOIN (reference §3.1 step 9). */
  #showPlanet(conn: SimConnection, planet: SimPlanet) {
    conn.sendLine("900", [planet.name, planet.capacity, planet.closed ? 1 : 0, planet.mode]);
    const people = this.world
      .occupants(planet.name)
      .map((id) => this.world.people.get(id))
      .filter((p): p is SimPerson => !!p);
    for (let i = 0; i < people.length; i += RECORDS_PER_353) {
      const chunk = people
        .slice(i, i + RECORDS_PER_353)
        .map((p) => this.#record(p, planet))
        .join(" ");
      conn.sendLine("353", [i / RECORDS_PER_353 + 1, "=", planet.name], chunk);
    }
    conn.sendLine("366");
    const founder = planet.founderId ? this.world.people.get(planet.founderId) : undefined;
    conn.sendLine("332", [founder?.id ?? 0], planet.topic, founder ? safePrefix(founder.nick) : "srv");
    if (founder) conn.sendLine("FOUNDER", [founder.id, FOUNDER_CROWN]);
    const ratings = people.slice(0, 20).flatMap((p) => [p.id, (Number(p.id) % 5000) + 10, `1;aura/0_${Number(p.id) % 9};0;0;33`]);
    if (ratings.length) conn.sendLine("860", ratings);
  }

  /** `<clan or -> <nick> <id> <N> <views> <x/2>`, nick marked `@` for the owner, `+` for operators. */
  #record(p: SimPerson, planet: SimPlanet): string {
    const mark = planet.founderId === p.id ? "@" : p.operator ? "+" : "";
    return [p.clan ?? "-", mark + p.nick, p.id, p.viewCount, ...p.views.flat(), p.position].join(" ");
  }

  #joinLine(p: SimPerson): string {
    return simFormat("JOIN", [p.clan ?? "-", p.nick, p.id, p.gender, p.viewCount, ...p.views.flat(), p.position, -1, -1, -1]);
  }

  #broadcastPresence(c: PresenceChange) {
    const person = this.world.people.get(c.id);
    if (!person) return;
    const self = this.#byAccount.get(c.id);
    if (c.to) this.#toPlanet(c.to, this.#joinLine(person), self);
    if (c.from) {
      const line = c.how === "sleep" ? simFormat("SLEEP", [c.id]) : simFormat("PART", [c.id, person.gender, -1, -1, -1]);
      this.#toPlanet(c.from, line, self);
    }
  }

  /** Sends a line to every logged-in session on a planet, except `except`. */
  #toPlanet(planet: string, line: string, except?: SimConnection) {
    for (const conn of this.connections.values()) {
      if (conn === except || conn.state !== "online" || !conn.account) continue;
      if (this.#byAccount.get(conn.account.id) !== conn) continue;
      if (conn.planet === planet) conn.send(line);
    }
  }

  // --- control -----------------------------------------------------------------------------

  /** Logged-in sessions, optionally of one account. */
  sessions(accountId?: string | null): SimConnection[] {
    return [...this.connections.values()].filter((c) => c.state === "online" && (!accountId || c.account?.id === accountId));
  }

  /** Sends PING now; returns how many sessions got one. */
  ping(accountId?: string | null): number {
    const targets = this.sessions(accountId);
    for (const c of targets) this.#sendPing(c);
    return targets.length;
  }

  #sendPing(c: SimConnection) {
    c.pings++;
    c.unanswered++;
    c.outstandingPingAt ??= Date.now();
    c.sendLine("PING");
  }

  #pingTick() {
    const timeout = this.options.pingTimeoutMs ?? Infinity;
    const maxUnanswered = this.options.maxUnansweredPings ?? 2;
    const now = Date.now();
    for (const c of this.sessions()) {
      if (c.unanswered >= maxUnanswered || (c.outstandingPingAt !== null && now - c.outstandingPingAt > timeout)) {
        c.sendLine("ERROR", [], SIM_TEXTS.pingTimeout);
        c.closeAfterSend(SIM_TEXTS.pingTimeout);
      } else this.#sendPing(c);
    }
  }

  /** Sends raw text (one or more lines) to sessions; by account, or to every open connection. */
  sendRaw(text: string, accountId?: string | null): number {
    const targets = accountId ? this.sessions(accountId) : [...this.connections.values()];
    for (const c of targets) c.send(text);
    return targets.length;
  }

  /** Chat from any person on a planet, as the platform relays it. */
  say(planet: string, fromId: string, text: string, toId = "0"): number {
    let n = 0;
    const line = simFormat("PRIVMSG", [fromId, privmsgMiddle(toId), toId], text);
    for (const c of this.sessions()) {
      if (c.planet === planet && c.account!.id !== fromId) {
        c.send(line);
        n++;
      }
    }
    return n;
  }

  /**
   * KICK aimed at an account's session (galaxy-runtime.md §1.3): every session on its planet
   * sees `:<kicker> KICK <id> 0 -1 -1 -1 :<text>` and the account is off the planet (online,
   * on none). A text with "released" is how the platform lets someone out of prison.
   */
  kick(accountId: string, text: string = SIM_TEXTS.kicked, kicker = "srv"): number {
    const targets = this.sessions(accountId);
    for (const c of targets) {
      const planet = c.planet;
      const line = simFormat("KICK", [accountId, 0, -1, -1, -1], text, safePrefix(kicker));
      c.send(line);
      if (planet) {
        this.#toPlanet(planet, line, c);
        this.#quietly(() => this.world.leavePlanet(accountId));
      }
    }
    return targets.length;
  }

  /**
   * PRISON for an account's session in the platform's shape (reference §4):
   * `:<actor nick> PRISON <actor gender> :<reason>`, then it stands on a prison planet
   * (900 Prison*N…). The line names no account: it only ever goes to the one imprisoned.
   */
  imprison(accountId: string, prisonName = "Prison*1", text: string = SIM_TEXTS.imprisoned, actor: { nick: string; gender: number } = SIM_WARDEN): number {
    const prison = this.world.planet(prisonName);
    if (!prison) throw new Error(`No planet ${prisonName}`);
    const targets = this.sessions(accountId);
    for (const c of targets) {
      c.sendLine("PRISON", [actor.gender], text, safePrefix(actor.nick));
      this.world.moveTo(accountId, prison.name);
      this.#showPlanet(c, prison);
    }
    return targets.length;
  }

  /** 950 to an account's session, then close: someone logged in from another device. */
  anotherDevice(accountId: string): number {
    const targets = this.sessions(accountId);
    for (const c of targets) {
      c.pendingTakeover = true;
      this.#takeover(c);
    }
    return targets.length;
  }

  /** Drops one account's sessions without a closing handshake. */
  dropAccount(accountId: string): number {
    const targets = [...this.connections.values()].filter((c) => c.account?.id === accountId);
    for (const c of targets) {
      c.closeReason = "dropped";
      c.ws.terminate();
      this.#closed(c, 1006, "");
    }
    return targets.length;
  }

  /** Runs a world change without broadcasting its presence event (the caller sent its own line). */
  #quietly(fn: () => void) {
    this.world.off("presence", this.#onPresence);
    try {
      fn();
    } finally {
      this.world.on("presence", this.#onPresence);
    }
  }

  /** Drops every open connection without a closing handshake (fault "dropped connections"). */
  dropAll(): number {
    const n = this.connections.size;
    // Recorded as closed at once, not when the socket's close event comes: a reset that
    // drops and then clears the history must not find these sessions in it afterwards.
    for (const c of [...this.connections.values()]) {
      c.closeReason = "dropped";
      c.ws.terminate();
      this.#closed(c, 1006, "");
    }
    return n;
  }

  snapshot() {
    return {
      open: [...this.connections.values()].map((c) => c.snapshot()),
      closed: [...this.closed],
      total: this.total,
      kicks: this.kicks.length,
      refused: this.refused,
    };
  }

  /**
   * Socket counts for the multi-host test (GET /__sim/counters): open sockets, accounts logged
   * in, and accounts with two logged-in sockets open at once (the old one not yet closed,
   * whether or not it was told 950) — the platform's view of "two holders".
   */
  counts() {
    const perAccount = new Map<string, number>();
    /** Logged-in accounts per client address (which host holds them). */
    const byRemote: Record<string, string[]> = {};
    for (const c of this.sessions()) {
      perAccount.set(c.account!.id, (perAccount.get(c.account!.id) ?? 0) + 1);
      (byRemote[c.remoteAddress ?? "?"] ??= []).push(c.account!.id);
    }
    const doubled = [...perAccount].filter(([, n]) => n > 1).map(([id]) => id);
    return {
      ...this.counters,
      openSockets: this.connections.size,
      onlineAccounts: perAccount.size,
      doubledAccounts: doubled.length,
      doubled: doubled.slice(0, 50),
      byRemote,
    };
  }

  /** Forget history (POST /__sim/reset). */
  clearHistory() {
    this.counters.logins = 0;
    this.counters.takeovers = 0;
    this.takeoversByAccount.clear();
    this.#quitAt.clear();
    this.closed.length = 0;
    this.refused = 0;
    this.kicks.length = 0;
    this.total = this.connections.size;
  }

  async close() {
    this.world.off("presence", this.#onPresence);
    if (this.#pingTimer) clearInterval(this.#pingTimer);
    for (const c of this.connections.values()) c.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/** A nick usable as a line prefix (no spaces or colons). */
function safePrefix(nick: string) {
  return nick.replace(/[\s:]/g, "_");
}
