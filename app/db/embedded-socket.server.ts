/**
 * Shares the embedded PGlite database of the web process with other local processes
 * (`npm run operator`, `npm run seed`, `npm run worker`) over the PostgreSQL wire protocol,
 * so they use plain `pg` + Drizzle while the app keeps its in-process PGlite.
 * Why our own ~200 lines instead of @electric-sql/pglite-socket: docs/decisions/0011.
 *
 * - Listens on 127.0.0.1 only (a random free port unless PGLITE_SOCKET_PORT is set).
 * - Every connection must authenticate (MD5 with a per-connection salt, so the password
 *   never crosses the socket) with a random password that exists only in the info file
 *   `<pglite dir>.socket.json`, mode 0600, removed when the owner closes the database.
 * - PGlite is one session. The owner's own queries and transactions take PGlite's
 *   transaction and query locks; a socket client takes the same two locks for each unit
 *   of work (a simple Query, or extended-protocol messages up to Sync/Flush) and keeps
 *   them while its session is inside a transaction or an unfinished extended exchange.
 *   So nothing interleaves: the app's queries wait for a client's statement (or its open
 *   transaction) and clients queue behind each other and behind the app.
 * - A client that holds the locks idle for longer than `idleInTransactionMs` is rolled
 *   back and disconnected, so a stuck CLI cannot freeze the app.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";

export type EmbeddedSocketInfo = {
  host: "127.0.0.1";
  port: number;
  user: string;
  password: string;
  database: string;
  /** The owner process: a file whose pid is gone is stale. */
  pid: number;
};

export type EmbeddedSocketServer = {
  info: EmbeddedSocketInfo;
  /** Disconnects every client (rolling back their open transaction), stops listening, removes the info file. */
  close(): Promise<void>;
};

