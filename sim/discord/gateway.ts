/**
 * The Discord simulator's gateway (API v9 and v10, JSON text frames; docs/discord-simulator.md lists
 * each Discord rule it follows, with its source). Hello → Identify → READY + one GUILD_CREATE per
 * guild on the shard; heartbeats answered by ACK and required (a socket that misses them is closed
 * 4009); dispatches with increasing `s`; Resume (on `resume_gateway_url`) replays missed events, then
 * RESUMED; sessions expire a while after their socket is gone. Discord's close codes for bad input:
 * 4001 unknown opcode, 4002 decode error / payload over 4096 bytes, 4003 not authenticated, 4004
 * authentication failed, 4005 already authenticated, 4007 invalid seq, 4008 over 120 events a minute,
 * 4010 invalid shard, 4012 invalid version, 4013 invalid intents, 4014 disallowed intents.
 * Faults: close with any code, op 7, op 9 (resumable or not), op 1, a dead gateway, Identify refused.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import zlib from "node:zlib";
import type {
  GatewayGuildMembersChunkDispatchData,
  GatewayHelloData,
  GatewayMessageCreateDispatchData,
  GatewayMessageDeleteBulkDispatchData,
  GatewayReadyDispatchData,
} from "discord-api-types/v10";
import { WebSocketServer, type WebSocket } from "ws";
import {
  guildCreatePayload,
  INTENTS,
  KNOWN_INTENTS,
  memberPayload,
  messageDeletePayload,
  messageEventPayload,
  snowflake,
  type DiscordState,
  type SimGuild,
  type SimMessage,
} from "./state";

export type GatewayOptions = {
  /** Hello's heartbeat_interval (ms). Discord sends ~41250; tests may go faster. */
  heartbeatIntervalMs?: number;
  /**
   * How long a socket may go without a heartbeat before it is closed with 4009 (default 1.5 ×
   * the interval + 1 s: the first beat may come a whole interval after Hello, and loaded test
   * machines are late).
   */
  heartbeatTimeoutMs?: number;
  /** How long a session stays resumable after its socket is gone (default 3 minutes; Discord: "a few minutes"). */
  sessionTimeoutMs?: number;
};

/** Gateway versions spoken (API Reference "API Versioning"); any other `v` is closed with 4012. */
const VERSIONS = new Set([9, 10]);
/** Gateway "Sending Events": payloads over 4096 bytes are closed with 4002. */
const MAX_PAYLOAD = 4096;
/** Gateway "Rate Limiting": 120 events per connection per 60 s. */
const SEND_LIMIT = 120;
const SEND_WINDOW_MS = 60_000;
const BACKLOG = 500;

type Conn = {
  ws: WebSocket;
  path: string;
  version: number;
  session: Session | null;
  /** zlib-stream transport compression: one deflate context for the whole connection. */
  zlib: { deflate: zlib.Deflate; out: Buffer[]; chain: Promise<void> } | null;
  beatTimer: NodeJS.Timeout | null;
  /** Times of the events this socket sent in the last minute (heartbeats not counted, see docs). */
  sent: number[];
};

type Session = {
  sessionId: string;
  intents: number;
  shard: [number, number];
  seq: number;
  /** Sent dispatches kept for replay on resume (bounded). */
  backlog: { s: number; t: string; d: unknown }[];
  conn: Conn | null;
  expiry: NodeJS.Timeout | null;
};

export type GatewayEvent = {
  at: number;
  kind: "open" | "identify" | "resume" | "resume-refused" | "close" | "heartbeat" | "heartbeat-timeout" | "invalid-session" | "session-expired" | "refused";
  code?: number;
  sessionId?: string;
  path?: string;
  version?: number;
  compress?: string;
};

const onShard = (g: SimGuild, [id, count]: [number, number]) => Number((BigInt(g.id) >> 22n) % BigInt(count)) === id;

export class DiscordGateway {
  readonly wss = new WebSocketServer({ noServer: true });
  readonly sessions = new Map<string, Session>();
  /** Connection history, for tests and the control endpoint (bounded). */
  readonly events: GatewayEvent[] = [];
  #conns = new Set<Conn>();
  #heartbeatMs: number;
  #heartbeatTimeoutMs: number;
  #sessionTimeoutMs: number;

