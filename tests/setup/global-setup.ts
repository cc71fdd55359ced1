import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { Redis } from "ioredis";
import type { TestProject } from "vitest/node";
import { buildTestBins } from "./test-bins";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated template every test file's database is created from (tests/setup/vitest.setup.ts). */
    templateDatabase: string;
    /** Where this run's bundled programs are (tests/setup/test-bins.ts). */
    testBinDir: string;
  }
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MIGRATIONS = path.join(ROOT, "drizzle");

/**
 * Once per `vitest run`:
 * - fail fast with a clear message when PostgreSQL or Redis is not answering (CI starts
 *   them in .ci/run), instead of a pile of timeouts;
 * - create and migrate one template database (a name unique to this run, dropped at the
 *   end), so each test file's database is a cheap `create database … template …` copy,
 *   drizzle's migrations table included: the app's migrate() on open is then a no-op.
 */
export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const client = new pg.Client({ connectionString: base });
  try {
    await client.connect();
    await client.query("select 1");
  } catch (err) {
    await client.end().catch(() => {});
    throw new Error(`PostgreSQL is not answering at ${base}: ${(err as Error).message}`);
  }
  const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    await client.end().catch(() => {});
    throw new Error(`Redis is not answering: ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }

  const template = `gt_tpl_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  await client.query(`create database ${template}`);
  const url = new URL(base);
  url.pathname = `/${template}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS });
  } finally {
    // No session may stay on a template while databases are created from it.
    await pool.end();
  }
  await client.query(`alter database ${template} is_template true`);
  await client.end();
  project.provide("templateDatabase", template);

  // Inside the tree, so the bundles' npm imports resolve from node_modules.
  const binDir = path.join(ROOT, "node_modules/.cache/gt-test-bins", template);
  await buildTestBins(ROOT, binDir);
  project.provide("testBinDir", binDir);

  return async () => {
    fs.rmSync(binDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`alter database ${template} is_template false`);
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.end();
  };
}
