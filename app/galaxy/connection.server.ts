/**
 * One character's socket connection with the Galaxy chat server: a "Galaxy connection" in the
 * spec (spec 2 §4 "Galaxy client connection", §8 "Platform login codes"; protocol facts in
 * docs/galaxy-protocol.md).
 *
 *   const s = new GalaxyConnection({ credentials: { recoveryCode }, log, onLogin });
 *   s.on("users", (users) => …);
 *   const me = await s.connect();      // IDENT → HAAAPSI → RECOVER → REGISTER → USER → 999
 *   await s.joinPlanet("Cannon*3");    // resolves on 366, rejects on 403/471/473…
 *   await s.close();                   // QUIT :ds
 *
 * Credentials live only in private fields: they are never logged, never part of an event
 * except `loggedIn` (which hands the new password to the caller to store encrypted), and
 * may be passed in their encrypted at-rest form (`v1:…`, app/utils/secrets.server.ts).
 *
 * Side effects come in through the options (`log`, `onLogin`) instead of imports, so the
 * session host and the tests decide where System Logs rows and user-agent data go. The app's
 * wiring (System Logs with source galaxyAuth, the user-agent registry) is
 * `createGalaxyConnection` in app/platform/connection-deps.server.ts.
 */
import { countGalaxyLogin } from "~/utils/metrics.server";
import { EventEmitter } from "node:events";
import WebSocket from "ws";
import { PLANET_NAME_PATTERN } from "#api/planet-name";
import { getEnv } from "~/utils/env.server";
import { decryptSecret, isEncryptedSecret } from "~/utils/secrets.server";
import { GALAXY_MESSAGES as M } from "./messages";
import {
  authCode as webAuthCode,
  formatLine,
  maskLine,
  NoticeAssembler,
  parseLine,
  ProtocolError,
  readHaaapsi,
  readRegister,
  splitFrame,
  WEB_CLIENT,
  webClientHeaders,
  type GalaxyLine,
  type Notice,
  type PlanetInfo,
  type PlanetUser,
} from "./protocol";
import { emptyRoster, isOnPlanet, reduceRoster, rosterChange, type Roster, type RosterChange } from "./roster";

export type GalaxyState = "disconnected" | "connecting" | "connected" | "error";

export type GalaxyErrorCode =
  | "connection" // could not reach the server after the retries
  | "connection_lost" // an established connection dropped
  | "invalid_credentials" // 451
  | "online_or_banned" // 452
  | "another_device" // 950
  | "come_later" // 601
  | "login" // any other refusal or timeout during login
  | "protocol" // a malformed line
  | "join" // 403/471/473/474/475 or a join timeout
  | "not_connected"
  | "closed"; // close() was called while something was pending

export class GalaxyError extends Error {
  override name = "GalaxyError";
  constructor(
    message: string,
    readonly code: GalaxyErrorCode,
    /** The server's numeric reply, when there was one (e.g. "451", "471"). */
    readonly numeric: string | null = null,
    /** The server's own text (trailing part), which may be localized. */
    readonly serverText: string | null = null,
  ) {
    super(message);
  }
}

export type LoggedInInfo = { id: string; password: string; nick: string };

/** What the user-agent registry keeps per account (spec 1 §3 "User-agent record per account"). */
export type ConnectionUserAgent = {
  headers: Record<string, string>;
  sek: string | null;
  device: string;
  id: string;
  nick: string;
};

export type LoggedInContext = { accountId: string; nick: string; record: ConnectionUserAgent };

/**
 * One System Logs row as the connection reports it (spec 2 §3 "Logs"): login failures and
 * the connection failure (`error`), the 451 → recovery-code retry (`info`), dropped
 * connections and 950 (`disconnect`), a failed `onLogin` (`error`). The writer adds the
 * source. Details hold account id, nick, server host and codes only, never credentials.
 */
export type GalaxyLogEntry = {
  type: "error" | "disconnect" | "info";
  message: string;
  details: GalaxyLogDetails;
};
export type GalaxyLogDetails = { accountId: string | null; nick: string | null; server: string; [key: string]: unknown };
export type GalaxyLogger = (entry: GalaxyLogEntry) => void | Promise<void>;

