import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { getEnv, dataPath } from "~/utils/env.server";
import { forget, recall, remember } from "~/utils/remember.server";
import { DependencyDownError, isDbConnectivityError } from "~/utils/dependency-down.server";
import { attachDbBreaker, DB_TIMEOUTS, dbBreakerActive, dbReachability, detachDbBreaker, noteDbAnswer, reportDbUnreachable } from "./reachability.server";
import { serveEmbeddedDb, socketInfoPath, type EmbeddedSocketInfo } from "./embedded-socket.server";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * The committed migrations (`drizzle/` at the project root). This module runs from
 * app/db/ (tsx, vitest) or from a chunk of the server build at any depth
 * (build/server/index.js, build/server/assets/…), so the folder is found by walking up.
 */
export const MIGRATIONS = findUp(path.dirname(fileURLToPath(import.meta.url)), path.join("drizzle", "meta", "_journal.json"));

function findUp(from: string, file: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, file))) return path.join(dir, path.dirname(path.dirname(file)));
    if (path.dirname(dir) === dir) throw new Error(`No ${file} above ${from}`);
  }
}

type Handle = {
  db: Db;
  kind: "pglite" | "postgres";
  /** How this process reaches the embedded database: its own PGlite, or the owner's socket. */
  via?: "direct" | "socket";
  close: () => Promise<void>;
};

/**
 * What this process does with the embedded database (no DATABASE_URL) when no other
 * process serves it (docs/decisions/0011):
 * - "serve" (default; the web process): open the PGlite files and share them with other
 *   local processes over a password-protected loopback socket;
 * - "direct" (one-shot CLIs: operator, seed): open the files for this process only;
 * - "require-owner" (long-running helpers: the standalone worker): refuse, since a second
 *   process must never open the same files.
 * In every mode, a running owner is used through its socket.
 */
export type EmbeddedMode = "serve" | "direct" | "require-owner";
let embeddedMode: EmbeddedMode = "serve";

/** Call before the first `getDb()`. */
export function setEmbeddedMode(mode: EmbeddedMode) {
  embeddedMode = mode;
}

export class NoEmbeddedOwnerError extends Error {}

async function openPostgres(url: string, options: { max: number }) {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  // Fail fast (docs/decisions/0029): a connect, a wait for a pooled connection and a query
  // never wait unbounded on a database that stopped answering; keepalive lets the kernel
  // notice a dead peer on idle connections too.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max,
    connectionTimeoutMillis: DB_TIMEOUTS.connectMs,
    query_timeout: DB_TIMEOUTS.queryMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: DB_TIMEOUTS.keepAliveMs,
  });
  const discarded = new WeakSet<object>();
  pool.on("error", (err, client) => {
    // An idle connection that ended: the database restarted or is going away.
    if (discarded.has(client)) return;
    console.warn("[db] idle client error", err.message);
    reportDbUnreachable(err);
  });
  // A connection lost while a transaction holds it (PostgreSQL restarted, the backend
  // terminated) rejects that transaction, and pg also emits "error" on the client: the pool
  // listens only while the client is idle, so without this listener the process would die of an
  // uncaught error. The pool drops the broken client when it is released; the next query opens
  // a fresh one. (An idle client's loss reaches both listeners.)
  pool.on("connect", (client) => {
    client.on("error", (err) => {
      if (!discarded.has(client)) console.warn("[db] connection lost:", err.message);
    });
    watchQueries(client);
  });
  failFast(pool);
  attachDbBreaker({
    probe: (timeoutMs) => probePostgres(pg, url, timeoutMs),
    // Destroys every pooled connection's socket: queries on them fail now (a silently dropped
    // connection would otherwise hold them until TCP gives up) and the pool opens fresh ones.
    discard: () => {
      for (const client of (pool as unknown as { _clients: PgClientInternals[] })._clients) {
        discarded.add(client);
        client.connection?.stream?.destroy();
      }
    },
  });
  const db = drizzle(pool, { schema, casing: "snake_case" });
  // A no-op when the database is already migrated (a test template, a running owner).
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS });
  } catch (err) {
    // The handle never opened: nothing may keep probing (and judging) a database through it.
    detachDbBreaker();
    void pool.end().catch(() => {});
    throw err;
  }
  return {
    db: db as unknown as Db,
    close: () => {
      detachDbBreaker();
      return pool.end();
    },
  };
}

/** node-postgres' client with the socket it keeps privately (used to discard a silently dead connection). */
type PgClientInternals = { connection?: { stream?: { destroy: () => void } } };

/**
 * The pool's `query()` and `connect()` reject at once while the breaker says the database is
 * down, and turn a failure to reach it into `DependencyDownError("database")` (a 503 at every
 * edge) after telling the breaker. Other errors (constraint violations…) pass unchanged.
 */
