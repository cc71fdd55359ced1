/**
 * The demo environment behind `npm run demo` (= `npm start -- --demo`, scripts/start.ts):
 * starts the Galaxy simulator on loopback in this process, points the app's Galaxy endpoints
 * at it (GALAXY_WS_URL, GALAXY_SERVICES_URL) and seeds the demo data, before the server
 * starts. The simulator stops with the process.
 *
 *   GALAXY_SIM_PORT (default 6680), GALAXY_SIM_SEED, … as for `npm run galaxy-sim` (sim/main.ts)
 *
 * It also starts the Discord simulator (DISCORD_SIM_PORT default 6690, as `npm run discord-sim`)
 * and points the GalaCord bot at it (DISCORD_TOKEN, DISCORD_API_URL; docs/galacord.md), so the
 * relay works end to end offline. It closes with the Galaxy simulator (`sim.close()`).
 */
import { discordSimOptionsFromEnv } from "#sim/discord/main";
import { startDiscordSimulator } from "#sim/discord/server";
import { simOptionsFromEnv } from "#sim/main";
import { startSimulator, type Simulator } from "#sim/server";
import { resetEnv } from "~/utils/env.server";

/** The Galaxy endpoint variables that point the app at a simulator. */
export function demoEnv(sim: Pick<Simulator, "wsUrl" | "servicesUrl" | "url">): Record<string, string> {
  return {
    GALAXY_WS_URL: sim.wsUrl,
    GALAXY_SERVICES_URL: sim.servicesUrl,
    GALAXY_SIM_URL: sim.url,
    // Offline demo: gift pictures come from the simulator, not the platform's image host.
    GIFT_IMAGE_BASE_URL: `${sim.servicesUrl}img/gifts/`,
  };
}

export type DemoOptions = {
  /** Seed the database (default: every seeder of scripts/seed.ts); false skips it. */
  seed?: boolean | ((log: (line: string) => void) => Promise<void>);
  log?: (line: string) => void;
};

export async function startDemoEnvironment(options: DemoOptions = {}): Promise<Simulator> {
  const log = options.log ?? ((line: string) => console.log(line));
  const sim = await startSimulator(simOptionsFromEnv(process.env));
  Object.assign(process.env, demoEnv(sim));
  resetEnv(); // getEnv() may have been read already; the app must see the simulator's URLs
  log(`Galaxy simulator: socket ${sim.wsUrl}  services ${sim.servicesUrl}  control ${sim.controlUrl}`);
  for (const kind of ["bowling", "stalker", "trader", "plain"] as const) {
    const a = sim.world.accounts.find((x) => x.kind === kind)!;
    log(`  ${kind.padEnd(8)} account ${a.id} (${a.nick}), recovery code ${a.recoveryCode}`);
  }
  log(`  all ${sim.world.accounts.length} accounts: GET ${sim.controlUrl}accounts`);
  let discord;
  try {
    discord = await startDiscordSimulator(discordSimOptionsFromEnv(process.env));
  } catch (err) {
    await sim.close();
    throw err;
  }
  Object.assign(process.env, { DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiBase });
  resetEnv();
  const closeGalaxy = sim.close.bind(sim);
  sim.close = async () => {
    await discord.close().catch(() => {});
    await closeGalaxy();
  };
  log(`Discord simulator: REST ${discord.restUrl}  control ${discord.controlUrl}  (GalaCord: press Start, then ID with a plain account's recovery code)`);

  const seed = options.seed ?? true;
  try {
    if (typeof seed === "function") await seed(log);
    else if (seed) {
      const { runSeeders } = await import("./seed");
      await runSeeders([], log);
      const { seedDemoCharacters } = await import("./demo-characters");
      log(`seed characters: ${await seedDemoCharacters(sim)}`);
    }
  } catch (err) {
    await sim.close();
    throw err;
  }
  return sim;
}