export type GalaxyConnectionCredentials = {
  /** 10-character recovery code (plain or encrypted at rest). */
  recoveryCode?: string | null;
  /** Account id and 32-hex game password (plain or encrypted) from an earlier REGISTER. */
  id?: string | null;
  password?: string | null;
  nick?: string | null;
};

export type GalaxyConnectionOptions = {
  credentials: GalaxyConnectionCredentials;
  /** Socket URL; default GALAXY_WS_URL. */
  url?: string;
  /** Accept self-signed certificates; default GALAXY_INSECURE_TLS. */
  insecureTls?: boolean;
  /** Planet to join after login; undefined, null or "" sends a bare JOIN (default/last planet). */
  planet?: string | null;
  /** Send a JOIN at all after login (default true). */
  joinOnConnect?: boolean;
  locale?: string;
  clientCode?: number;
  /** Request headers of this character (iHeaders), registered as its user-agent data. */
  headers?: Record<string, string> | null;
  /** Android device token; its presence marks the device as android. */
  sek?: string | null;
  device?: string | null;
  /** Retries after a connection error, and the pause between them (spec 2 §9: 2, 2 s). */
  retries?: number;
  retryDelayMs?: number;
  connectTimeoutMs?: number;
  loginTimeoutMs?: number;
  joinTimeoutMs?: number;
  /**
   * After-login work, called after 999 with the account's user-agent data (spec 2 §4: the
   * client posts it); runs in the background, `idle()` waits for it, a failure is logged.
   * The app posts it to the user-agent registry (app/platform/connection-deps.server.ts). Default: none.
   */
  onLogin?: ((ctx: LoggedInContext) => void | Promise<void>) | null;
  /**
   * Called when close() sends `QUIT :ds` on a logged-in connection, with the account and the
   * time (ms since the epoch): the platform refuses a login of that account with 452 for a
   * while after it left (issue 34 item 2; docs/sessions.md "452 after our own logout"). Runs in
   * the background; close() waits for it; a failure is ignored. The app records it
   * (app/platform/connection-deps.server.ts). Default: none.
   */
  onLogout?: ((accountId: string, at: number) => void | Promise<void>) | null;
  /** Where login failures and disconnects are reported (the app: System Logs). Default: nowhere. */
  log?: GalaxyLogger | null;
  /**
   * Keepalive: a bare PONG after this long without sending anything while online (SAB,
   * reference §3.1; galaxy-runtime.md §1.3 item 2). Default 25 s; 0 turns it off.
   */
  keepaliveMs?: number;
  /**
   * Called after REGISTER with the account a recovery code belongs to, before USER logs it in
   * (a login would take over any other session of the account). A rejection ends the login
   * without it: connect() rejects with a GalaxyError whose `cause` is the rejection.
   */
  beforeLogin?: ((account: { id: string; nick: string }) => Promise<void>) | null;
  /** Replaces the auth-code function (tests use it to send a wrong code). */
  authCode?: (seed: string) => string;
};

type Events = {
  state: [state: GalaxyState, previous: GalaxyState];
  error: [error: GalaxyError];
  planet: [planet: PlanetInfo | null];
  /** The planet's users; `change` when one line changed a complete list (absent for a whole new list). */
  users: [users: readonly PlanetUser[], change?: RosterChange];
  line: [line: GalaxyLine];
  loggedIn: [info: LoggedInInfo];
  closed: [info: { expected: boolean; reason: string; code: number | null }];
  notice: [notice: Notice];
};

type Deferred<T> = { promise: Promise<T>; resolve: (v: T) => void; reject: (e: Error) => void };
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A rejection nobody awaits must not crash the process: the error event reports it too.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

const LOGIN_CODES: Record<string, { code: GalaxyErrorCode; message: string }> = {
  "451": { code: "invalid_credentials", message: M.invalidCredentials },
  "452": { code: "online_or_banned", message: M.onlineOrBanned },
  "601": { code: "come_later", message: M.comeLater },
  "950": { code: "another_device", message: M.anotherDevice },
};

