/**
 * Issue 28 item 3 "Resource limits": "A request body trickled in is held until Node's default
 * 300 s requestTimeout, without credentials (POST /login); 19,800 such sockets made health
 * checks fail to connect." The web process's own server (`createHttpServer`, as server.ts
 * makes it) over the app's gate and Remix, with its limits lowered through the environment,
 * spoken to over raw sockets.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeLive, publishLive } from "~/queue/live.server";
import { waitFor } from "#jobs/test-helpers";
import { resetEnv } from "~/utils/env.server";
import { createTestApiToken, createTestOperator } from "#tests/kit/auth";
import { errorBody } from "#tests/kit/api";
import { expressApp } from "#tests/kit/remix";
import { createHttpServer, httpLimits, TOO_MANY_CONNECTIONS, TOO_MANY_FROM_ADDRESS } from "./http-limits.server";

let server: http.Server | undefined;
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)));
  server = undefined;
  await closeLive();
});

/** The app (gate, login, health, events) behind `createHttpServer` with these environment variables. */
async function serve(env: Record<string, string>): Promise<number> {
  Object.assign(process.env, env);
  resetEnv();
  const app = await expressApp((r) => /(_auth\+\/login|api\.health|api\.events)\.tsx?$/.test(r.file));
  server = createHttpServer(app);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A raw connection (from `localAddress`, any 127/8 address is this machine) that collects what it receives. */
function connect(port: number, localAddress = "127.0.0.1") {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress });
  sockets.push(socket);
  let received = "";
  let closed = false;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (received += chunk));
  socket.on("error", () => {});
  socket.on("close", () => (closed = true));
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return { socket, connected, received: () => received, closed: () => closed };
}

/** One GET over its own connection: status and body. */
function get(port: number, path: string, headers: Record<string, string> = {}, localAddress = "127.0.0.1") {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, headers, agent: false, localAddress }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
  });
}

describe("request timeouts", () => {
  it("keeps Node's 300 s off: 30 s for a request, headers within 20 s, keep-alive 65 s", () => {
    for (const key of ["HTTP_REQUEST_TIMEOUT_MS", "HTTP_HEADERS_TIMEOUT_MS", "HTTP_MAX_CONNECTIONS"]) delete process.env[key];
    resetEnv();
    const limits = httpLimits();
    expect(limits).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 20_000, maxConnectionsPerAddress: 256 });
    const s = createHttpServer(() => {}, limits);
    expect({ request: s.requestTimeout, headers: s.headersTimeout, keepAlive: s.keepAliveTimeout }).toEqual({
      request: 30_000,
      headers: 20_000,
      keepAlive: 65_000,
    });
  });

  it("cuts a POST /login whose body trickles in with 408, while /api/health and an open live stream go on", async () => {
    const port = await serve({ HTTP_REQUEST_TIMEOUT_MS: "1500", HTTP_HEADERS_TIMEOUT_MS: "1000" });
    const op = await createTestOperator({ name: "trickle-watch" });
    const token = await createTestApiToken(op.id);

    // A live stream opened first: a GET without a body is not timed once its headers are in.
    const stream = connect(port);
    await stream.connected;
    stream.socket.write(`GET /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    await waitFor("the stream ready", () => stream.received().includes("event: ready"), 10_000, 20);

    // No credentials, a form body announced as 1000 bytes, sent one byte every 100 ms.
    const trickle = connect(port);
    await trickle.connected;
    trickle.socket.write("POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nname=");
    const drip = setInterval(() => trickle.socket.writable && trickle.socket.write("a"), 100);
    try {
      // Meanwhile the server answers others.
      const health = await get(port, "/api/health", { Authorization: `Bearer ${token}` });
      expect(health.status).toBe(200);
      await waitFor("the trickled request cut", () => trickle.closed(), 20_000, 20);
    } finally {
      clearInterval(drip);
    }
    expect(trickle.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);

    // The stream outlived the request timeout and still delivers.
    expect(stream.closed()).toBe(false);
    publishLive("refresh", { scope: "bowling" });
    await waitFor("the event on the stream", () => stream.received().includes('"topic":"refresh"'), 10_000, 20);
  });

  it("cuts a request whose headers trickle in", async () => {
    const port = await serve({ HTTP_REQUEST_TIMEOUT_MS: "1500", HTTP_HEADERS_TIMEOUT_MS: "1000" });
    const slow = connect(port);
    await slow.connected;
    slow.socket.write("GET /login HTTP/1.1\r\nHost: x\r\n");
    const drip = setInterval(() => slow.socket.writable && slow.socket.write("X-Slow: a\r\n"), 100);
    try {
      await waitFor("the trickled headers cut", () => slow.closed(), 20_000, 20);
    } finally {
      clearInterval(drip);
    }
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });
});

describe("connection limits", () => {
  const count = (n: number) => () => new Promise<boolean>((r) => server!.getConnections((_e, held) => r(held === n)));
  const body = (c: { received: () => string }) => JSON.parse(c.received().split("\r\n\r\n")[1]!) as unknown;

  it("refuses an address's connections past its limit and all past the total with 503 {error,message}, and counts closed ones out", async () => {
    const port = await serve({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: "5", HTTP_MAX_CONNECTIONS: "12" });
    // Five idle connections from one address (a trickling client holds them the same way).
    const held = Array.from({ length: 5 }, () => connect(port, "127.0.0.2"));
    await Promise.all(held.map((c) => c.connected));
    await waitFor("the server holds them", count(5), 5_000, 20);

    const sixth = connect(port, "127.0.0.2");
    // What a refused connection sends is never read as a request.
    sixth.socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await waitFor("the sixth refused", () => sixth.closed(), 5_000, 20);
    expect(sixth.received().match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(sixth.received()).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(sixth.received()).toMatch(/\r\nRetry-After: 5\r\n/);
    expect(body(sixth)).toEqual(errorBody(TOO_MANY_FROM_ADDRESS));

    // A health check from elsewhere still connects and is answered.
    expect(await get(port, "/healthz", {}, "127.0.0.3")).toEqual({ status: 200, body: "ok" });

    // 127.0.0.1 is where a reverse proxy on this host connects from, for all its clients: no per-address limit.
    const proxied = Array.from({ length: 6 }, () => connect(port, "127.0.0.1"));
    await Promise.all(proxied.map((c) => c.connected));
    const last = connect(port, "127.0.0.4");
    await last.connected;
    await waitFor("the server holds 12", count(12), 5_000, 20);
    expect(proxied.some((c) => c.closed())).toBe(false);

    // The total: past 12, any address is refused.
    const over = connect(port, "127.0.0.5");
    await waitFor("the 13th refused", () => over.closed(), 5_000, 20);
    expect(body(over)).toEqual(errorBody(TOO_MANY_CONNECTIONS));

    // Closed connections leave the counts: the first address is served again.
    for (const c of [...held, ...proxied, last]) c.socket.destroy();
    await waitFor("the server holds none", count(0), 5_000, 20);
    expect(await get(port, "/healthz", {}, "127.0.0.2")).toEqual({ status: 200, body: "ok" });
  });
});
