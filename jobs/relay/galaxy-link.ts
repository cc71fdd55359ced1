/**
 * One relay connection to Galaxy (spec 2 §4 "Galaxy client connection"; galaxy-runtime.md
 * §5.3 [D]; docs/galacord.md): logged in with the saved password (the recovery code is the
 * 451 fallback), joins the saved planet (else a bare JOIN); the connection keeps alive; the
 * one supervisor (jobs/processors/supervise.ts) reconnects after a drop (2 × 2 s, then
 * doubling up to the cap) and ends it on 451/950 with the platform's words, all written to
 * its `relay-link` session. Planet chat lines from others come out as `onChat`; lines to say
 * are queued and paced (a burst, then one line per interval) so the platform's limits hold,
 * and kept while reconnecting.
 */
import { countRelayMessage } from "~/utils/metrics.server";
import { GalaxyError, type GalaxyConnection } from "~/galaxy/connection.server";
import { createGalaxyConnection } from "~/platform/connection-deps.server";
import { GALAXY_MESSAGES as M } from "~/galaxy/messages";
import type { GalaxyLine } from "~/galaxy/protocol";
import { errorText } from "~/utils/errors";
import { superviseConnection, type ConnectionOutcome, type Supervised } from "../processors/supervise";
import type { RelaySettings } from "./settings";

export type LinkCredentials = { accountId: string; nick: string; password: string | null; recoveryCode: string };

export type LinkEvents = {
  /** The planet it stands on (null while it is on none); awaited before the link reports itself up. */
  onPlanet(planet: string | null): void | Promise<void>;
  onChat(chat: { fromId: string; nick: string; text: string; system: boolean; toId: string }): void;
  onPassword(password: string): void;
};

/** What the link's session needs (its row is written through these; jobs/processors/relay.ts binds them). */
export type LinkSession = Omit<Supervised, "signal" | "label" | "logDrops">;

/** A line waiting to be said: `to` the addressee's id ("0" = everyone), `tag` the Discord message it carries. */
type QueuedLine = { text: string; to: string; tag: string | null; at: number };

/** Tags said recently (for deletes: when a Discord message's lines went out), at most this many. */
const SAID_TAGS_MAX = 2_000;

export class GalaxyLink {
  conn: GalaxyConnection | null = null;
  planet: string | null;
  #queue: QueuedLine[] = [];
  #saidAt = new Map<string, number>();
  #tokens: number;
  #lastRefill = Date.now();
  #pump: NodeJS.Timeout | null = null;
  #closed = new AbortController();
  #lastJoinAt = 0;
  dropped = 0;
  said = 0;
  /** When the last line went out (ms), 0 before the first (issue 31: the Sessions page's counters). */
  lastSaidAt = 0;

  constructor(
    readonly creds: LinkCredentials,
    readonly channelId: string,
    planet: string | null,
    private readonly settings: RelaySettings,
    private readonly events: LinkEvents,
    private readonly session: LinkSession,
  ) {
    this.planet = planet;
    this.#tokens = settings.RELAY_LINE_BURST;
  }

  get connected(): boolean {
    return this.conn?.state === "connected" && !!this.conn.planet;
  }

