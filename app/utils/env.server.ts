import path from "node:path";
import { z } from "zod";

/**
 * Every environment variable the server reads, validated once at boot.
 * `.env.example` documents each of them; nothing here reaches the browser.
 */
const boolish = z.enum(["1", "0", "true", "false", "yes", "no", ""]).transform((v) => v === "1" || v === "true" || v === "yes");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Everything the app keeps on disk: PGlite files, secret key, private Redis. */
  DATA_DIR: z.string().default("./data"),
  /** A real PostgreSQL server; without it the embedded PGlite database is used. */
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PGLITE_DIR: z.string().optional(),
  /** Loopback port on which the web process shares its PGlite with local CLIs; 0 = any free port. */
  PGLITE_SOCKET_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
  /** Prefix of every BullMQ key; tests give each file its own. */
  QUEUE_PREFIX: z.string().default("gt"),
  /** Run a private redis-server when nothing answers at REDIS_URL. */
  START_REDIS: boolish.default(true),
  /** Run the job worker inside the web process. */
  RUN_WORKER: boolish.default(true),
  /** 32+ chars; derives the encryption and cookie keys. Generated into DATA_DIR when absent. */
  APP_SECRET: z
    .string()
    .min(32)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** Cookies get the Secure flag (set it when serving over https). */
  SECURE_COOKIES: boolish.default(false),
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
  /** How long audit trail entries are kept (docs/decisions/0016). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Encrypts backups (docs/decisions/0017); the CLI asks on the terminal without it. At least 8 characters. */
  BACKUP_PASSPHRASE: z
    .string()
    .min(8, "must be at least 8 characters")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** Daily automatic backups into DATA_DIR/backups; unset = on with the embedded database, off with DATABASE_URL. */
  BACKUP_DAILY: z
    .enum(["1", "0", "true", "false", "yes", "no"])
    .transform((v) => v === "1" || v === "true" || v === "yes")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** How many automatic backups are kept. */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(365).default(7),
  GALAXY_WS_URL: z.string().default("wss://cs.mobstudio.ru:6672"),
  GALAXY_SERVICES_URL: z.string().default("https://galaxy.mobstudio.ru/services/"),
  /** Where browsers load gift pictures from (`<base><slug>.png`); the demo points it at the simulator. */
  GIFT_IMAGE_BASE_URL: z.string().url().default("https://galaxy.mobstudio.ru/img/gifts/"),
  /** Accept self-signed certificates from the Galaxy endpoints (simulator). */
  GALAXY_INSECURE_TLS: boolish.default(false),
  /** JSON file overriding the configured (undocumented) Galaxy service actions. */
  GALAXY_SERVICES_CONFIG: z.string().optional(),
  DISCORD_TOKEN: z.string().optional(),
  /** Discord's REST base without the version (the simulator's in tests and the demo); alerts to a Discord channel post there as the GalaCord bot. */
  DISCORD_API_URL: z.string().url().default("https://discord.com/api"),
  /** The app's address as operators open it (links in alerts); unset = http://localhost:<PORT>. */
  PUBLIC_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** "json": every log line is one JSON object (pino); "pretty" (default): the quiet human log. */
  LOG_FORMAT: z
    .enum(["pretty", "json", ""])
    .default("pretty")
    .transform((v) => (v === "json" ? "json" : "pretty")),
  /** GET /metrics (Prometheus) needs "Authorization: Bearer <METRICS_TOKEN>"; unset = only from loopback (docs/deploy.md "Metrics"). */
  METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** A standalone worker serves GET /metrics on this port (0 or unset: none). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** The address a worker's /metrics listens on (default: loopback only). */
  METRICS_HOST: z.string().default("127.0.0.1"),
  // Resource limits (issue 28 item 3; docs/decisions/0026, docs/auth.md "Resource limits").
  /** Live streams (GET /api/events) one cookie session or one API token may hold at once. */
  LIVE_STREAMS_PER_CREDENTIAL: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Live streams one operator may hold at once, all sessions and tokens together. */
  LIVE_STREAMS_PER_OPERATOR: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Live streams this web process holds at once, all operators together. */
  LIVE_STREAMS_TOTAL: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** A request's headers and body must arrive within this (Node's default is 300 s); 0 = no limit. */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** A request's headers must arrive within this; kept at or below HTTP_REQUEST_TIMEOUT_MS. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(20_000),
  /** Open connections one client address (IPv6: one /64) may hold; 0 = no limit. Not 127.0.0.1/::1, a local reverse proxy's (docs/auth.md). */
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(256),
  /** Open connections in all; unset = sized from the process's file-descriptor limit; 0 = no limit. */
  HTTP_MAX_CONNECTIONS: z.union([z.literal("").transform(() => undefined), z.coerce.number().int().min(0).max(10_000_000)]).optional(),
  /** The day boundary of the Summary's daily totals (docs/summary.md [D] "time zone"); an IANA zone. */
  SUMMARY_TIME_ZONE: z
    .string()
    .default("Europe/Moscow")
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, "must be an IANA time zone such as Europe/Moscow"),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Parsed environment. Re-read when `resetEnv()` is called (tests change variables per file). */
export function getEnv(): Env {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      throw new Error(`Invalid environment: ${issues}`);
    }
    cached = parsed.data;
  }
  return cached;
}

export function resetEnv() {
  cached = undefined;
}

export function dataPath(...parts: string[]) {
  return path.resolve(getEnv().DATA_DIR, ...parts);
}
