import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withTimeout } from "./redis.server";

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
