/**
 * The Discord simulator as one loopback HTTP server that unmodified discord.js 14 talks to:
 *   http://127.0.0.1:<port>/api/v10/…     REST (sim/discord/rest.ts)
 *   ws://127.0.0.1:<port>/gateway         the gateway (sim/discord/gateway.ts); resumes on /gateway-resume
 *                                         (a trailing slash is fine: libraries append `/` before `?v=`)
 *   http://127.0.0.1:<port>/__discord/…   the control endpoint (sim/discord/control.ts)
 *
 *   const discord = await startDiscordSimulator({ port: 0 });
 *   const client = new Client({ intents, rest: { api: discord.apiBase } }); // the gateway URL comes from GET /gateway/bot
 *   await client.login(discord.token);
 *   await discord.close();
 */
import http from "node:http";
import { handleDiscordControl } from "./control";
import { DiscordGateway, type GatewayOptions } from "./gateway";
import { RateLimiter, type RateLimitConfig } from "./ratelimit";
import { handleRest } from "./rest";
import { createDiscordState, type DiscordState } from "./state";
import { listen } from "../http";

export type DiscordSimulatorOptions = GatewayOptions & {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only: the control endpoint has no authentication. */
  host?: "127.0.0.1" | "::1" | "localhost";
  /** The bot token the simulator accepts (default SEED.token, "sim-bot-token"). */
  token?: string;
  botUsername?: string;
  /** REST rate limits (sim/discord/ratelimit.ts defaults: Discord-like per-route buckets, 50/s global). */
  rateLimits?: Partial<RateLimitConfig>;
};

export type DiscordSimulator = {
  /** http://127.0.0.1:<port> */
  url: string;
  /** `<url>/api/v10`: where the REST routes live. */
  restUrl: string;
  /** `<url>/api`: what discord.js wants as `rest.api` (it appends `/v10` itself). */
  apiBase: string;
  /** ws://127.0.0.1:<port>/gateway (also what GET /gateway/bot answers). */
  gatewayUrl: string;
  controlUrl: string;
  port: number;
  token: string;
  state: DiscordState;
  gateway: DiscordGateway;
  limiter: RateLimiter;
  close(): Promise<void>;
};

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export async function startDiscordSimulator(options: DiscordSimulatorOptions = {}): Promise<DiscordSimulator> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK.has(host)) throw new Error(`The Discord simulator listens on loopback only, not ${host}`);
  const state = createDiscordState({ token: options.token, botUsername: options.botUsername });
  let base = "";
  const gatewayUrl = () => `ws://${base}/gateway`;
  const gateway = new DiscordGateway(state, () => `ws://${base}`, options);
  const limiter = new RateLimiter(options.rateLimits);

  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const done = (p: Promise<void>) =>
      p.catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: `Simulator error: ${err.message}`, code: 0 }));
      });
    if (path.startsWith("/api/")) return void done(handleRest(state, gateway, limiter, gatewayUrl, req, res));
    if (path === "/__discord" || path.startsWith("/__discord/")) return void done(handleDiscordControl(state, gateway, limiter, req, res));
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end("Discord simulator: REST at /api/v10/, the gateway at /gateway, control at /__discord/\n");
  });
  server.on("upgrade", (req, socket, head) => {
    // Discord's gateway URL has no path and libraries append "/" before the query (oceanic.js does), so
    // "/gateway/" is the same place as "/gateway".
    const path = (req.url ?? "/").split("?")[0].replace(/(.)\/+$/, "$1");
    if (path !== "/gateway" && path !== "/gateway-resume") {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    gateway.handleUpgrade(req, socket, head);
  });
  server.on("clientError", (_err, socket) => socket.destroy());

  const port = await listen(server, options.port ?? 0, host);
  base = `${host === "::1" ? "[::1]" : host}:${port}`;
  const url = `http://${base}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    restUrl: `${url}/api/v10`,
    apiBase: `${url}/api`,
    gatewayUrl: gatewayUrl(),
    controlUrl: `${url}/__discord/`,
    port,
    token: state.token,
    state,
    gateway,
    limiter,
    close() {
      closing ??= (async () => {
        await gateway.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closing;
    },
  };
}
