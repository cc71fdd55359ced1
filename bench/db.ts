/** A private PostgreSQL database and data directory for one benchmark run (shared by the benchmarks). */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { deleteKeys } from "#jobs/test-helpers";
import { countKeys } from "#tests/kit/redis-keys";

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

/**
 * Pushes onto `cleanups` the removal of every Redis key under `prefix:` (issue 20: `npm run
 * bench` leaves no Redis keys behind). Even a server with `START_REDIS=false RUN_WORKER=false`
 * writes some (the queues' meta keys, the daily schedulers), so every bench that starts the
 * app cleans its prefix. Run it after the app's processes ended. `deleteKeys` gives up
 * silently when Redis does not answer (it happened once at load 30): check, try again, and
 * say so if anything is left.
 */
export function removeRedisKeysAtEnd(cleanups: Cleanup[], prefix: string, url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379") {
  cleanups.push(async () => {
    for (let attempt = 1; ; attempt++) {
      await deleteKeys(url, prefix);
      const left = await countKeys(url, `${prefix}:*`);
      if (left === 0) return;
      if (attempt === 3) {
        console.warn(`cleanup: Redis keys under ${prefix}: are left (${left === -1 ? "Redis did not answer" : `${left} found`}); delete them by hand`);
        return;
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  });
}