  constructor(
    private state: DiscordState,
    private baseWsUrl: () => string,
    options: GatewayOptions = {},
  ) {
    this.#heartbeatMs = options.heartbeatIntervalMs ?? 41250;
    this.#heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? Math.round(this.#heartbeatMs * 1.5) + 1000;
    this.#sessionTimeoutMs = options.sessionTimeoutMs ?? 180_000;
  }

  get heartbeatIntervalMs() {
    return this.#heartbeatMs;
  }

  #log(e: Omit<GatewayEvent, "at">) {
    this.events.push({ at: Date.now(), ...e });
    if (this.events.length > 1000) this.events.shift();
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? "/", "http://sim.local");
    this.wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, url));
  }

  #send(conn: Conn, payload: unknown) {
    if (conn.ws.readyState !== conn.ws.OPEN) return;
    const text = JSON.stringify(payload);
    const z = conn.zlib;
    if (!z) return conn.ws.send(text);
    // Frames stay in order: each waits for the previous flush.
    z.chain = z.chain.then(
      () =>
        new Promise<void>((resolve) => {
          if (z.deflate.destroyed) return resolve();
          z.deflate.write(text);
          z.deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => {
            const frame = Buffer.concat(z.out);
            z.out = [];
            if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(frame);
            resolve();
          });
        }),
    );
  }

  #close(conn: Conn, code: number, reason: string) {
    if (code >= 4000) this.#log({ kind: "refused", code, sessionId: conn.session?.sessionId });
    conn.ws.close(code, reason);
  }

  #armHeartbeat(conn: Conn) {
    if (conn.beatTimer) clearTimeout(conn.beatTimer);
    conn.beatTimer = setTimeout(() => {
      // Gateway "Sending Heartbeats": a client that fails to heartbeat in time is disconnected; 4009 "Session timed out".
      this.#log({ kind: "heartbeat-timeout", sessionId: conn.session?.sessionId });
      conn.ws.close(4009, "Session timed out.");
    }, this.#heartbeatTimeoutMs);
  }

  #accept(ws: WebSocket, url: URL) {
    const path = url.pathname;
    const version = Number(url.searchParams.get("v"));
    const conn: Conn = { ws, path, version, session: null, zlib: null, beatTimer: null, sent: [] };
    this.#conns.add(conn);
    this.#log({ kind: "open", path, version, ...(url.searchParams.has("compress") ? { compress: url.searchParams.get("compress")! } : {}) });
    ws.on("close", (code) => {
      this.#conns.delete(conn);
      if (conn.beatTimer) clearTimeout(conn.beatTimer);
      conn.zlib?.deflate.destroy();
      const session = conn.session;
      if (session && session.conn === conn) {
        session.conn = null;
        // Gateway "Initiating a Disconnect": 1000/1001 invalidate the session; any other close keeps it
        // resumable until it times out.
        if (code === 1000 || code === 1001) this.#endSession(session);
        else this.#startExpiry(session);
      }
      this.#log({ kind: "close", code, sessionId: session?.sessionId });
    });
    ws.on("error", () => ws.terminate());
    if (this.state.faults.deadGateway) return; // accepted, never a Hello

    // Gateway "Connecting": `v` is the API version, `encoding` json or etf.
    if (!VERSIONS.has(version)) return this.#close(conn, 4012, "Invalid API version.");
    const encoding = url.searchParams.get("encoding") ?? "json";
    if (encoding !== "json") return this.#close(conn, 4002, `encoding=${encoding.slice(0, 20)} is not supported by the simulator (json only).`);
    // Gateway › Transport Compression: zlib-stream is one zlib context per connection, each payload
    // flushed with Z_SYNC_FLUSH (so every binary frame ends in 00 00 ff ff). zstd-stream is not spoken.
    const compress = url.searchParams.get("compress");
    if (compress === "zlib-stream") {
      const z = { deflate: zlib.createDeflate(), out: [] as Buffer[], chain: Promise.resolve() };
      z.deflate.on("data", (chunk: Buffer) => z.out.push(chunk));
      z.deflate.on("error", () => ws.terminate());
      conn.zlib = z;
    } else if (compress !== null) {
      return this.#close(conn, 4000, `compress=${compress.slice(0, 20)} is not supported by the simulator (zlib-stream only).`);
    }

    this.#send(conn, { op: 10, d: { heartbeat_interval: this.#heartbeatMs } satisfies GatewayHelloData, s: null, t: null });
    this.#armHeartbeat(conn);

    ws.on("message", (raw, isBinary) => {
      const buf = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
      if (buf.length > MAX_PAYLOAD) return this.#close(conn, 4002, "Payload too large.");
      let msg: unknown;
      try {
        msg = JSON.parse(isBinary ? buf.toString("utf8") : String(buf));
      } catch {
        return this.#close(conn, 4002, "Error while decoding payload.");
      }
      if (!msg || typeof msg !== "object" || Array.isArray(msg)) return this.#close(conn, 4002, "Error while decoding payload.");
      const { op, d } = msg as { op?: unknown; d?: unknown };
      if (op !== 1) {
        const now = Date.now();
        conn.sent = conn.sent.filter((t) => t > now - SEND_WINDOW_MS);
        conn.sent.push(now);
        if (conn.sent.length > SEND_LIMIT) return this.#close(conn, 4008, "Rate limited.");
      }
      switch (op) {
        case 1:
          return this.#heartbeat(conn, d);
        case 2:
          return this.#identify(conn, d);
        case 6:
          return this.#resume(conn, d);
        case 3: // Presence Update
        case 4: // Voice State Update
        case 8: // Request Guild Members
        case 31: // Request Soundboard Sounds
        case 43: // Request Channel Info
          if (!conn.session) return this.#close(conn, 4003, "Not authenticated.");
          if (op === 8) return this.#requestMembers(conn.session, d);
          return; // accepted, nothing to tell
        default:
          return this.#close(conn, 4001, "Unknown opcode.");
      }
    });
  }

  #heartbeat(conn: Conn, d: unknown) {
    if (d !== null && d !== undefined && typeof d !== "number") return this.#close(conn, 4001, "Invalid heartbeat payload.");
    this.#log({ kind: "heartbeat", sessionId: conn.session?.sessionId });
    this.#armHeartbeat(conn);
    this.#send(conn, { op: 11, d: null, s: null, t: null });
  }

  #identify(conn: Conn, raw: unknown) {
    if (conn.session) return this.#close(conn, 4005, "Already authenticated.");
    this.#log({ kind: "identify" });
    if (this.state.faults.identifyCloseCode !== null) return this.#close(conn, this.state.faults.identifyCloseCode, "Simulated close on identify");
    if (!raw || typeof raw !== "object") return this.#close(conn, 4001, "Invalid identify payload.");
    const d = raw as { token?: unknown; intents?: unknown; shard?: unknown };
    if (String(d.token ?? "").replace(/^Bot /, "") !== this.state.token) return this.#close(conn, 4004, "Authentication failed.");
    const intents = d.intents;
    // Gateway "Gateway Intents": required since v8; an unknown bit is 4013, a privileged intent the app has not enabled 4014.
    if (typeof intents !== "number" || !Number.isInteger(intents) || intents < 0 || (intents & ~KNOWN_INTENTS) !== 0)
      return this.#close(conn, 4013, "Invalid intent(s).");
    if (this.state.disallowedIntents(intents)) return this.#close(conn, 4014, "Disallowed intent(s).");
    let shard: [number, number] = [0, 1];
    if (d.shard !== undefined) {
      const s = d.shard;
      const valid = Array.isArray(s) && s.length === 2 && s.every((n) => Number.isInteger(n)) && s[1] >= 1 && s[0] >= 0 && s[0] < s[1];
      if (!valid) return this.#close(conn, 4010, "Invalid shard.");
      shard = [s[0], s[1]];
    }
    this.state.recordIdentify();
    const session: Session = {
      sessionId: snowflake().slice(-12) + Math.random().toString(36).slice(2, 10),
      intents,
      shard,
      seq: 0,
      backlog: [],
      conn,
      expiry: null,
    };
    conn.session = session;
    this.sessions.set(session.sessionId, session);
    const guilds = this.state.guilds.filter((g) => onShard(g, shard));
    const ready: GatewayReadyDispatchData = {
      v: conn.version,
      user: this.state.bot,
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.sessionId,
      resume_gateway_url: `${this.baseWsUrl()}/gateway-resume`,
      shard,
      application: { id: this.state.bot.id, flags: this.state.applicationFlags(), flags_new: String(this.state.applicationFlags()) },
    };
    this.#dispatch(session, "READY", ready);
    if (intents & INTENTS.Guilds) for (const g of guilds) this.#dispatch(session, "GUILD_CREATE", guildCreatePayload(this.state, g));
  }

  #resume(conn: Conn, raw: unknown) {
    if (conn.session) return this.#close(conn, 4005, "Already authenticated.");
    const d = (raw && typeof raw === "object" ? raw : {}) as { token?: unknown; session_id?: unknown; seq?: unknown };
    const found = this.sessions.get(String(d.session_id));
    const refuse = () => {
      this.#log({ kind: "resume-refused", sessionId: String(d.session_id) });
      this.#send(conn, { op: 9, d: false, s: null, t: null });
    };
    if (!found || String(d.token ?? "").replace(/^Bot /, "") !== this.state.token) return refuse();
    const seq = typeof d.seq === "number" ? d.seq : 0;
    // Close codes: 4007 "Invalid seq" — a seq the session never reached.
    if (seq > found.seq) return this.#close(conn, 4007, "Invalid seq.");
    // Events older than the kept backlog cannot be replayed: the session cannot be resumed.
    const oldest = found.backlog[0]?.s ?? found.seq + 1;
    if (seq < oldest - 1 && found.backlog.length >= BACKLOG) return refuse();
    if (found.conn && found.conn !== conn) found.conn.ws.close(4000, "Session resumed elsewhere");
    if (found.expiry) clearTimeout(found.expiry);
    found.expiry = null;
    found.conn = conn;
    conn.session = found;
    this.#log({ kind: "resume", sessionId: found.sessionId });
    for (const e of found.backlog) if (e.s > seq) this.#send(conn, { op: 0, s: e.s, t: e.t, d: e.d });
    this.#dispatch(found, "RESUMED", null);
  }

  /** Request Guild Members (op 8) → one GUILD_MEMBERS_CHUNK from the seeded members. */
  #requestMembers(session: Session, raw: unknown) {
    const d = (raw && typeof raw === "object" ? raw : {}) as {
      guild_id?: unknown;
      query?: unknown;
      limit?: unknown;
      user_ids?: string | string[];
      nonce?: unknown;
    };
    const g = this.state.guild(String(d.guild_id));
    if (!g || !onShard(g, session.shard)) return;
    const all = [this.state.bot, ...this.state.users];
    const ids = d.user_ids === undefined ? null : ([] as string[]).concat(d.user_ids);
    const query = typeof d.query === "string" ? d.query.toLowerCase() : "";
    const found = ids ? all.filter((u) => ids.includes(u.id)) : all.filter((u) => u.username.toLowerCase().startsWith(query));
    const limit = typeof d.limit === "number" && d.limit > 0 ? d.limit : found.length;
    const chunk: GatewayGuildMembersChunkDispatchData = {
      guild_id: g.id,
      members: found.slice(0, limit).map((u) => memberPayload(this.state, g, u)),
      chunk_index: 0,
      chunk_count: 1,
      ...(ids ? { not_found: ids.filter((id) => !all.some((u) => u.id === id)) } : {}),
      ...(typeof d.nonce === "string" ? { nonce: d.nonce } : {}),
    };
    this.#dispatch(session, "GUILD_MEMBERS_CHUNK", chunk);
  }

  #startExpiry(session: Session) {
    if (session.expiry) clearTimeout(session.expiry);
    session.expiry = setTimeout(() => {
      session.expiry = null;
      if (session.conn) return;
      this.#log({ kind: "session-expired", sessionId: session.sessionId });
      this.sessions.delete(session.sessionId);
    }, this.#sessionTimeoutMs);
  }

  #endSession(session: Session) {
    if (session.expiry) clearTimeout(session.expiry);
    session.expiry = null;
    this.sessions.delete(session.sessionId);
  }

  #dispatch(session: Session, t: string, d: unknown) {
    session.seq += 1;
    const frame = { op: 0, s: session.seq, t, d };
    if (t !== "READY" && t !== "RESUMED") {
      session.backlog.push({ s: session.seq, t, d });
      if (session.backlog.length > BACKLOG) session.backlog.shift();
    }
    if (session.conn) this.#send(session.conn, frame);
  }

  /**
   * MESSAGE_CREATE / MESSAGE_UPDATE to every session with GUILD_MESSAGES whose shard has the guild.
   * Without MESSAGE_CONTENT, content, embeds, attachments and components arrive empty unless the bot
   * wrote the message or is mentioned in it (Gateway "Message Content Intent").
   */
  dispatchMessage(t: "MESSAGE_CREATE" | "MESSAGE_UPDATE", message: SimMessage) {
    const payload: GatewayMessageCreateDispatchData = messageEventPayload(this.state, message);
    const own = message.author.id === this.state.bot.id;
    const mentioned = payload.mentions.some((u) => u.id === this.state.bot.id);
    const blank = { ...payload, content: "", embeds: [], attachments: [], components: [] };
    const guild = this.state.guild(message.guild_id);
    for (const s of this.sessions.values()) {
      if (!(s.intents & INTENTS.GuildMessages)) continue;
      if (guild && !onShard(guild, s.shard)) continue;
      this.#dispatch(s, t, s.intents & INTENTS.MessageContent || own || mentioned ? payload : blank);
    }
  }

  /** MESSAGE_DELETE to every session with the GuildMessages intent. */
  dispatchDelete(d: { id: string; channel_id: string; guild_id: string }) {
    const guild = this.state.guild(d.guild_id);
    for (const s of this.sessions.values()) {
      if (!(s.intents & INTENTS.GuildMessages)) continue;
      if (guild && !onShard(guild, s.shard)) continue;
      this.#dispatch(s, "MESSAGE_DELETE", messageDeletePayload(d));
    }
  }

  /** MESSAGE_DELETE_BULK to every session with the GuildMessages intent. */
  dispatchDeleteBulk(d: GatewayMessageDeleteBulkDispatchData & { guild_id: string }) {
    const guild = this.state.guild(d.guild_id);
    for (const s of this.sessions.values()) {
      if (!(s.intents & INTENTS.GuildMessages)) continue;
      if (guild && !onShard(guild, s.shard)) continue;
      this.#dispatch(s, "MESSAGE_DELETE_BULK", d);
    }
  }

  /** Closes every open gateway socket with `code` (sessions stay resumable unless `forget`). */
  closeAll(code: number, reason = "Simulated close", forget = false): number {
    let n = 0;
    for (const c of this.#conns) {
      n++;
      if (code === 1006) c.ws.terminate();
      else c.ws.close(code, reason);
    }
    if (forget) for (const s of [...this.sessions.values()]) this.#endSession(s);
    return n;
  }

  /** Sends op 7 Reconnect to every socket. */
  reconnectAll(): number {
    for (const c of this.#conns) this.#send(c, { op: 7, d: null, s: null, t: null });
    return this.#conns.size;
  }

  /** Sends op 1: Discord asks for an immediate heartbeat (Gateway "Heartbeat Requests"). */
  requestHeartbeats(): number {
    for (const c of this.#conns) this.#send(c, { op: 1, d: null, s: null, t: null });
    return this.#conns.size;
  }

  /**
   * Sends op 9 Invalid Session to every identified socket. `resumable: false` ends the sessions (the
   * client must identify anew); `true` keeps them for a Resume. Either way the socket is no longer
   * authenticated, so the client may Identify or Resume on it or on a new connection.
   */
  invalidateAll(resumable: boolean): number {
    let n = 0;
    for (const c of this.#conns) {
      const s = c.session;
      if (!s) continue;
      n++;
      c.session = null;
      s.conn = null;
      if (resumable) this.#startExpiry(s);
      else this.#endSession(s);
      this.#log({ kind: "invalid-session", sessionId: s.sessionId });
      this.#send(c, { op: 9, d: resumable, s: null, t: null });
    }
    return n;
  }

  openCount() {
    return this.#conns.size;
  }

  async close() {
    for (const c of this.#conns) {
      if (c.beatTimer) clearTimeout(c.beatTimer);
      c.ws.terminate();
    }
    this.#conns.clear();
    for (const s of this.sessions.values()) if (s.expiry) clearTimeout(s.expiry);
    this.sessions.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
