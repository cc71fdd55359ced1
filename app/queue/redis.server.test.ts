import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TcpProxy } from "#tests/kit/tcp-proxy";
import { resetEnv } from "~/utils/env.server";
import { producerConnection, waitForReady, WEB_REDIS, withTimeout } from "./redis.server";

/**
 * `withTimeout` bounds how long the web waits on Redis (the watchdog's PING, the status reads).
 * Issue 32 item 7: a busy process is not a silent Redis. An answer that reached the socket while
 * this process was stalled is taken; only silence times out.
 */

/** Blocks this process's event loop for `ms`, as a long render or a loaded machine does. */
function stall(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* busy */
  }
}

let server: net.Server;
let port: number;
beforeAll(async () => {
  // Answers at once, like a healthy Redis answering PING.
  server = net.createServer((s) => s.on("data", (d) => s.write(d)));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

/** One request over TCP: resolves with the echo. */
async function ask(): Promise<{ answer: Promise<string>; socket: net.Socket }> {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((r) => socket.once("connect", r));
  const answer = new Promise<string>((r) => socket.once("data", (d) => r(d.toString())));
  socket.write("PING");
  return { answer, socket };
}

describe("withTimeout: a deadline on the other side's silence, not on this process's stalls", () => {
  it("an answer that arrived while this process was stalled past the deadline is taken", async () => {
    const { answer, socket } = await ask();
    const bounded = withTimeout(answer, 300, "Redis PING");
    stall(700); // the echo arrives meanwhile and sits unread; the timer is overdue
    await expect(bounded).resolves.toBe("PING");
    socket.destroy();
  });

  it("silence still times out, with the call's name and its limit", async () => {
    const start = performance.now();
    await expect(withTimeout(new Promise<never>(() => {}), 150, "Redis PING")).rejects.toThrow("Redis PING timed out after 150 ms");
    expect(performance.now() - start).toBeGreaterThanOrEqual(140);
  });

  it("silence through a stall gets a fresh window, then times out: a stall never makes it wait for good", async () => {
    const start = performance.now();
    const bounded = withTimeout(new Promise<never>(() => {}), 150, "Redis PING");
    stall(500);
    await expect(bounded).rejects.toThrow("timed out after 150 ms");
    // One window stalled (≥ 500 ms), one more of 150 ms after it.
    expect(performance.now() - start).toBeGreaterThanOrEqual(640);
  });

  it("the promise's own failure passes through as it is", async () => {
    const err = new Error("ECONNRESET");
    await expect(withTimeout(Promise.reject(err), 1_000, "Redis PING")).rejects.toBe(err);
  });
});

describe("the producer connection (the web's requests): a stalled process is not a silent Redis", () => {
  it("a command answered while this process stalled past WEB_REDIS.commandTimeoutMs is taken, and the connection stays", async () => {
    const conn = producerConnection();
    expect(await waitForReady(conn, 5_000)).toBe(true);
    await expect(conn.ping()).resolves.toBe("PONG");
    const ping = conn.ping();
    stall(WEB_REDIS.commandTimeoutMs + 500);
    await expect(ping).resolves.toBe("PONG");
    expect(conn.status).toBe("ready");
  });
});

describe("the producer connection: a silent Redis still fails a command after WEB_REDIS.commandTimeoutMs", () => {
  it("a command sent into a connection that stopped carrying bytes fails with 'Command timed out', not later than the timeout and a watchdog beat", async () => {
    const saved = process.env.REDIS_URL!;
    const target = new URL(saved);
    const proxy = await new TcpProxy(target.hostname, Number(target.port || 6379)).start();
    process.env.REDIS_URL = proxy.url(saved);
    resetEnv();
    try {
      const conn = producerConnection();
      expect(await waitForReady(conn, 5_000)).toBe(true);
      proxy.drop();
      const start = performance.now();
      await expect(conn.get("anything")).rejects.toThrow(/Command timed out|Connection is closed|Stream isn't writeable/);
      const waited = performance.now() - start;
      expect(waited).toBeGreaterThanOrEqual(WEB_REDIS.commandTimeoutMs - 50);
      expect(waited).toBeLessThan(WEB_REDIS.commandTimeoutMs + WEB_REDIS.watchdogEveryMs + 1_000);
    } finally {
      process.env.REDIS_URL = saved;
      resetEnv();
      await proxy.stop();
    }
  });
});
