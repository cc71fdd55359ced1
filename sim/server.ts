/**
 * The Galaxy simulator as one loopback HTTP server:
 *   ws(s)://127.0.0.1:<port>/      the chat socket (sim/socket.ts)
 *   http(s)://…/services/          the HTTP services (sim/services.ts)
 *   http(s)://…/__sim/             the control endpoint (sim/control.ts)
 *
 *   const sim = await startSimulator({ port: 0 });
 *   new GalaxyConnection({ url: sim.wsUrl, credentials: { recoveryCode: sim.world.accounts[0].recoveryCode } });
 *   await sim.close();
 */
import http from "node:http";
import https from "node:https";
import { handleControl } from "./control";
import { NpcMover } from "./npcs";
import { handleServices } from "./services";
import { SimSocketServer, type SocketOptions } from "./socket";
import { createWorld, type World } from "./world";
import { listen } from "./http";

export type SimulatorOptions = SocketOptions & {
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * Loopback only: the simulator hands out credentials to anyone who asks. The multi-host test
   * (tests/hosts/) listens on a private address inside its own network namespace, which
   * nothing outside reaches: it passes `insideNamespace: true`.
   */
  host?: string;
  insideNamespace?: boolean;
  seed?: number;
  /** N more generated stalker accounts for scale runs (World's `extraAccounts`; default 0). */
  extraAccounts?: number;
  /** Serve wss/https with this certificate (for clients that insist on TLS). */
  tls?: { key: string | Buffer; cert: string | Buffer };
};

export type Simulator = {
  url: string;
  wsUrl: string;
  servicesUrl: string;
  controlUrl: string;
  port: number;
  world: World;
  sockets: SimSocketServer;
  /** Moving scripted users (sim/npcs.ts); stopped until started (POST /__sim/npcs). */
  npcs: NpcMover;
  close(): Promise<void>;
};

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK.has(host) && !options.insideNamespace) throw new Error(`The Galaxy simulator listens on loopback only, not ${host}`);
  const world = createWorld(options.seed ?? 1, { extraAccounts: options.extraAccounts ?? 0 });
  const sockets = new SimSocketServer(world, options);
  const npcs = new NpcMover(world, (id) => sockets.sessions(id).length > 0);

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    const done = (p: Promise<void>) =>
      p.catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(`Simulator error: ${err.message}`);
      });
    if (path === "/services" || path.startsWith("/services/")) return void done(handleServices(world, req, res));
    if (path === "/__sim" || path.startsWith("/__sim/")) return void done(handleControl(world, sockets, req, res, npcs));
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end("Galaxy simulator: the socket is at /, the services at /services/, control at /__sim/\n");
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, onRequest) : http.createServer(onRequest);

  server.on("upgrade", (req, socket, head) => {
    const path = (req.url ?? "/").split("?")[0];
    // Some bots add a trailing slash and some none: both arrive as "/".
    if (path !== "/" && path !== "") {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    sockets.handleUpgrade(req, socket, head);
  });
  server.on("clientError", (_err, socket) => socket.destroy());

  const port = await listen(server, options.port ?? 0, host);
  const h = host === "::1" ? "[::1]" : host;
  const secure = !!options.tls;
  const url = `${secure ? "https" : "http"}://${h}:${port}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    wsUrl: `${secure ? "wss" : "ws"}://${h}:${port}/`,
    servicesUrl: `${url}/services/`,
    controlUrl: `${url}/__sim/`,
    port,
    world,
    sockets,
    npcs,
    close() {
      closing ??= (async () => {
        npcs.stop();
        await sockets.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closing;
    },
  };
}
