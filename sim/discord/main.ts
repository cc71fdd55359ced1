/**
 * `npm run discord-sim`: the Discord simulator on loopback.
 *
 *   DISCORD_SIM_PORT  (default 6690)   DISCORD_SIM_HOST (127.0.0.1 | ::1 | localhost)
 *   DISCORD_SIM_TOKEN (default "sim-bot-token")   DISCORD_SIM_HEARTBEAT_MS (default 41250)
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startDiscordSimulator, type DiscordSimulatorOptions } from "./server";

export function discordSimOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DiscordSimulatorOptions {
  const num = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
    return n;
  };
  const host = env.DISCORD_SIM_HOST || "127.0.0.1";
  if (host !== "127.0.0.1" && host !== "::1" && host !== "localhost") {
    throw new Error(`DISCORD_SIM_HOST must be a loopback address (127.0.0.1, ::1, localhost), got "${host}"`);
  }
  return {
    port: num("DISCORD_SIM_PORT", 6690),
    host,
    token: env.DISCORD_SIM_TOKEN || undefined,
    heartbeatIntervalMs: num("DISCORD_SIM_HEARTBEAT_MS", 41_250) || 41_250,
  };
}

async function main() {
  const sim = await startDiscordSimulator(discordSimOptionsFromEnv());
  const lines = [
    "Discord simulator on loopback",
    `  REST      ${sim.restUrl}   (discord.js: new Client({ rest: { api: "${sim.apiBase}" } }))`,
    `  gateway   ${sim.gatewayUrl}   (discord.js finds it through GET /gateway/bot)`,
    `  control   ${sim.controlUrl}   (GET ${sim.controlUrl}state lists guilds and channels)`,
    `  bot token ${sim.token}`,
    "",
    ...sim.state.guilds.flatMap((g) => [`  ${g.name} (${g.id})`, ...g.channels.map((c) => `    #${c.name.padEnd(10)} ${c.id}`)]),
  ];
  console.log(lines.join("\n"));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the Discord simulator`);
    await sim.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