const JOIN_CODES: Record<string, string | null> = {
  "403": M.noSuchPlanet,
  "471": M.planetFull,
  "473": M.planetLocked,
  "474": null, // the server's own text
  "475": null,
};

const PLANET_NAME = PLANET_NAME_PATTERN;

/** Failure of one connection attempt, sorted into "retry" and "give up". */
class AttemptError extends Error {
  constructor(
    readonly retryable: boolean,
    readonly error: GalaxyError,
  ) {
    super(error.message);
  }
}

export class GalaxyConnection extends EventEmitter<Events> {
  readonly url: string;
  #opts: GalaxyConnectionOptions;
  // Credentials: private, never enumerable, never logged.
  #rc: string | null;
  #id: string | null;
  #password: string | null;
  #nick: string | null;

  #state: GalaxyState = "disconnected";
  #ws: WebSocket | null = null;
  #phase: "idle" | "handshake" | "online" | "closing" = "idle";
  #connecting: Deferred<LoggedInInfo> | null = null;
  #attemptDone: ((err: AttemptError | null) => void) | null = null;
  #abortWait: (() => void) | null = null;
  #closing = false;
  #expectedClose: { reason: string; state: GalaxyState } | null = null;

  #roster: Roster = emptyRoster;
  #pendingJoin: (Deferred<PlanetInfo> & { name: string | null; timer: NodeJS.Timeout }) | null = null;
  #notices = new NoticeAssembler();
  #lastError: GalaxyError | null = null;
  #background = new Set<Promise<void>>();
  /** Sends a bare PONG when nothing was sent for keepaliveMs (re-armed by every send). */
  #keepalive: NodeJS.Timeout | null = null;

  constructor(options: GalaxyConnectionOptions) {
    super();
    const env = getEnv();
    this.#opts = options;
    this.url = options.url ?? env.GALAXY_WS_URL;
    const c = options.credentials;
    this.#rc = reveal(c.recoveryCode);
    this.#id = c.id ? String(c.id) : null;
    this.#password = reveal(c.password);
    this.#nick = c.nick ?? null;
  }

  get state(): GalaxyState {
    return this.#state;
  }
  /** The logged-in (or configured) account id. */
  get accountId(): string | null {
    return this.#id;
  }
  get nick(): string | null {
    return this.#nick;
  }
  get planet(): PlanetInfo | null {
    return this.#roster.planet;
  }
  /** Users on the current planet, in arrival order (immutable: a new array after each change). */
  get users(): readonly PlanetUser[] {
    return this.#roster.users;
  }
  /** The current planet, its users and whether their list is complete (app/galaxy/roster.ts). */
  get roster(): Roster {
    return this.#roster;
  }
  get lastError(): GalaxyError | null {
    return this.#lastError;
  }

