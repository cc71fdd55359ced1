/**
 * A TCP proxy a test controls, between the app and PostgreSQL or Redis (issue 29 item 3):
 *
 * - `drop()`: a network partition that drops packets. Nothing is forwarded any more, in
 *   either direction; open connections stay open without a byte or an error (as a silently
 *   dropped TCP connection does), and new connections are accepted and then held the same way.
 * - `refuse()`: the peer is gone. Open connections are reset and new ones refused (the
 *   listening socket is closed; its port is kept to listen again).
 * - `heal()`: new connections are forwarded again. Connections held during a drop stay dead
 *   for good: the harshest version of TCP's retransmission backoff, so the app must make new
 *   connections to recover instead of waiting for the old ones.
 */
import net from "node:net";

export type ProxyMode = "up" | "drop" | "refuse";

export class TcpProxy {
  mode: ProxyMode = "up";
  port = 0;
  #server: net.Server | null = null;
  #pairs = new Set<{ client: net.Socket; upstream: net.Socket | null; dead: boolean }>();

  constructor(
    readonly targetHost: string,
    readonly targetPort: number,
  ) {}

  /** Starts listening (on a free loopback port the first time, on the same port afterwards). */
  async start(): Promise<this> {
    const server = net.createServer((client) => this.#accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.#server = server;
    return this;
  }

  /** Replaces the host and port of a URL (postgres://, redis://) with the proxy's. */
  url(target: string): string {
    const u = new URL(target);
    u.hostname = "127.0.0.1";
    u.port = String(this.port);
    return u.toString();
  }

  /** Open client connections (held ones included). */
  get connections(): number {
    return this.#pairs.size;
  }

  #accept(client: net.Socket) {
    const pair = { client, upstream: null as net.Socket | null, dead: false };
    this.#pairs.add(pair);
    client.on("error", () => {});
    client.on("close", () => {
      this.#pairs.delete(pair);
      pair.upstream?.destroy();
    });
    if (this.mode !== "up") {
      // Accepted, then silence: the SYN got through, nothing else does.
      pair.dead = true;
      client.on("data", () => {});
      return;
    }
    const upstream = net.connect(this.targetPort, this.targetHost);
    pair.upstream = upstream;
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => {
      if (!pair.dead) client.destroy();
    });
    client.on("data", (chunk) => {
      if (!pair.dead) upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!pair.dead) client.write(chunk);
    });
  }

  /** Stop forwarding; hold every connection open without a byte or an error. */
  drop() {
    this.mode = "drop";
    for (const pair of this.#pairs) pair.dead = true;
  }

  /** Reset every connection and refuse new ones. */
  async refuse() {
    this.mode = "refuse";
    for (const pair of this.#pairs) {
      pair.dead = true;
      pair.client.resetAndDestroy();
      pair.upstream?.destroy();
    }
    await this.#close();
  }

  /** Forward new connections again (listening again after a refuse). */
  async heal() {
    if (!this.#server) await this.start();
    this.mode = "up";
  }

  async stop() {
    for (const pair of this.#pairs) {
      pair.client.destroy();
      pair.upstream?.destroy();
    }
    await this.#close();
  }

  async #close() {
    const server = this.#server;
    this.#server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
