/** A private PostgreSQL database and data directory for one benchmark run (shared by the benchmarks). */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export type Cleanup = () => Promise<void>;

/**
 * Creates `<prefix>_<pid>_<random>` next to the test database and a temporary data directory;
 * pushes their removal onto `cleanups`. Returns the database URL, its name and the directory.
 */
export async function privateDatabase(prefix: string, cleanups: Cleanup[]): Promise<{ url: URL; dbName: string; dataDir: string }> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const dbName = `${prefix}_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  cleanups.push(async () => {
    const a = new pg.Client({ connectionString: base });
    await a.connect();
    await a.query(`drop database if exists ${dbName} with (force)`);
    await a.end();
  });
  const url = new URL(base);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-bench-"));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  return { url, dbName, dataDir };
}
