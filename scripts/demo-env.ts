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
import { startDiscordSimulator, type DiscordSimulator } from "#sim/discord/server";
import { simOptionsFromEnv } from "#sim/main";
import { startSimulator, type Simulator } from "#sim/server";
import { resetEnv } from "~/utils/env.server";
import { startDemoWorld } from "./demo-characters";
import type { DemoPlan } from "./demo-seed";

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
  /**
   * Seed the database (default: the demo seed of scripts/demo-seed.ts, into an empty database
   * only); a function replaces it; false skips it.
   */
  seed?: boolean | ((log: (line: string) => void) => Promise<void>);
  log?: (line: string) => void;
};

export type DemoEnvironment = Simulator & {
  discord: DiscordSimulator;
  /** What the start did with the database: seeded it, found it seeded, or left someone's data alone. */
  plan: DemoPlan | "custom" | "none";
  /**
   * Call once the server answers at `url`: finishes the seed (GalaCord, Collections), sends a few
   * messages through the relay channel (in the background) and prints where everything is.
   */
  afterListening(url: string): Promise<void>;
};

/**
 * A simulator port someone else holds: one line saying which and what to do (issue 30 A8), for
 * the launcher to print instead of a stack trace.
 */
export class DemoPortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly variable: string,
    what: string,
  ) {
    super(`Cannot start the demo: port ${port} (${what}, ${variable}) is already in use. Stop what uses it, or set ${variable} to another port.`);
    this.name = "DemoPortInUseError";
  }
}

function portInUse(err: unknown, port: number | undefined, variable: string, what: string): unknown {
  return (err as NodeJS.ErrnoException | null)?.code === "EADDRINUSE" ? new DemoPortInUseError(port ?? 0, variable, what) : err;
}

export async function startDemoEnvironment(options: DemoOptions = {}): Promise<DemoEnvironment> {
  const log = options.log ?? ((line: string) => console.log(line));
  const galaxyOptions = simOptionsFromEnv(process.env);
  const sim = await startSimulator(galaxyOptions).catch((err: unknown) => {
    throw portInUse(err, galaxyOptions.port, "GALAXY_SIM_PORT", "Galaxy simulator");
  });
  Object.assign(process.env, demoEnv(sim));
  resetEnv(); // getEnv() may have been read already; the app must see the simulator's URLs
  let discord: DiscordSimulator;
  const discordOptions = discordSimOptionsFromEnv(process.env);
  try {
    discord = await startDiscordSimulator(discordOptions);
  } catch (err) {
    await sim.close();
    throw portInUse(err, discordOptions.port, "DISCORD_SIM_PORT", "Discord simulator");
  }
  Object.assign(process.env, { DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiBase });
  resetEnv();
  const closeGalaxy = sim.close.bind(sim);
  let chatter: Promise<unknown> = Promise.resolve();
  const closing = new AbortController();
  sim.close = async () => {
    closing.abort();
    await discord.close().catch(() => {});
    await closeGalaxy();
    await chatter.catch(() => {});
  };
  log(`Demo: Galaxy simulator at ${sim.url}, Discord simulator at ${discord.url}`);

  const seed = options.seed ?? true;
  let plan: DemoEnvironment["plan"] = "none";
  try {
    if (typeof seed === "function") {
      plan = "custom";
      await seed(log);
    } else if (seed) {
      const { demoPlan, seedDemoData } = await import("./demo-seed");
      const found = await demoPlan();
      plan = found.plan;
      if (plan === "seed") log(`Demo data: seeding an empty database… ${await seedDemoData({ sim, discord })}`);
      else if (plan === "not-empty") log(`Demo data: not seeded, the database already holds data (${found.tables.join(", ")})`);
      else if (plan === "seeded") log("Demo data: seeded on an earlier start, kept as it is");
    }
    if (seed) startDemoWorld(sim);
  } catch (err) {
    await sim.close();
    throw err;
  }

  const afterListening = async (url: string) => {
    if (plan === "seed" || plan === "finish") {
      const { seedDemoLive } = await import("./demo-seed");
      log(`Demo data: ${await seedDemoLive({ sim, discord })}`);
    }
    if (plan !== "none" && plan !== "custom") {
      const { demoChannelChatter } = await import("./demo-seed");
      chatter = demoChannelChatter({ sim, discord }, { signal: closing.signal }).catch(() => 0);
    }
    const { DEMO_OPERATOR, demoRelayChannel } = await import("./demo-seed");
    const channel = demoRelayChannel(discord);
    const tryIt = sim.world.accounts.find((a) => a.kind === "plain")!;
    const lines = [
      `Galaxy Toolbox (demo) on ${url}`,
      plan === "seed" || plan === "finish" || plan === "seeded"
        ? `  sign in as ${DEMO_OPERATOR.name} / ${DEMO_OPERATOR.password}`
        : "  sign in with your operator (the demo operator is created only in an empty database)",
      `  demo accounts (ids, nicks, recovery codes): ${sim.controlUrl}accounts`,
      `  to try GalaCord (Connect) or Collections: ${tryIt.nick}'s recovery code ${tryIt.recoveryCode}`,
      `  GalaCord channel #${channel.name}: ${discord.controlUrl}messages?channelId=${channel.id}`,
    ];
    log(lines.join("\n"));
  };
  return Object.assign(sim, { discord, plan, afterListening });
}
