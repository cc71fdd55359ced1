import { Redis } from "ioredis";

/**
 * Redis key housekeeping for tests and benches (each run writes under its own prefix): delete
 * what `pattern` matches (and `remove` accepts), count what is left. Both give up quietly when
 * Redis does not answer (`countKeys` says -1).
 */
export async function deleteKeysMatching(url: string, pattern: string, remove: (key: string) => boolean = () => true): Promise<void> {
  const conn = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => null, lazyConnect: true });
  conn.on("error", () => {});
  try {
    await conn.connect();
    let cursor = "0";
    do {
      const [next, keys] = await conn.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      const gone = keys.filter(remove);
      if (gone.length) await conn.del(...gone);
    } while (cursor !== "0");
  } catch {
    // Redis gone: nothing to clean.
  } finally {
    conn.disconnect();
  }
}

/** How many Redis keys match `pattern` (a full SCAN), or -1 when Redis does not answer. */
export async function countKeys(url: string, pattern: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on("error", () => {});
  try {
    await redis.connect();
    let n = 0;
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
      cursor = next;
      n += keys.length;
    } while (cursor !== "0");
    return n;
  } catch {
    return -1;
  } finally {
    redis.disconnect();
  }
}