  /** Runs until close(), or until the platform refuses the account for good (451, 950, 452). */
  async run(): Promise<void> {
    const s = this.settings;
    await superviseConnection(
      { ...this.session, signal: this.#closed.signal, label: `GalaCord ${this.creds.nick}` },
      {
        dropRetryMs: s.RELAY_GALAXY_RETRY_MS,
        dropRetries: 2,
        backoffMaxMs: s.RELAY_BACKOFF_MAX_MS,
        busyRetryMs: s.RELAY_GALAXY_RETRY_MS * 6,
        busyRetries: 3,
        firstConnect: "persist",
        busyOnFirst: "retry",
      },
      () => this.#connectOnce(),
    );
  }

  async #connectOnce(): Promise<ConnectionOutcome> {
    const { creds } = this;
    const conn = createGalaxyConnection({
      credentials: { id: creds.password ? creds.accountId : null, password: creds.password, nick: creds.nick, recoveryCode: creds.recoveryCode },
      planet: this.planet,
      retries: 0,
      keepaliveMs: this.settings.RELAY_KEEPALIVE_MS,
    });
    this.conn = conn;
    let online = false;
    let refused: ConnectionOutcome | null = null;
    conn.on("error", (err: GalaxyError) => {
      if (err.code === "another_device") refused = { kind: "refused", code: "another_device", message: err.message };
    });
    conn.on("loggedIn", (info) => {
      if (info.password !== creds.password) {
        creds.password = info.password;
        this.events.onPassword(info.password);
      }
    });
    conn.on("planet", (planet) => {
      if (planet) {
        online = true;
        this.planet = planet.name;
        // The saved planet first, then "connected": a screen that sees it up sees where it is.
        const name = planet.name;
        void Promise.resolve(this.events.onPlanet(name))
          .catch(() => {})
          .then(() => this.session.report({ actual: "active", planet: name, error: null }));
        this.#schedulePump(0);
      } else {
        void Promise.resolve(this.events.onPlanet(null)).catch(() => {});
        void this.session.report({ planet: null });
      }
    });
    conn.on("line", (line: GalaxyLine) => this.#line(conn, line));
    const closed = new Promise<void>((resolve) => conn.once("closed", () => resolve()));
    // A close() that came before this connection existed (while the supervisor wrote
    // "connecting") found no socket to close and aborted a signal nobody listened to yet:
    // end here, or the link would log in and wait for an abort that already happened.
    const aborted = new Promise<void>((resolve) => {
      if (this.#closed.signal.aborted) resolve();
      else this.#closed.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    try {
      if (this.#closed.signal.aborted) return { kind: "aborted" };
      try {
        await conn.connect();
        this.#lastJoinAt = Date.now();
      } catch (err) {
        if (this.#closed.signal.aborted) return { kind: "aborted" };
        const e = err instanceof GalaxyError ? err : new GalaxyError(errorText(err), "login");
        if (e.code === "invalid_credentials" || e.code === "another_device" || e.code === "online_or_banned") {
          return { kind: "refused", code: e.code, message: e.message };
        }
        if (e.code !== "join") return { kind: "dropped", wasOnline: false, why: e.code === "connection" ? M.connectionFailed : e.message };
        // The saved planet refused us: stay logged in and land on the default planet (the saved one is kept).
      }
      if (conn.state === "connected" && !conn.planet) conn.joinPlanet(null).catch(() => {});
      await Promise.race([closed, aborted]);
      if (this.#closed.signal.aborted) return { kind: "aborted" };
      if (refused) return refused;
      return { kind: "dropped", wasOnline: online, why: M.connectionLost };
    } finally {
      if (this.conn === conn) this.conn = null;
      conn.removeAllListeners("closed");
      await conn.close().catch(() => {});
    }
  }

  #line(conn: GalaxyConnection, line: GalaxyLine) {
    if (line.command === "KICK" && line.params[0] === this.creds.accountId) {
      setTimeout(() => {
        if (this.conn === conn && conn.state === "connected") conn.joinPlanet(this.planet).catch(() => conn.joinPlanet(null).catch(() => {}));
      }, this.settings.RELAY_JOIN_MIN_DELAY_MS);
      return;
    }
    if (line.command !== "PRIVMSG" || line.trailing === null) return;
    const [fromId, , toId] = line.params;
    if (!fromId || fromId === this.creds.accountId) return;
    const system = line.prefix === "srv" || line.prefix === "adv";
    if (fromId.startsWith("-") && !system) return;
    const nick = conn.users.find((u) => u.id === fromId)?.nick ?? (system ? line.prefix! : `#${fromId}`);
    this.events.onChat({ fromId, nick, text: line.trailing, system, toId: toId ?? "0" });
  }

  /**
   * Queues lines for the planet (paced; kept while reconnecting, up to RELAY_QUEUE_MAX, the
   * oldest dropped beyond). `to` addresses them (PRIVMSG 0 <to>), `tag` names the Discord
   * message they carry (withdraw).
   */
  say(lines: string[], opts: { to?: string; tag?: string | null } = {}) {
    for (const text of lines) {
      this.#queue.push({ text, to: opts.to ?? "0", tag: opts.tag ?? null, at: Date.now() });
      if (this.#queue.length > this.settings.RELAY_QUEUE_MAX) {
        this.#queue.shift();
        this.dropped++;
        countRelayMessage("to_galaxy", "dropped");
      }
    }
    this.#schedulePump(0);
    this.onQueue?.();
  }

  /**
   * Takes a Discord message's lines back (a delete or an edit): those still queued are removed
   * (never said); `saidAt` is when one of its lines went out (null when none did).
   */
  withdraw(tag: string): { removed: number; saidAt: number | null } {
    const before = this.#queue.length;
    this.#queue = this.#queue.filter((l) => l.tag !== tag);
    const removed = before - this.#queue.length;
    if (removed) this.onQueue?.();
    return { removed, saidAt: this.#saidAt.get(tag) ?? null };
  }

  /** Called when the queue length changes (the holder reports the backlog). */
  onQueue: (() => void) | null = null;

  get queued() {
    return this.#queue.length;
  }

  #schedulePump(ms: number) {
    if (this.#pump || this.#closed.signal.aborted) return;
    this.#pump = setTimeout(() => {
      this.#pump = null;
      this.#drain();
    }, ms);
  }

  #drain() {
    const interval = this.settings.RELAY_LINE_INTERVAL_MS;
    const burst = this.settings.RELAY_LINE_BURST;
    const now = Date.now();
    if (interval <= 0) this.#tokens = burst;
    else {
      this.#tokens = Math.min(burst, this.#tokens + (now - this.#lastRefill) / interval);
    }
    this.#lastRefill = now;
    while (this.#queue.length && this.#tokens >= 1) {
      const conn = this.conn;
      if (!conn || !this.connected) return; // resumes on the next 900
      const line = this.#queue[0];
      try {
        conn.send("PRIVMSG", [0, line.to], line.text);
      } catch {
        return;
      }
      this.#queue.shift();
      this.said++;
      this.lastSaidAt = Date.now();
      countRelayMessage("to_galaxy", "relayed", line.at);
      if (line.tag) {
        this.#saidAt.delete(line.tag);
        this.#saidAt.set(line.tag, Date.now());
        if (this.#saidAt.size > SAID_TAGS_MAX) this.#saidAt.delete(this.#saidAt.keys().next().value!);
      }
      this.onQueue?.();
      if (interval > 0) this.#tokens -= 1;
    }
    if (this.#queue.length) this.#schedulePump(interval > 0 ? Math.ceil((1 - this.#tokens) * interval) : 0);
  }

  /** JOIN another planet (spec 2 §4; galaxy-runtime.md §5.3): at least the join delay after the last JOIN; the platform's reason on failure. */
  async changePlanet(name: string): Promise<string> {
    const conn = this.conn;
    if (!conn || conn.state !== "connected") throw new GalaxyError(M.notConnected, "not_connected");
    const wait = this.#lastJoinAt + this.settings.RELAY_JOIN_MIN_DELAY_MS - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.#lastJoinAt = Date.now();
    let onLine: ((l: GalaxyLine) => void) | null = null;
    const flyRefused = new Promise<never>((_, reject) => {
      onLine = (l: GalaxyLine) => {
        if (l.command === "850") reject(new GalaxyError(`Failed to change planet: ${l.trailing ?? "refused"}`, "join", "850", l.trailing));
      };
      conn.on("line", onLine);
    });
    flyRefused.catch(() => {});
    try {
      const planet = await Promise.race([conn.joinPlanet(name), flyRefused]);
      this.planet = planet.name;
      return planet.name;
    } finally {
      if (onLine) conn.off("line", onLine);
    }
  }

  async close(): Promise<void> {
    this.#closed.abort();
    if (this.#pump) clearTimeout(this.#pump);
    this.#pump = null;
    await this.conn?.close().catch(() => {});
  }
}
