/**
 * The deployment recipe for several hosts (docs/deploy.md) as data: every variable each host
 * sets, and the data host's PostgreSQL and Redis settings. docs/deploy.md shows the table
 * `recipeMarkdown()` prints (tests/hosts/recipe.test.ts holds them equal), and the multi-host
 * test (tests/hosts/run.ts) starts its hosts from `hostEnv()` — the same rows, so what the
 * test proves is what the doc tells operators to do.
 *
 * Placeholders in values: {DATA} the data host's address, {PG_PASSWORD}, {REDIS_PASSWORD},
 * {APP_SECRET}, {GALAXY_WS_URL}, {GALAXY_SERVICES_URL}, {GIFT_IMAGE_BASE_URL}.
 */

export type HostRole = "web" | "worker";

export type RecipeRow = {
  name: string;
  /** Value per role; absent = not set on that role (the default applies or it is not read). */
  web?: string;
  worker?: string;
  why: string;
};

/** Every variable of .env.example, per role. Timing variables keep their defaults (they are one setting; docs/jobs.md). */
export const RECIPE: RecipeRow[] = [
  { name: "NODE_ENV", web: "production", worker: "production", why: "production build, no dev server" },
  { name: "PORT", web: "3000", why: "the proxy on the same host forwards here" },
  { name: "HOST", web: "127.0.0.1", why: "only the reverse proxy on this host reaches the app (the app trusts X-Forwarded-* from loopback only)" },
  {
    name: "DATABASE_URL",
    web: "postgres://galaxy:{PG_PASSWORD}@{DATA}:5432/galaxy",
    worker: "postgres://galaxy:{PG_PASSWORD}@{DATA}:5432/galaxy",
    why: "the one PostgreSQL on the data host",
  },
  { name: "REDIS_URL", web: "redis://:{REDIS_PASSWORD}@{DATA}:6379", worker: "redis://:{REDIS_PASSWORD}@{DATA}:6379", why: "the one Redis on the data host" },
  { name: "START_REDIS", web: "false", worker: "false", why: "never a private redis-server beside a shared one" },
  { name: "RUN_WORKER", web: "false", worker: "", why: "web hosts only serve; workers are `npm run worker` (the variable is not read there)" },
  { name: "QUEUE_PREFIX", web: "gt", worker: "gt", why: "the same on every host, or they do not see each other's jobs" },
  { name: "APP_SECRET", web: "{APP_SECRET}", worker: "{APP_SECRET}", why: "the same on every host: it encrypts the stored game passwords and signs cookies" },
  {
    name: "DATA_DIR",
    web: "/var/lib/galaxy-toolbox",
    worker: "/var/lib/galaxy-toolbox",
    why: "local scratch only (no PGlite, no key file once APP_SECRET is set)",
  },
  { name: "PGLITE_DIR", why: "not used with DATABASE_URL" },
  { name: "PGLITE_SOCKET_PORT", why: "not used with DATABASE_URL" },
  { name: "SECURE_COOKIES", web: "true", why: "the proxy serves https; the session cookie gets the Secure flag" },
  { name: "LOG_RETENTION_DAYS", web: "14", why: "default; read by the clean-up, set it alike on web hosts" },
  { name: "AUDIT_RETENTION_DAYS", web: "90", worker: "90", why: "default; the daily clean-up runs on a worker" },
  { name: "BACKUP_PASSPHRASE", worker: "(secret, optional)", why: "only if `npm run backup` runs on that host; back up PostgreSQL with its own tools" },
  { name: "BACKUP_DAILY", web: "false", worker: "false", why: "the default with DATABASE_URL; back up the data host (pg_dump, Redis AOF)" },
  { name: "BACKUP_KEEP", why: "only with BACKUP_DAILY" },
  { name: "GALAXY_WS_URL", web: "{GALAXY_WS_URL}", worker: "{GALAXY_WS_URL}", why: "default wss://cs.mobstudio.ru:6672" },
  { name: "GALAXY_SERVICES_URL", web: "{GALAXY_SERVICES_URL}", worker: "{GALAXY_SERVICES_URL}", why: "default https://galaxy.mobstudio.ru/services/" },
  { name: "GIFT_IMAGE_BASE_URL", web: "{GIFT_IMAGE_BASE_URL}", why: "browsers load gift pictures from here" },
  { name: "GALAXY_INSECURE_TLS", web: "false", worker: "false", why: "true only against a self-signed simulator" },
  { name: "GALAXY_SERVICES_CONFIG", why: "optional JSON override, same file on every host if used" },
  { name: "SUMMARY_TIME_ZONE", web: "Europe/Moscow", worker: "Europe/Moscow", why: "the same everywhere: day boundary of the daily totals" },
  { name: "DISCORD_TOKEN", why: "optional; GalaCord keeps its bot token in the database" },
  { name: "DISCORD_API_URL", worker: "https://discord.com/api", why: "the relay runs on workers" },
  { name: "RELAY_*", why: "defaults (docs/galacord.md); workers only" },
  { name: "PUBLIC_URL", why: "optional, web and workers alike: the proxy's https address, for the links in alerts" },
  { name: "LOG_FORMAT", why: 'optional, every host alike: json for one JSON object a line ("Metrics, logs and alerts" below)' },
  { name: "METRICS_TOKEN", why: "optional, every host alike (a secret file): the bearer token of GET /metrics; without it loopback only" },
  { name: "METRICS_PORT", why: "optional, workers: the port of their GET /metrics (e.g. 9464)" },
  {
    name: "WEB_HEAP_GROWING_PERCENT",
    why: "optional, web: default 50; the V8 heap grows at most this far past the last full GC's survivors (0 = V8's own; decision 0043)",
  },
  { name: "METRICS_HOST", why: "optional, workers: the internal address their GET /metrics listens on (default loopback)" },
  { name: "JOB_LOCK_DURATION_MS", why: "default 30000 (docs/jobs.md); Auto cycles and refreshes use the session lock below (decision 0028)" },
  { name: "JOB_STALLED_INTERVAL_MS", why: "default 30000" },
  { name: "JOB_MAX_STALLED_COUNT", why: "default 5" },
  { name: "WORKER_HEARTBEAT_MS", why: "default 1000; a worker is lost after 3 beats (decision 0027): leave it alike on every host" },
  { name: "WORKER_SHUTDOWN_TIMEOUT_MS", why: "default 25000; the process manager's stop timeout must exceed it (35 s)" },
  {
    name: "SESSION_LOCK_DURATION_MS",
    why: "default 5000: the one fencing setting (renew, let-go margin derive from it); failover ≤ lock + stalled interval (docs/sessions.md)",
  },
  { name: "SESSION_STALLED_INTERVAL_MS", why: "default 1000" },
  { name: "SESSION_CONCURRENCY", why: "default from the worker's memory (≥ 1,000 sessions per purpose; decision 0027): size workers so N−1 carry the fleet" },
  { name: "SESSION_POLL_MS", why: "default 3000" },
  { name: "SESSION_RECONCILE_MS", why: "default 15000" },
  { name: "SESSION_HOST_BEAT_MS", why: "default 1000" },
  { name: "SESSION_START_WAIT_MS", why: "default 4000; a stalker start waits this long for the login" },
  { name: "SIGHTINGS_FLUSH_MS", why: "default 500" },
  { name: "SIGHTINGS_CONFIRM_MS", why: "default 60000" },
  {
    name: "HTTP_REQUEST_TIMEOUT_MS",
    why: 'default 30000: a request (a trickled body) is cut at 30 s (docs/auth.md "Resource limits"); the proxy\'s own body timeout comes first',
  },
  { name: "HTTP_HEADERS_TIMEOUT_MS", why: "default 20000" },
  {
    name: "HTTP_MAX_CONNECTIONS_PER_ADDRESS",
    why: "default 256; loopback (the proxy on this host) is exempt, so the proxy's limit_conn is the per-client limit",
  },
  { name: "HTTP_MAX_CONNECTIONS", why: "default: the file-descriptor limit less 1024" },
  { name: "LIVE_STREAMS_PER_CREDENTIAL", why: "default 20 live streams per cookie session or API token" },
  { name: "LIVE_STREAMS_PER_OPERATOR", why: "default 100" },
  { name: "LIVE_STREAMS_TOTAL", why: "default 1000 per web process" },
  { name: "GALAXY_SIM_PORT", why: "simulator only, never in production" },
  { name: "GALAXY_SIM_HOST", why: "simulator only" },
  { name: "GALAXY_SIM_SEED", why: "simulator only" },
];