/** Where the owner writes its address and password: `data/pglite` → `data/pglite.socket.json`. */
export function socketInfoPath(pgliteDir: string): string {
  return `${pgliteDir.replace(/[\\/]+$/, "")}.socket.json`;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const PROTOCOL_3 = 196608;

export async function serveEmbeddedDb(db: PGlite, options: { infoFile: string; port?: number; idleInTransactionMs?: number }): Promise<EmbeddedSocketServer> {
  const password = crypto.randomBytes(24).toString("base64url");
  const idleMs = options.idleInTransactionMs ?? 60_000;
  const connections = new Set<Connection>();

  const server = net.createServer((socket) => {
    const conn = new Connection(socket, db, password, idleMs, () => connections.delete(conn));
    connections.add(conn);
  });
  // A failing client socket is that client's problem; the server itself must not die.
  server.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  const info: EmbeddedSocketInfo = {
    host: "127.0.0.1",
    port: address.port,
    user: "postgres",
    password,
    database: "postgres",
    pid: process.pid,
  };
  // Written with 0600 from the start (not chmod afterwards): the password is the boundary
  // between this database and any other local user.
  const tmp = `${options.infoFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(info, null, 2) + "\n", { mode: 0o600 });
  fs.renameSync(tmp, options.infoFile);

  let closing: Promise<void> | undefined;
  return {
    info,
    close() {
      closing ??= (async () => {
        try {
          const current = JSON.parse(fs.readFileSync(options.infoFile, "utf8")) as EmbeddedSocketInfo;
          if (current.pid === process.pid && current.port === info.port) fs.rmSync(options.infoFile, { force: true });
        } catch {
          // Already gone.
        }
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.all([...connections].map((c) => c.end()));
        await closed;
      })();
      return closing;
    },
  };
}

/** Holds PGlite's transaction lock, then its query lock (the order PGlite's own close() uses). */
function acquire(db: PGlite): Promise<() => void> {
  return new Promise((held, failed) => {
    db._runExclusiveTransaction(() => db.runExclusive(() => new Promise<void>((release) => held(() => release())))).catch(failed);
  });
}

class Connection {
  private buffer = Buffer.alloc(0);
  private state: "startup" | "password" | "ready" | "closed" = "startup";
  private startup?: Buffer;
  private user = "";
  private salt = crypto.randomBytes(4);
  private pending: Buffer[] = [];
  private chain: Promise<void> = Promise.resolve();
  private release?: () => void;
  private idleTimer?: NodeJS.Timeout;

  constructor(
    private socket: net.Socket,
    private db: PGlite,
    private password: string,
    private idleMs: number,
    private onClosed: () => void,
  ) {
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.onData(chunk));
    socket.on("error", () => void this.end());
    socket.on("close", () => void this.end());
  }

  private onData(chunk: Buffer) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.state !== "closed") {
      if (this.state === "startup") {
        if (this.buffer.length < 8) return;
        const len = this.buffer.readInt32BE(0);
        if (len < 8 || len > 10_000) return void this.end();
        if (this.buffer.length < len) return;
        const msg = this.take(len);
        const code = msg.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.socket.write("N");
        } else if (code === PROTOCOL_3) {
          this.startup = msg;
          this.user = startupParams(msg).user ?? "";
          // AuthenticationMD5Password
          const out = Buffer.alloc(13);
          out.write("R", 0);
          out.writeInt32BE(12, 1);
          out.writeInt32BE(5, 5);
          this.salt.copy(out, 9);
          this.socket.write(out);
          this.state = "password";
        } else {
          // CancelRequest (PGlite cannot cancel a running statement) or an unknown protocol.
          return void this.end();
        }
        continue;
      }
      if (this.buffer.length < 5) return;
      const len = this.buffer.readInt32BE(1);
      if (len < 4) return void this.end();
      if (this.buffer.length < len + 1) return;
      const msg = this.take(len + 1);
      const type = String.fromCharCode(msg[0]!);
      if (this.state === "password") {
        if (type !== "p" || !this.passwordMatches(msg.subarray(5, msg.length - 1))) {
          this.socket.write(errorResponse("28P01", `password authentication failed for user "${this.user}"`));
          return void this.end();
        }
        this.state = "ready";
        const startup = this.startup!;
        this.schedule([startup]);
        continue;
      }
      if (type === "X") return void this.end();
      this.pending.push(msg);
      // A unit of work ends where the client waits for answers.
      if (type === "Q" || type === "S" || type === "H") this.schedule(this.pending.splice(0));
    }
  }

  private isClosed() {
    return this.state === "closed";
  }

  private take(n: number): Buffer {
    const msg = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return msg;
  }

  private passwordMatches(given: Buffer): boolean {
    const inner = md5(this.password + this.user);
    const expected = Buffer.from("md5" + md5(Buffer.concat([Buffer.from(inner), this.salt])));
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  private schedule(messages: Buffer[]) {
    this.chain = this.chain.then(() => this.run(messages)).catch(() => void this.end());
  }

  private async run(messages: Buffer[]) {
    if (this.state === "closed") return;
    clearTimeout(this.idleTimer);
    this.release ??= await acquire(this.db);
    // end() may have run while this waited for the locks.
    if (this.isClosed()) return this.unlock();
    const out = await this.db.execProtocolRaw(new Uint8Array(Buffer.concat(messages)));
    if (out.length) this.socket.write(out);
    if (lastReadyStatus(out) === "I") {
      this.unlock();
    } else {
      // Inside a transaction or an extended exchange ended by Flush: keep the session.
      this.idleTimer = setTimeout(() => {
        this.socket.write(errorResponse("25P03", "terminating connection due to idle-in-transaction timeout"));
        void this.end();
      }, this.idleMs);
      this.idleTimer.unref();
    }
  }

  private unlock() {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  /** Leaves PGlite's session clean (no open transaction of ours), then frees it. */
  end(): Promise<void> {
    if (this.state === "closed") return this.chain;
    this.state = "closed";
    clearTimeout(this.idleTimer);
    this.socket.destroy();
    this.chain = this.chain.then(async () => {
      if (this.release) {
        try {
          await this.db.execProtocolRaw(new Uint8Array(message("S", Buffer.alloc(0))));
          if (this.db.isInTransaction()) await this.db.execProtocolRaw(new Uint8Array(message("Q", cstring("ROLLBACK"))));
        } catch {
          // The database is closing; nothing left to clean.
        }
      }
      this.unlock();
      this.onClosed();
    });
    return this.chain;
  }
}

function md5(data: string | Buffer): string {
  return crypto.createHash("md5").update(data).digest("hex");
}

function startupParams(msg: Buffer): Record<string, string> {
  const parts = msg.subarray(8).toString("utf8").split("\0");
  const params: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i]; i += 2) params[parts[i]!] = parts[i + 1]!;
  return params;
}

/** Transaction status of the last ReadyForQuery in PGlite's output ("I" idle, "T" in a transaction, "E" failed one). */
function lastReadyStatus(out: Uint8Array): string | undefined {
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  let status: string | undefined;
  for (let i = 0; i + 5 <= buf.length;) {
    const len = buf.readInt32BE(i + 1);
    if (buf[i] === 0x5a /* Z */ && len === 5) status = String.fromCharCode(buf[i + 5]!);
    i += 1 + len;
  }
  return status;
}

function cstring(s: string): Buffer {
  return Buffer.from(s + "\0");
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function errorResponse(code: string, text: string): Buffer {
  return message("E", Buffer.concat([cstring("SFATAL"), cstring("VFATAL"), cstring(`C${code}`), cstring(`M${text}`), Buffer.from([0])]));
}
