/**
 * `npm run galaxy-sim`: the Galaxy simulator on loopback.
 *
 *   GALAXY_SIM_PORT  (default 6680)   GALAXY_SIM_HOST (127.0.0.1 | ::1 | localhost)
 *   GALAXY_SIM_SEED  (default 1)      GALAXY_SIM_PING_MS (server PING interval, default 30000)
 *   GALAXY_SIM_TLS_KEY / GALAXY_SIM_TLS_CERT  PEM files: serve wss/https instead
 *   SIM_RELOGIN_WINDOW_MS (default 10000; 0 = off)  a login this soon after the account's last QUIT gets 452
 *   GALAXY_SIM_NPC_MS (default 0 = still)  the scripted users move this often (sim/npcs.ts)
 *   GALAXY_SIM_EXTRA_ACCOUNTS (default 0)  N more generated stalker accounts, home planets
 *                                          round-robin over the 8 general planets (scale runs)
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type SimulatorOptions } from "./server";
import { DEFAULT_RELOGIN_WINDOW_MS } from "./socket";

export function simOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SimulatorOptions {
  const num = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
    return n;
  };
  const host = env.GALAXY_SIM_HOST || "127.0.0.1";
  if (host !== "127.0.0.1" && host !== "::1" && host !== "localhost") {
    throw new Error(`GALAXY_SIM_HOST must be a loopback address (127.0.0.1, ::1, localhost), got "${host}"`);
  }
  const key = env.GALAXY_SIM_TLS_KEY;
  const cert = env.GALAXY_SIM_TLS_CERT;
  return {
    port: num("GALAXY_SIM_PORT", 6680),
    host,
    seed: num("GALAXY_SIM_SEED", 1),
    extraAccounts: num("GALAXY_SIM_EXTRA_ACCOUNTS", 0),
    pingIntervalMs: num("GALAXY_SIM_PING_MS", 30_000),
    reloginWindowMs: num("SIM_RELOGIN_WINDOW_MS", DEFAULT_RELOGIN_WINDOW_MS),
    tls: key && cert ? { key: fs.readFileSync(key), cert: fs.readFileSync(cert) } : undefined,
  };
}

async function main() {
  const sim = await startSimulator(simOptionsFromEnv());
  const npcMs = Number(process.env.GALAXY_SIM_NPC_MS ?? "0");
  if (Number.isInteger(npcMs) && npcMs >= 10) sim.npcs.start(npcMs);
  const sample = (kind: string) => sim.world.accounts.filter((a) => a.kind === kind).slice(0, 2);
  const lines = [
    `Galaxy simulator (seed ${sim.world.seed}) on loopback`,
    `  socket    ${sim.wsUrl}`,
    `  services  ${sim.servicesUrl}`,
    `  control   ${sim.controlUrl}   (GET ${sim.controlUrl}accounts lists every account)`,
    "",
    "Point the app at it:",
    `  GALAXY_WS_URL=${sim.wsUrl} GALAXY_SERVICES_URL=${sim.servicesUrl} npm start`,
    "",
    `${sim.world.accounts.length} accounts, for example:`,
    ...["bowling", "stalker", "trader", "plain"]
      .flatMap(sample)
      .map((a) => `  ${a.kind?.padEnd(9)} id ${a.id.padEnd(9)} nick ${a.nick.padEnd(14)} recovery code ${a.recoveryCode}`),
  ];
  console.log(lines.join("\n"));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the simulator`);
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
