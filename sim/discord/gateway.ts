/**
 * The Discord simulator's gateway (v10, JSON text frames, no compression; reference §2.2):
 * Hello → Identify → READY + one GUILD_CREATE per seeded guild, heartbeats answered by ACK,
 * dispatches with increasing `s`, Resume (on `resume_gateway_url`) → replay of missed events + RESUMED.
 * Faults: close with any code, a dead gateway (accepts and never says Hello), Identify refused.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { guildPayload, INTENTS, snowflake, type DiscordState } from "./state";

export type GatewayOptions = {
  /** Hello's heartbeat_interval (ms). Discord says ~41250; tests may go faster. */
  heartbeatIntervalMs?: number;
};

type Session = {
  sessionId: string;
  intents: number;
  seq: number;
  /** Sent dispatches kept for replay on resume (bounded). */
  backlog: { s: number; t: string; d: unknown }[];
  ws: WebSocket | null;
};

export type GatewayEvent = {
  at: number;
  kind: "open" | "identify" | "resume" | "resume-refused" | "close" | "heartbeat";
  code?: number;
  sessionId?: string;
  path?: string;
};

export class DiscordGateway {
  readonly wss = new WebSocketServer({ noServer: true });
  readonly sessions = new Map<string, Session>();
  /** Connection history, for tests and the control endpoint (bounded). */
  readonly events: GatewayEvent[] = [];
  #sockets = new Set<WebSocket>();
  #heartbeatMs: number;

  constructor(
    private state: DiscordState,
    private baseWsUrl: () => string,
    options: GatewayOptions = {},
  ) {
    this.#heartbeatMs = options.heartbeatIntervalMs ?? 41250;
  }

  #log(e: Omit<GatewayEvent, "at">) {
    this.events.push({ at: Date.now(), ...e });
    if (this.events.length > 1000) this.events.shift();
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const path = (req.url ?? "/").split("?")[0];
    this.wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, path));
  }

  #accept(ws: WebSocket, path: string) {
    this.#sockets.add(ws);
    this.#log({ kind: "open", path });
    let session: Session | null = null;
    ws.on("close", (code) => {
      this.#sockets.delete(ws);
      if (session && session.ws === ws) session.ws = null;
      // A normal close (1000/1001, e.g. client.destroy()) ends the session, as on Discord: no resume after it.
      if (session && (code === 1000 || code === 1001)) this.sessions.delete(session.sessionId);
      this.#log({ kind: "close", code, sessionId: session?.sessionId });
    });
    ws.on("error", () => ws.terminate());
    if (this.state.faults.deadGateway) return; // accepted, never a Hello
    const send = (payload: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload));
    };
    send({ op: 10, d: { heartbeat_interval: this.#heartbeatMs }, s: null, t: null });

    ws.on("message", (raw, isBinary) => {
      let msg: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        msg = JSON.parse(isBinary ? Buffer.from(raw as Buffer).toString("utf8") : String(raw));
      } catch {
        return ws.close(4002, "Error while decoding payload.");
      }
      switch (msg.op) {
        case 1:
          this.#log({ kind: "heartbeat", sessionId: session?.sessionId });
          return send({ op: 11, d: null, s: null, t: null });
        case 2: {
          if (session) return ws.close(4005, "Already authenticated.");
          const d = (msg.d ?? {}) as { token?: string; intents?: number };
          this.#log({ kind: "identify" });
          if (this.state.faults.identifyCloseCode !== null) return ws.close(this.state.faults.identifyCloseCode, "Simulated close on identify");
          if (String(d.token ?? "").replace(/^Bot /, "") !== this.state.token) return ws.close(4004, "Authentication failed.");
          if (typeof d.intents !== "number") return ws.close(4013, "Invalid intent(s).");
          session = { sessionId: snowflake().slice(-12) + Math.random().toString(36).slice(2, 10), intents: d.intents, seq: 0, backlog: [], ws };
          this.sessions.set(session.sessionId, session);
          this.#dispatch(session, "READY", {
            v: 10,
            user: this.state.bot,
            guilds: this.state.guilds.map((g) => ({ id: g.id, unavailable: true })),
            session_id: session.sessionId,
            resume_gateway_url: `${this.baseWsUrl()}/gateway-resume`,
            shard: [0, 1],
            application: { id: this.state.bot.id, flags: 0 },
            private_channels: [],
            user_settings: {},
          });
          if (d.intents & INTENTS.Guilds) for (const g of this.state.guilds) this.#dispatch(session, "GUILD_CREATE", guildPayload(this.state, g));
          return;
        }
        case 6: {
          const d = (msg.d ?? {}) as { token?: string; session_id?: string; seq?: number };
          const found = this.sessions.get(String(d.session_id));
          if (!found || String(d.token ?? "").replace(/^Bot /, "") !== this.state.token) {
            this.#log({ kind: "resume-refused", sessionId: String(d.session_id) });
            return send({ op: 9, d: false, s: null, t: null });
          }
          if (found.ws && found.ws !== ws) found.ws.close(4000, "Session resumed elsewhere");
          session = found;
          session.ws = ws;
          this.#log({ kind: "resume", sessionId: session.sessionId });
          const from = typeof d.seq === "number" ? d.seq : 0;
          for (const e of session.backlog) if (e.s > from) send({ op: 0, s: e.s, t: e.t, d: e.d });
          this.#dispatch(session, "RESUMED", null);
          return;
        }
        default:
          return; // presence updates, voice state, request members: ignored
      }
    });
  }

  #dispatch(session: Session, t: string, d: unknown) {
    session.seq += 1;
    const frame = { op: 0, s: session.seq, t, d };
    if (t !== "READY" && t !== "RESUMED") {
      session.backlog.push({ s: session.seq, t, d });
      if (session.backlog.length > 500) session.backlog.shift();
    }
    if (session.ws && session.ws.readyState === session.ws.OPEN) session.ws.send(JSON.stringify(frame));
  }

  /** A guild event to every identified session (GUILD_MESSAGES intent; content blanked without MESSAGE_CONTENT, as Discord does). */
  dispatchMessage(t: "MESSAGE_CREATE" | "MESSAGE_UPDATE", message: Record<string, unknown> & { author: { id: string } }) {
    for (const s of this.sessions.values()) {
      if (!(s.intents & INTENTS.GuildMessages)) continue;
      const own = message.author.id === this.state.bot.id;
      const d = s.intents & INTENTS.MessageContent || own ? message : { ...message, content: "" };
      this.#dispatch(s, t, d);
    }
  }

  /** MESSAGE_DELETE to every session with the GuildMessages intent. */
  dispatchDelete(d: { id: string; channel_id: string; guild_id: string }) {
    for (const s of this.sessions.values()) if (s.intents & INTENTS.GuildMessages) this.#dispatch(s, "MESSAGE_DELETE", d);
  }

  /** Closes every open gateway socket with `code` (sessions stay resumable unless `forget`). */
  closeAll(code: number, reason = "Simulated close", forget = false): number {
    let n = 0;
    for (const ws of this.#sockets) {
      n++;
      if (code === 1006) ws.terminate();
      else ws.close(code, reason);
    }
    if (forget) this.sessions.clear();
    return n;
  }

  /** Sends op 7 Reconnect to every socket. */
  reconnectAll(): number {
    let n = 0;
    for (const ws of this.#sockets) {
      n++;
      ws.send(JSON.stringify({ op: 7, d: null, s: null, t: null }));
    }
    return n;
  }

  openCount() {
    return this.#sockets.size;
  }

  async close() {
    for (const ws of this.#sockets) ws.terminate();
    this.#sockets.clear();
    this.sessions.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
