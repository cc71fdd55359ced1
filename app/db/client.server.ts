import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { getEnv, dataPath } from "~/utils/env.server";
import { forget, recall, remember } from "~/utils/remember.server";
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
  const pool = new pg.Pool({ connectionString: url, max: options.max });
  pool.on("error", (err) => console.error("[db] idle client error", err.message));
  // A connection lost while a transaction holds it (PostgreSQL restarted, the backend
  // terminated) rejects that transaction, and pg also emits "error" on the client: the pool
  // listens only while the client is idle, so without this listener the process would die of an
  // uncaught error. The pool drops the broken client when it is released; the next query opens
  // a fresh one. (An idle client's loss reaches both listeners.)
  pool.on("connect", (client) => client.on("error", (err) => console.warn("[db] connection lost:", err.message)));
  const db = drizzle(pool, { schema, casing: "snake_case" });
  // A no-op when the database is already migrated (a test template, a running owner).
  await migrate(db, { migrationsFolder: MIGRATIONS });
  return { db: db as unknown as Db, close: () => pool.end() };
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
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = new PGlite(memory ? "memory://" : dir);
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

/** Cheap liveness probe for /api/health. */
export async function pingDb(): Promise<boolean> {
  try {
    const { sql } = await import("drizzle-orm");
    const db = await getDb();
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

export async function closeDb() {
  const h = recall<Promise<Handle>>("db");
  forget("db");
  if (h) await (await h).close();
}

export { schema };
