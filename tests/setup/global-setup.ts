import pg from "pg";
import { Redis } from "ioredis";

/**
 * Integration tests need the real PostgreSQL and Redis (CI starts them in .ci/run).
 * Fail fast with a clear message instead of a pile of timeouts.
 */
export default async function setup() {
  const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const client = new pg.Client({ connectionString: base });
  try {
    await client.connect();
    await client.query("select 1");
  } catch (err) {
    throw new Error(`PostgreSQL is not answering at ${base}: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
  const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(`Redis is not answering: ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
}
