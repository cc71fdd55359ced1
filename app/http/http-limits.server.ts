/**
 * The web process's HTTP server and its connection limits (issue 28 item 3; docs/decisions/0026,
 * docs/auth.md "Resource limits"). server.ts creates its server here, and so do the tests.
 *
 * A probe held 19,800 sockets open without credentials, each trickling a `POST /login` body:
 * Node waited its default 300 s for every body, the process ran out of file descriptors and
 * health checks could no longer connect. Three limits answer it:
 * - time: a request's headers must arrive within `HTTP_HEADERS_TIMEOUT_MS` (20 s) and all of
 *   it within `HTTP_REQUEST_TIMEOUT_MS` (30 s); past that Node answers 408 and closes. Only the
 *   request is timed, not the answer: a live stream (a GET without a body) runs for hours;
 * - connections per client address (`HTTP_MAX_CONNECTIONS_PER_ADDRESS`, 256; IPv6 per /64):
 *   a browser uses at most six, a script a few dozen. One address cannot take the process's
 *   descriptors from everyone else. Not 127.0.0.1 and ::1: that is where a reverse proxy on
 *   this host connects from (the one `trust proxy` believes), carrying every client's
 *   connections, so its own limits per client apply (docs/auth.md "Resource limits");
 * - connections in all (`HTTP_MAX_CONNECTIONS`): sized from the process's descriptor limit so
 *   the database, Redis and files always have descriptors left.
 * A connection over a limit is answered 503 `{error, message}` with `Retry-After` at once and
 * closed, before anything of it is read: it costs no more than its accept.
 */
import fs from "node:fs";
import http from "node:http";
import type { Socket } from "node:net";
import { getEnv } from "../utils/env.server";
import { addressKey } from "./rate-limit.server";

/** Descriptors kept for everything that is not a client connection: database pool, Redis, files, the worker. */
const DESCRIPTOR_RESERVE = 1024;
/** Without a readable descriptor limit (not Linux): a total that fits the common 8192 hard limit. */
const FALLBACK_MAX_CONNECTIONS = 4096;

/** Where a reverse proxy on this host connects from: no per-address limit. */
const LOCAL_PROXY = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

export const TOO_MANY_FROM_ADDRESS = "Too many connections from your address: close some and try again";
export const TOO_MANY_CONNECTIONS = "The server has too many connections open: try again shortly";

export type HttpLimits = {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  maxConnectionsPerAddress: number;
  maxConnections: number;
};

/** The limits in force, from the environment (validated in env.server.ts). */
export function httpLimits(): HttpLimits {
  const env = getEnv();
  const requestTimeoutMs = env.HTTP_REQUEST_TIMEOUT_MS;
  // Node refuses a headers timeout above the request timeout; the request timeout wins.
  const headersTimeoutMs = requestTimeoutMs > 0 ? Math.min(env.HTTP_HEADERS_TIMEOUT_MS || requestTimeoutMs, requestTimeoutMs) : env.HTTP_HEADERS_TIMEOUT_MS;
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    maxConnectionsPerAddress: env.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    maxConnections: env.HTTP_MAX_CONNECTIONS ?? defaultMaxConnections(),
  };
}

/** The soft "Max open files" limit of this process (Node raises it to the hard limit at start), minus a reserve. */
function defaultMaxConnections(): number {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync("/proc/self/limits", "utf8"));
    const soft = line?.[1] === "unlimited" ? Infinity : Number(line?.[1]);
    if (!Number.isFinite(soft)) return line ? 50_000 : FALLBACK_MAX_CONNECTIONS;
    return Math.max(256, soft - DESCRIPTOR_RESERVE);
  } catch {
    return FALLBACK_MAX_CONNECTIONS;
  }
}

/**
 * The HTTP server of the web process: `listener` behind the request timeouts and the
 * connection limits. Keep-alive stays at 65 s: Node's default 5 s made a client (a reverse
 * proxy, a test's API context) that reused an idle connection at that moment get ECONNRESET,
 * and the usual client and proxy reuse windows are 60 s. An idle keep-alive connection is
 * not timed by the request timeouts (they start with a request's first byte).
 */
export function createHttpServer(listener: http.RequestListener, limits: HttpLimits = httpLimits()): http.Server {
  const server = http.createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // Node checks the two timeouts this often (default 30 s, which would let a 30 s timeout
      // run to 60 s); the check walks only connections with a request under way.
      connectionsCheckingInterval: checkingInterval(limits),
    },
    listener,
  );
  server.keepAliveTimeout = 65_000;
  limitConnections(server, limits);
  return server;
}

function checkingInterval(limits: HttpLimits): number {
  const shortest = Math.min(...[limits.requestTimeoutMs, limits.headersTimeoutMs].filter((ms) => ms > 0));
  return Number.isFinite(shortest) ? Math.max(50, Math.min(5_000, Math.floor(shortest / 4))) : 30_000;
}

/**
 * Refuses connections past the per-address and total limits (see the module comment). Node's
 * own "connection" listener (the HTTP parser) is called only for connections let in, so a
 * refused one is never read: its 503 goes out and it closes.
 */
function limitConnections(server: http.Server, limits: HttpLimits) {
  const perAddress = new Map<string, number>();
  let total = 0;
  const nodeListeners = server.listeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  server.on("connection", (socket: Socket) => {
    const remote = socket.remoteAddress ?? "unknown";
    const address = addressKey(remote);
    const fromAddress = perAddress.get(address) ?? 0;
    const refusal =
      limits.maxConnectionsPerAddress > 0 && fromAddress >= limits.maxConnectionsPerAddress && !LOCAL_PROXY.has(remote)
        ? TOO_MANY_FROM_ADDRESS
        : limits.maxConnections > 0 && total >= limits.maxConnections
          ? TOO_MANY_CONNECTIONS
          : null;
    if (refusal) {
      refuse(socket, refusal);
      return;
    }
    total++;
    perAddress.set(address, fromAddress + 1);
    socket.once("close", () => {
      total--;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    for (const l of nodeListeners) l.call(server, socket);
  });
}

/** A 503 written straight to the socket (no request was read: HTTP/1.1 lets a server answer and close). */
function refuse(socket: Socket, text: string) {
  // Whatever the client sends is dropped unread.
  socket.resume();
  const body = JSON.stringify({ error: text, message: text });
  socket.on("error", () => {});
  socket.end(
    "HTTP/1.1 503 Service Unavailable\r\n" +
      "Content-Type: application/json; charset=utf-8\r\n" +
      "Cache-Control: no-store\r\n" +
      "Retry-After: 5\r\n" +
      "Connection: close\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body,
  );
  // A client that never reads its answer does not keep the descriptor.
  socket.setTimeout(5_000, () => socket.destroy());
}