  /** Never serialize credentials by accident. */
  toJSON() {
    return { url: this.url, state: this.#state, accountId: this.#id, nick: this.#nick, planet: this.#roster.planet?.name ?? null };
  }
  [Symbol.for("nodejs.util.inspect.custom")]() {
    return `GalaxyConnection ${JSON.stringify(this.toJSON())}`;
  }

  /**
   * Opens the socket and logs in. Resolves once 999 arrived, the client-info lines and the JOIN
   * were sent and the user-agent data was posted (state "connected"). A connection error is
   * retried `retries` times `retryDelayMs` apart; login refusals are not (except one 451 retry
   * with the recovery code after stored credentials failed).
   */
  connect(): Promise<LoggedInInfo> {
    if (this.#connecting) return this.#connecting.promise;
    if (this.#state === "connected" && this.#id && this.#password && this.#nick) {
      return Promise.resolve({ id: this.#id, password: this.#password, nick: this.#nick });
    }
    if (!this.#rc && !(this.#id && this.#password)) {
      const err = new GalaxyError(M.noCredentials, "login");
      this.#fail(err);
      return Promise.reject(err);
    }
    this.#closing = false;
    this.#expectedClose = null;
    const d = deferred<LoggedInInfo>();
    this.#connecting = d;
    this.#setState("connecting");
    void this.#run().then(
      (info) => {
        if (this.#connecting === d) this.#connecting = null;
        d.resolve(info);
      },
      (err: GalaxyError) => {
        if (this.#connecting === d) this.#connecting = null;
        d.reject(err);
      },
    );
    return d.promise;
  }

  async #run(): Promise<LoggedInInfo> {
    const retries = this.#opts.retries ?? 2;
    const delay = this.#opts.retryDelayMs ?? 2000;
    let mode: "password" | "recovery" = this.#id && this.#password ? "password" : "recovery";
    let triedRecovery = mode === "recovery";
    let failures = 0;
    for (;;) {
      try {
        const info = await this.#attempt(mode);
        countGalaxyLogin("999");
        return info;
      } catch (e) {
        const err = e instanceof AttemptError ? e : new AttemptError(false, toGalaxyError(e));
        if (this.#closing) throw this.#closedWhilePending();
        if (err.error.code === "invalid_credentials" && !triedRecovery && this.#rc) {
          // Spec 2 §8: 451 with stored credentials → log in again with the recovery code.
          triedRecovery = true;
          mode = "recovery";
          this.#log({ type: "info", message: M.recoveryCodeRetry, details: this.#details({ code: 451 }) });
          continue;
        }
        if (err.retryable && failures < retries) {
          failures++;
          await this.#wait(delay);
          if (this.#closing) throw this.#closedWhilePending();
          continue;
        }
        const final = err.retryable ? new GalaxyError(M.connectionFailed, "connection", null, err.error.message) : err.error;
        countGalaxyLogin(final.numeric ?? final.code);
        this.#log({
          type: "error",
          message: final.code === "connection" ? M.connectionFailed : final.message,
          details: this.#details({ code: final.numeric, attempts: failures + 1, cause: final.serverText ?? undefined }),
        });
        this.#fail(final);
        throw final;
      }
    }
  }

  #attempt(mode: "password" | "recovery"): Promise<LoggedInInfo> {
    return new Promise<LoggedInInfo>((resolve, reject) => {
      let settled = false;
      let socketError: Error | null = null;
      let loginTimer: NodeJS.Timeout | null = null;
      const done = (err: AttemptError | null, info?: LoggedInInfo) => {
        if (settled) return;
        settled = true;
        if (loginTimer) clearTimeout(loginTimer);
        this.#attemptDone = null;
        if (err) {
          // Forget the socket first so its close event is not taken for a dropped connection.
          this.#phase = "idle";
          const ws = this.#ws;
          this.#ws = null;
          if (ws && ws.readyState !== WebSocket.CLOSED) ws.terminate();
          reject(err);
        } else resolve(info!);
      };
      this.#attemptDone = (err) => done(err);
      this.#resetPlanet(false);
      this.#notices = new NoticeAssembler();
      this.#phase = "handshake";
      let ws: WebSocket;
      try {
        ws = new WebSocket(this.url, {
          handshakeTimeout: this.#opts.connectTimeoutMs ?? 10_000,
          rejectUnauthorized: !(this.#opts.insecureTls ?? getEnv().GALAXY_INSECURE_TLS),
          perMessageDeflate: false,
        });
      } catch (e) {
        done(new AttemptError(false, new GalaxyError(`Invalid Galaxy URL: ${(e as Error).message}`, "connection")));
        return;
      }
      this.#ws = ws;
      loginTimer = setTimeout(() => done(new AttemptError(true, new GalaxyError(M.loginTimeout, "login"))), this.#opts.loginTimeoutMs ?? 20_000);

      ws.on("open", () => {
        const locale = this.#opts.locale ?? "en";
        this.#sendNow(
          formatLine({
            prefix: locale,
            command: "IDENT",
            params: [this.#opts.clientCode ?? WEB_CLIENT.clientCode, ...WEB_CLIENT.identTail],
            trailing: WEB_CLIENT.identName,
          }),
        );
      });
      ws.on("error", (err) => {
        socketError = err;
      });
      ws.on("message", (data) => {
        if (this.#ws !== ws) return;
        const text = Buffer.isBuffer(data)
          ? data.toString("utf8")
          : Array.isArray(data)
            ? Buffer.concat(data).toString("utf8")
            : Buffer.from(data).toString("utf8");
        for (const raw of splitFrame(text)) {
          try {
            this.#handle(
              raw,
              mode,
              (info) => done(null, info),
              (err) => done(err),
            );
          } catch (e) {
            // A handler bug or a malformed line must never take the process down.
            this.#emitError(e instanceof GalaxyError ? e : protocolError(e, raw));
          }
        }
      });
      ws.on("close", (code, reasonBuf) => {
        if (this.#ws !== ws) return;
        this.#ws = null;
        const reason = reasonBuf.toString() || socketError?.message || `code ${code}`;
        if (!settled) {
          done(new AttemptError(true, new GalaxyError(socketError?.message ?? `Connection closed during login (${reason})`, "connection")));
          return;
        }
        this.#onClosed(code, reason);
      });
    });
  }

  /** One inbound line. `ok`/`fail` settle the login attempt while it is pending. */
  #handle(raw: string, mode: "password" | "recovery", ok: (info: LoggedInInfo) => void, fail: (err: AttemptError) => void) {
    let line: GalaxyLine;
    try {
      line = parseLine(raw);
    } catch (e) {
      this.#emitError(protocolError(e, raw));
      return;
    }
    this.emit("line", line);
    const cmd = line.command;

    if (cmd === "PING") {
      this.#sendNow("PONG\r\n");
      return;
    }

    if (this.#phase === "handshake") {
      const code = this.#opts.authCode ?? webAuthCode;
      switch (cmd) {
        case "HAAAPSI": {
          let seed: string;
          try {
            seed = readHaaapsi(line).seed;
          } catch (e) {
            fail(new AttemptError(false, protocolError(e, raw)));
            return;
          }
          this.#seedCode = code(seed);
          if (mode === "recovery") this.#sendNow(formatLine("RECOVER", [this.#rc!]));
          else this.#sendUser();
          return;
        }
        case "REGISTER": {
          let r: ReturnType<typeof readRegister>;
          try {
            r = readRegister(line);
          } catch (e) {
            fail(new AttemptError(false, protocolError(e, raw)));
            return;
          }
          this.#id = r.id;
          this.#password = r.password;
          this.#nick = r.nick;
          const check = this.#opts.beforeLogin;
          if (!check) {
            this.#sendUser();
            return;
          }
          const ws = this.#ws;
          check({ id: r.id, nick: r.nick }).then(
            () => {
              // Still the same attempt, still logging in: go on.
              if (this.#ws === ws && this.#phase === "handshake") this.#sendUser();
            },
            (e: unknown) => {
              const err = new GalaxyError(e instanceof Error ? e.message : String(e), "login");
              (err as Error & { cause?: unknown }).cause = e;
              fail(new AttemptError(false, err));
            },
          );
          return;
        }
        case "999":
          this.#loggedIn(ok);
          return;
        default: {
          const login = LOGIN_CODES[cmd];
          if (login) {
            fail(new AttemptError(false, new GalaxyError(login.message, login.code, cmd, line.trailing)));
          }
          return;
        }
      }
    }

    if (this.#phase !== "online") return;
    switch (cmd) {
      case "900":
      case "353":
      case "366":
      case "JOIN":
      case "PART":
      case "SLEEP":
      case "REMOVE":
      case "KICK":
      case "BAN":
      case "PRISON":
        this.#applyRosterLine(line);
        return;
      case "850": {
        const notice = this.#notices.push(line);
        if (notice) this.emit("notice", notice);
        return;
      }
      case "950": {
        // Spec 2 §8: "You login from another device" and the connection closes.
        const err = new GalaxyError(M.anotherDevice, "another_device", "950", line.trailing);
        this.#expectedClose = { reason: M.anotherDevice, state: "disconnected" };
        this.#lastError = err;
        this.#log({ type: "disconnect", message: M.anotherDevice, details: this.#details({ code: 950 }) });
        this.#emitError(err);
        this.#ws?.close(1000);
        return;
      }
      default: {
        if (cmd in JOIN_CODES) {
          const message = JOIN_CODES[cmd] ?? line.trailing ?? `Could not join the planet (${cmd})`;
          const err = new GalaxyError(message, "join", cmd, line.trailing);
          const join = this.#pendingJoin;
          if (join) {
            this.#pendingJoin = null;
            clearTimeout(join.timer);
            join.reject(err);
          }
          this.#emitError(err);
        }
      }
    }
  }

  #seedCode: string | null = null;

  #sendUser() {
    // The web client sends 4 fields: USER <id> <password> <nick> <authcode> (reference §3.1);
    // an Android account adds its sek as the 5th (galaxy-runtime.md §6.1).
    const fields = [this.#id!, this.#password!, this.#nick || this.#id!, this.#seedCode!];
    const sek = this.#opts.sek ? reveal(this.#opts.sek) : null;
    if (sek && /^[^\s:]{1,128}$/.test(sek)) fields.push(sek);
    this.#sendNow(formatLine("USER", fields));
  }

  #loggedIn(ok: (info: LoggedInInfo) => void) {
    this.#phase = "online";
    this.#startKeepalive();
    // Reference §3.1 step 8: the client-info lines, then the JOIN.
    this.#sendNow(formatLine("FWLISTVER", [0]));
    this.#sendNow(formatLine("ADDONS", [0, 0]));
    this.#sendNow(formatLine("MYADDONS", [0, 0]));
    this.#sendNow(formatLine("PHONE", [WEB_CLIENT.width, WEB_CLIENT.height, 0, 2], WEB_CLIENT.model));
    if (this.#opts.joinOnConnect ?? true) {
      const planet = this.#opts.planet;
      if (planet && PLANET_NAME.test(planet)) this.#sendNow(formatLine("JOIN", [planet]));
      else this.#sendNow("JOIN\r\n");
    }
    const info: LoggedInInfo = { id: this.#id!, password: this.#password!, nick: this.#nick ?? this.#id! };
    // Spec 2 §4: "posts user-agent data, and the state becomes connected". The post runs in
    // the background (idle() waits for it) so a slow registry never holds the socket's lines.
    const hook = this.#opts.onLogin;
    if (hook) {
      this.#track(
        (async () => {
          try {
            await hook({ accountId: info.id, nick: info.nick, record: this.userAgentRecord() });
          } catch (e) {
            this.#log({ type: "error", message: M.userAgentFailed, details: this.#details({ cause: (e as Error).message }) });
          }
        })(),
      );
    }
    this.#setState("connected");
    this.emit("loggedIn", info);
    ok(info);
  }

  /** This character's user-agent data: headers, sek, device, id, nick. */
  userAgentRecord(): ConnectionUserAgent {
    const sek = this.#opts.sek ?? null;
    const headers = this.#opts.headers ?? webClientHeaders(this.#opts.locale ?? "en");
    const platform = Object.entries(headers)
      .find(([k]) => k.toLowerCase() === "x-galaxy-platform")?.[1]
      ?.trim()
      .toLowerCase();
    return {
      headers,
      sek,
      // Spec 2 §2: Android when there is a sek, otherwise the platform header, default web.
      device: this.#opts.device ?? (sek ? "android" : platform || "web"),
      id: this.#id ?? "",
      nick: this.#nick ?? "",
    };
  }

  /**
   * Flies to a planet (spec 2 §4): a bare JOIN when `name` is empty. Resolves with the planet
   * once its user list is complete (366); rejects with "Not connected to Galaxy" when the
   * connection is not connected, or with the planet error (403, 471, 473, …).
   */
  joinPlanet(name?: string | null): Promise<PlanetInfo> {
    if (this.#state !== "connected" || this.#phase !== "online") {
      return Promise.reject(new GalaxyError(M.notConnected, "not_connected"));
    }
    const planet = name?.trim() || null;
    if (planet !== null && !PLANET_NAME.test(planet)) return Promise.reject(new GalaxyError(M.invalidPlanet, "join"));
    if (this.#pendingJoin) {
      clearTimeout(this.#pendingJoin.timer);
      this.#pendingJoin.reject(new GalaxyError(M.joinSuperseded, "join"));
    }
    const d = deferred<PlanetInfo>();
    const timer = setTimeout(() => {
      if (this.#pendingJoin?.promise === d.promise) this.#pendingJoin = null;
      d.reject(new GalaxyError(M.joinTimeout, "join"));
    }, this.#opts.joinTimeoutMs ?? 15_000);
    this.#pendingJoin = { ...d, name: planet, timer };
    this.#sendNow(planet ? formatLine("JOIN", [planet]) : "JOIN\r\n");
    return d.promise;
  }

  /** Sends one protocol line (formatted and checked by formatLine). */
  send(command: string, params: (string | number)[] = [], trailing: string | null = null) {
    if (this.#state !== "connected" || this.#phase !== "online") throw new GalaxyError(M.notConnected, "not_connected");
    this.#sendNow(formatLine(command, params, trailing));
  }

  /**
   * Logs out: `QUIT :ds` (reference §3.1 step 11), then closes the socket. Safe to call in any
   * state; a pending connect() rejects.
   */
  async close(): Promise<void> {
    this.#closing = true;
    this.#stopKeepalive();
    this.#abortWait?.();
    const ws = this.#ws;
    const pending = this.#connecting;
    if (ws && ws.readyState === WebSocket.OPEN) {
      this.#expectedClose = { reason: M.closedByUser, state: "disconnected" };
      const leaving = this.#phase === "online" ? this.#id : null;
      this.#phase = "closing";
      this.#sendNow("QUIT :ds\r\n");
      const onLogout = this.#opts.onLogout;
      if (leaving && onLogout) {
        const at = Date.now();
        this.#track((async () => void (await onLogout(leaving, at)))().catch(() => {}));
      }
      const closed = new Promise<void>((res) => ws.once("close", () => res()));
      ws.close(1000);
      const timer = setTimeout(() => ws.terminate(), 2000);
      await closed;
      clearTimeout(timer);
    } else if (ws) {
      ws.terminate();
    }
    this.#attemptDone?.(new AttemptError(false, this.#closedWhilePending()));
    if (pending) await pending.promise.catch(() => {});
    if (this.#state !== "disconnected") {
      this.#resetPlanet(true);
      this.#setState("disconnected");
      this.emit("closed", { expected: true, reason: M.closedByUser, code: null });
    }
    await this.idle();
  }

  /** Resolves when background work is done: the user-agent post and System Logs rows. */
  async idle() {
    while (this.#background.size) await Promise.all([...this.#background]);
  }

  // ------------------------------------------------------------------------------------------

  #onClosed(code: number, reason: string) {
    this.#stopKeepalive();
    const expected = this.#expectedClose;
    this.#expectedClose = null;
    this.#phase = "idle";
    const join = this.#pendingJoin;
    if (join) {
      this.#pendingJoin = null;
      clearTimeout(join.timer);
      join.reject(new GalaxyError(expected ? M.closedByUser : M.connectionLost, expected ? "closed" : "connection_lost"));
    }
    this.#resetPlanet(true);
    if (expected) {
      this.#setState(expected.state);
      this.emit("closed", { expected: true, reason: expected.reason, code });
      return;
    }
    if (this.#closing) return; // close() reports it
    const err = new GalaxyError(M.connectionLost, "connection_lost", null, reason);
    this.#log({ type: "disconnect", message: M.connectionLost, details: this.#details({ closeCode: code, reason }) });
    this.#fail(err);
    this.emit("closed", { expected: false, reason, code });
  }

  /**
   * Applies one planet line to the roster and announces what changed: `planet` when the
   * planet changed, `users` when 366 ends the list (which also settles a pending joinPlanet)
   * or when an arrival, departure or move changes a complete list; leaving a planet (our own
   * KICK/BAN, PRISON) announces `null` and `[]`.
   */
  #applyRosterLine(line: GalaxyLine) {
    const prev = this.#roster;
    const next = reduceRoster(prev, line, this.#id);
    this.#roster = next;
    if (next === emptyRoster && prev !== emptyRoster) {
      this.#announceLeft(prev);
      return;
    }
    if (next.planet !== prev.planet) this.emit("planet", next.planet);
    if (line.command === "366") {
      this.emit("users", next.users);
      const join = this.#pendingJoin;
      if (join && next.planet) {
        this.#pendingJoin = null;
        clearTimeout(join.timer);
        join.resolve(next.planet);
      }
    } else if (next.users !== prev.users && next.complete && line.command !== "353") {
      // 353 lines only build the list that 366 announces.
      this.emit("users", next.users, rosterChange(prev, next));
    }
  }

  /** Forgets the planet; `announce` tells listeners we are on none any more. */
  #resetPlanet(announce: boolean) {
    const prev = this.#roster;
    this.#roster = emptyRoster;
    if (announce) this.#announceLeft(prev);
  }

  #announceLeft(prev: Roster) {
    if (!isOnPlanet(prev)) return;
    this.emit("planet", null);
    this.emit("users", emptyRoster.users);
  }

  #sendNow(text: string) {
    const ws = this.#ws;
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(text);
      // Only while online: a re-armed timer is cheaper than a check per connection per second.
      this.#keepalive?.refresh();
    }
  }

  #startKeepalive() {
    const ms = this.#opts.keepaliveMs ?? 25_000;
    this.#stopKeepalive();
    if (ms <= 0) return;
    const timer = setInterval(() => {
      if (this.#phase === "online" && this.#state === "connected") this.#sendNow("PONG\r\n");
    }, ms);
    timer.unref();
    this.#keepalive = timer;
  }

  #stopKeepalive() {
    if (this.#keepalive) clearInterval(this.#keepalive);
    this.#keepalive = null;
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#abortWait = null;
        resolve();
      }, ms);
      this.#abortWait = () => {
        clearTimeout(timer);
        this.#abortWait = null;
        resolve();
      };
    });
  }

  #closedWhilePending() {
    return new GalaxyError(M.closedByUser, "closed");
  }

  #fail(err: GalaxyError) {
    this.#lastError = err;
    this.#setState("error");
    this.#emitError(err);
  }