/** Redis on the data host: what BullMQ needs (docs/deploy.md "Data host"). */
export const REDIS_CONF = [
  "bind {DATA}",
  "port 6379",
  "protected-mode yes",
  "requirepass {REDIS_PASSWORD}",
  "appendonly yes",
  "appendfsync everysec",
  "maxmemory-policy noeviction",
  'save ""',
];

/** PostgreSQL on the data host (postgresql.conf lines; pg_hba.conf admits the hosts' network). */
export const POSTGRES_CONF = ["listen_addresses = '{DATA}'", "port = 5432", "max_connections = 200"];

export type Placeholders = Record<
  "DATA" | "PG_PASSWORD" | "REDIS_PASSWORD" | "APP_SECRET" | "GALAXY_WS_URL" | "GALAXY_SERVICES_URL" | "GIFT_IMAGE_BASE_URL",
  string
>;

export function fill(text: string, values: Placeholders): string {
  return text.replace(/\{([A-Z_]+)\}/g, (whole, key: string) => (key in values ? values[key as keyof Placeholders] : whole));
}

/**
 * The environment of one host from the recipe. Rows without a value for the role are left
 * out, rows that name a group (`RELAY_*`) or a secret to choose are not set. `overrides` is
 * where a harness must differ (and says why, docs/deploy.md "The multi-host test").
 */
export function hostEnv(role: HostRole, values: Placeholders, overrides: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const row of RECIPE) {
    const v = row[role];
    if (v === undefined || v === "" || row.name.includes("*") || v.startsWith("(")) continue;
    env[row.name] = fill(v, values);
  }
  return { ...env, ...overrides };
}

/** The table docs/deploy.md shows (tests/hosts/recipe.test.ts holds them equal). */
export function recipeMarkdown(): string {
  const cell = (v: string | undefined) => (v === undefined ? "—" : v === "" ? "(not read)" : `\`${v}\``);
  return [
    "| variable | web hosts | worker hosts | why |",
    "|---|---|---|---|",
    ...RECIPE.map((r) => `| \`${r.name}\` | ${cell(r.web)} | ${cell(r.worker)} | ${r.why} |`),
  ].join("\n");
}

if (process.argv[1]?.endsWith("recipe.ts")) console.log(recipeMarkdown());