function failFast(pool: import("pg").Pool) {
  const guard = <T>(run: () => Promise<T>): Promise<T> => {
    if (!dbReachability().up) return Promise.reject(new DependencyDownError("database"));
    return run().catch((err: unknown) => {
      if (!isDbConnectivityError(err)) throw err;
      reportDbUnreachable(err);
      throw new DependencyDownError("database", { cause: err });
    });
  };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  // Callback forms (nothing of ours uses them) pass through untouched.
  const wrap =
    (fn: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) =>
      typeof args[args.length - 1] === "function" ? fn(...args) : guard(() => fn(...args) as Promise<unknown>);
  Object.assign(pool, { query: wrap(query), connect: wrap(connect) });
}

/**
 * Every query of this connection (the pool's and a transaction's) that has no answer after
 * DB_TIMEOUTS.suspectMs makes the breaker probe the database: on a silently dropped connection
 * it would otherwise wait DB_TIMEOUTS.queryMs. A slow query on a live database is left alone.
 */
function watchQueries(client: import("pg").PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const watched = (...args: unknown[]) => {
    const first = args[0] as { submit?: unknown } | undefined;
    if (first && typeof first === "object" && typeof first.submit === "function") return query(...args);
    const timer = setTimeout(() => reportDbUnreachable(new Error(`a query got no answer within ${DB_TIMEOUTS.suspectMs} ms`)), DB_TIMEOUTS.suspectMs);
    timer.unref();
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (...result: unknown[]) => {
        clearTimeout(timer);
        (last as (...r: unknown[]) => void)(...result);
      };
      return query(...args);
    }
    const result = query(...args) as Promise<unknown>;
    result.then(
      () => {
        clearTimeout(timer);
        noteDbAnswer();
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!isDbConnectivityError(err)) noteDbAnswer(); // the server's own error is an answer too
      },
    );
    return result;
  };
  Object.assign(client, { query: watched });
}

/** Connect + `select 1` on a fresh connection, bounded; the socket is destroyed after a failure. */
async function probePostgres(pg: typeof import("pg").default, url: string, timeoutMs: number = DB_TIMEOUTS.probeMs): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
    void client.end().catch(() => {});
  } catch (err) {
    (client as unknown as PgClientInternals).connection?.stream?.destroy();
    throw err;
  }
}

async function open(): Promise<Handle> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const { db, close } = await openPostgres(env.DATABASE_URL, { max: 10 });
    return { db, kind: "postgres", close };
  }
  const dir = env.PGLITE_DIR ? path.resolve(env.PGLITE_DIR) : dataPath("pglite");
  const memory = dir === "memory://" || env.PGLITE_DIR === "memory://";
  if (!memory) {
    const owner = await findEmbeddedOwner(dir);
    if (owner) {
      // The owner serialises its clients; a few connections let a client pipeline.
      const { db, close } = await openPostgres(owner, { max: 4 });
      return { db, kind: "pglite", via: "socket", close };
    }
    if (embeddedMode === "require-owner") {
      throw new NoEmbeddedOwnerError(`No running app serves the embedded database in ${dir}; start the app first (npm start), or use DATABASE_URL.`);
    }
    fs.mkdirSync(dir, { recursive: true });
  }
  if (!memory && !fs.existsSync(path.join(dir, "PG_VERSION"))) await createEmbeddedFiles(dir);
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = new PGlite(memory ? "memory://" : dir, PGLITE_OPTIONS);
  const db = drizzle(client, { schema, casing: "snake_case" });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  if (memory || embeddedMode !== "serve") {
    return { db: db as unknown as Db, kind: "pglite", via: "direct", close: () => client.close() };
  }
  const socket = await serveEmbeddedDb(client, { infoFile: socketInfoPath(dir), port: env.PGLITE_SOCKET_PORT });
  return {
    db: db as unknown as Db,
    kind: "pglite",
    via: "direct",
    close: async () => {
      await socket.close();
      await client.close();
    },
  };
}

/**
 * The embedded database's memory (issue 32 item 3; bench/README.md "Memory under a burst"):
 * PGlite's WebAssembly memory only grows, so what it reaches once is what the process keeps.
 * It starts at 128 MB (the module's minimum); PostgreSQL's shared buffers, 160 MB by PGlite's
 * default, grew it to 188 MB at start and more under load. 32 MB of buffers (4,096 pages)
 * hold the working set of the bounded pages (issue 20) and keep the memory at its 128 MB;
 * `work_mem` (4 MB) and `temp_buffers` (8 MB) stay at PostgreSQL's defaults, per sort and
 * per session. A larger database reads more from the files (the OS caches them).
 */
