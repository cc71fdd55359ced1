import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { getEnv, dataPath } from "~/utils/env.server";
import * as schema from "./schema";
import { remember } from "~/utils/remember.server";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

type Handle = { db: Db; kind: "pglite" | "postgres"; close: () => Promise<void> };

// remember(): Vite's dev reloads must not open a second PGlite on the same files.
const g = remember("db", (): { db?: Promise<Handle> } => ({}));

async function open(): Promise<Handle> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 });
    pool.on("error", (err) => console.error("[db] idle client error", err.message));
    const db = drizzle(pool, { schema, casing: "snake_case" });
    await migrate(db, { migrationsFolder: MIGRATIONS });
    return { db: db as unknown as Db, kind: "postgres", close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = env.PGLITE_DIR ? path.resolve(env.PGLITE_DIR) : dataPath("pglite");
  const memory = dir === "memory://" || env.PGLITE_DIR === "memory://";
  if (!memory) fs.mkdirSync(dir, { recursive: true });
  const client = new PGlite(memory ? "memory://" : dir);
  const db = drizzle(client, { schema, casing: "snake_case" });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  return { db: db as unknown as Db, kind: "pglite", close: () => client.close() };
}

/** The database, opened and migrated on first use. */
export async function getDb(): Promise<Db> {
  g.db ??= open().catch((err) => {
    g.db = undefined;
    throw err;
  });
  return (await g.db).db;
}

export async function dbKind() {
  await getDb();
  return (await g.db!).kind;
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
  const h = g.db;
  g.db = undefined;
  if (h) await (await h).close();
}

export { schema };
