import { z } from "zod";

/** Relay settings from the environment (docs/galacord.md). The defaults are Discord's own. */
const schema = z.object({
  /** The bot token (Discord developer portal). Without it the bot cannot start ("Bot Error"). */
  DISCORD_TOKEN: z.string().optional(),
  /** REST base without the version, as discord.js wants it (the gateway URL comes from GET /gateway/bot). */
  DISCORD_API_URL: z.string().url().default("https://discord.com/api"),
  /** Our own limit on login + clientReady (discord.js retries a dead gateway forever). */
  RELAY_LOGIN_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  /** Login backoff: first retry after this, doubling, capped at RELAY_BACKOFF_MAX_MS. */
  RELAY_BACKOFF_MS: z.coerce.number().int().min(50).max(600_000).default(2_000),
  RELAY_BACKOFF_MAX_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
  /** Discord → Galaxy pacing per connection: a burst of this many lines, then one line per interval. */
  RELAY_LINE_BURST: z.coerce.number().int().min(1).max(1000).default(3),
  RELAY_LINE_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1_500),
  /** Lines waiting for a connection at most (older ones are dropped and logged). */
  RELAY_QUEUE_MAX: z.coerce.number().int().min(10).max(100_000).default(2_000),
  /** Relayed Galaxy lines waiting for Discord per channel at most (the oldest is dropped beyond; issue 22 B.6). */
  RELAY_DISCORD_QUEUE_MAX: z.coerce.number().int().min(10).max(100_000).default(500),
  /** Discord ↔ Galaxy message ids remembered for edits, deletes and replies (matterbridge's LRU is 5000). */
  RELAY_MAP_MAX: z.coerce.number().int().min(10).max(1_000_000).default(5_000),
  /** How often a connection's backlog is written to its session at most (the GalaCord row shows it live). */
  RELAY_BACKLOG_REPORT_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  /** Minimum pause between two JOINs of one connection (the web client's joinMinDelay). */
  RELAY_JOIN_MIN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(4_000),
  /** Keepalive (bare PONG), as the stalker. */
  RELAY_KEEPALIVE_MS: z.coerce.number().int().min(100).max(600_000).default(25_000),
  /** Galaxy reconnect: 2 × this, then doubling, capped at RELAY_BACKOFF_MAX_MS. */
  RELAY_GALAXY_RETRY_MS: z.coerce.number().int().min(50).max(600_000).default(2_000),
  /** Test speed only: no 5 s spacing between Discord identifies. */
  RELAY_FAST_IDENTIFY: z.enum(["0", "1"]).default("0"),
});
export type RelaySettings = z.infer<typeof schema>;

export function relaySettings(): RelaySettings {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(`Invalid relay environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}

export function backoff(n: number, first: number, max: number): number {
  return Math.min(first * 2 ** Math.max(0, n - 1), max);
}
