/**
 * A TCP proxy a test controls, standing between a worker and Redis (or any TCP service): `cut()`
 * simulates a network partition — nothing is forwarded any more in either direction, yet no
 * socket is closed or reset, so the client sees silence, exactly as when a host is cut off —
 * and `heal()` forwards again, including what was held meanwhile. New connections made during a
 * cut are accepted and held too. Test-only (decision 0028).
 */
import net from "node:net";

export type PartitionProxy = {
  url: string;
  port: number;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
};

export async function startPartitionProxy(target: { host: string; port: number }, scheme = "redis"): Promise<PartitionProxy> {
  let cut = false;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const pipe = (from: net.Socket, to: net.Socket) => {
      from.on("data", (chunk: Buffer) => {
        if (!to.write(chunk)) from.pause();
      });
      to.on("drain", () => {
        if (!cut) from.resume();
      });
    };
    pipe(client, upstream);
    pipe(upstream, client);
    if (cut) {
      client.pause();
      upstream.pause();
    }
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", () => {});
    upstream.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url: `${scheme}://127.0.0.1:${port}`,
    cut() {
      cut = true;
      // Paused sockets read nothing more: their data stays in the kernel buffers, undelivered.
      for (const p of pairs) {
        p.client.pause();
        p.upstream.pause();
      }
    },
    heal() {
      cut = false;
      for (const p of pairs) {
        p.client.resume();
        p.upstream.resume();
      }
    },
    async close() {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