const PGLITE_OPTIONS = { postgresqlconf: ["shared_buffers = 32MB"] };

/**
 * Creates the database files (initdb) in a child process. PGlite's initdb instantiates a
 * second WebAssembly module with its own memory and keeps ~600 MB in the process that runs
 * it (measured: 785 MB after creating, 165 MB opening existing files) until a full GC finds
 * it; the process that serves the database lives for the whole run, so that peak stays out of it.
 */
export async function createEmbeddedFiles(dir: string) {
  const code = `const { PGlite } = await import("@electric-sql/pglite"); const db = new PGlite(process.env.GT_PGLITE_INIT_DIR); await db.waitReady; await db.close();`;
  await new Promise<void>((resolve, reject) => {
    // From the project root: the package resolves from its node_modules, wherever this module was built to.
    // `--liftoff-only`: V8 runs PGlite's WebAssembly with its baseline compiler only. The child
    // lives ~2 s, and optimising the module's hot functions in the background (tier-up) cost more
    // than it saved there: 4.3 → 2.9 CPU-seconds and 3.0 → 2.5 s, measured 2026-12-01.
    const child = spawn(process.execPath, ["--liftoff-only", "--input-type=module", "-e", code], {
      cwd: path.dirname(MIGRATIONS),
      env: { ...process.env, GT_PGLITE_INIT_DIR: dir },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("exit", (status) => (status === 0 ? resolve() : reject(new Error(`Could not create the embedded database in ${dir}: ${stderr.slice(-500)}`))));
  });
}

/**
 * The connection URL of the process serving the PGlite files in `dir`, if one runs.
 * A file left by a process that is gone is stale (the files are free again); a live owner
 * that does not answer is an error, never a reason to open the files a second time.
 */
async function findEmbeddedOwner(dir: string): Promise<string | undefined> {
  const file = socketInfoPath(dir);
  let info: EmbeddedSocketInfo;
  try {
    info = JSON.parse(fs.readFileSync(file, "utf8")) as EmbeddedSocketInfo;
  } catch {
    return undefined;
  }
  if (info.pid === process.pid || !processAlive(info.pid)) return undefined;
  const url = new URL(`postgres://${info.host}:${info.port}/${info.database}`);
  url.username = info.user;
  url.password = info.password;
  return url.toString();
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, owned by another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The database, opened and migrated on first use. */
export async function getDb(): Promise<Db> {
  return (await handle()).db;
}

// Remembered so that Vite's dev reloads do not open a second PGlite on the same files.
function handle(): Promise<Handle> {
  return remember("db", () =>
    open().catch((err) => {
      forget("db");
      throw err;
    }),
  );
}

export async function dbKind() {
  return (await handle()).kind;
}

/** "socket" when this process reaches the embedded database through its owner. */
export async function dbVia() {
  return (await handle()).via;
}

/** Cheap liveness probe (true when the database answers `select 1` within the request deadline). */
export async function pingDb(): Promise<boolean> {
  return (await dbHealth()).state === "up";
}

/**
 * The database's state for /api/health and the live stream, within DB_TIMEOUTS.requestMs:
 * "down" at once while the breaker says so, else a `select 1` (a ping past the deadline trips
 * the breaker, docs/decisions/0029).
 */
export async function dbHealth(): Promise<{ state: "up" | "down"; error?: string }> {
  const known = dbReachability();
  if (!known.up) return { state: "down", error: known.error };
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A PGlite of this process cannot be cut off: a slow answer is load, given the old 2 s.
  const deadline = dbBreakerActive() ? DB_TIMEOUTS.requestMs : 2_000;
  try {
    const { sql } = await import("drizzle-orm");
    await Promise.race([
      getDb().then((db) => db.execute(sql`select 1`)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${deadline} ms`)), deadline);
      }),
    ]);
    return { state: "up" };
  } catch (err) {
    const cause = findCause(err);
    if (/no answer within/.test(cause)) reportDbUnreachable(new Error(cause));
    const now = dbReachability();
    return { state: "down", error: now.up ? cause : now.error };
  } finally {
    clearTimeout(timer);
  }
}

/** The innermost message (Drizzle wraps the driver's error, and ours wraps that). */
function findCause(err: unknown): string {
  let e: unknown = err;
  let text = String(err);
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const m = (e as { message?: unknown }).message;
    if (typeof m === "string" && !m.startsWith("Failed query:")) text = m;
    e = (e as { cause?: unknown }).cause;
  }
  return text;
}

export async function closeDb() {
  const h = recall<Promise<Handle>>("db");
  forget("db");
  if (h) await (await h).close();
}

export { schema };