  #setState(next: GalaxyState) {
    const prev = this.#state;
    if (prev === next) return;
    this.#state = next;
    this.emit("state", next, prev);
  }

  /** EventEmitter throws on an unheard "error"; a connection must never crash its host. */
  #emitError(err: GalaxyError) {
    if (this.listenerCount("error") > 0) this.emit("error", err);
  }

  #details(extra: Record<string, unknown>): GalaxyLogDetails {
    let host = this.url;
    try {
      host = new URL(this.url).host;
    } catch {
      // keep the raw value
    }
    return { accountId: this.#id, nick: this.#nick, server: host, ...extra };
  }

  #log(entry: GalaxyLogEntry) {
    const log = this.#opts.log;
    if (!log) return;
    // A logger that throws or rejects must not take the connection (or its host) down; the
    // app's System Logs writer reports its own storage failures.
    this.#track(
      (async () => {
        try {
          await log(entry);
        } catch {
          // nothing left to report it to
        }
      })(),
    );
  }

  #track(work: Promise<void>) {
    const p: Promise<void> = work.finally(() => this.#background.delete(p));
    this.#background.add(p);
  }
}

/** Accepts a secret in plain form or in its encrypted at-rest form. */
function reveal(value: string | null | undefined): string | null {
  if (!value) return null;
  return isEncryptedSecret(value) ? decryptSecret(value) : value;
}

function protocolError(e: unknown, raw: string): GalaxyError {
  const detail = e instanceof ProtocolError ? e.message : ((e as Error)?.message ?? String(e));
  return new GalaxyError(`${M.malformedLine}: ${detail}`, "protocol", null, maskLine(raw));
}

function toGalaxyError(e: unknown): GalaxyError {
  return e instanceof GalaxyError ? e : new GalaxyError((e as Error)?.message ?? String(e), "login");
}
