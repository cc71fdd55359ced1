import crypto from "node:crypto";
import { producerConnection, queuePrefix, waitForReady } from "~/queue/redis.server";
import { remember } from "~/utils/remember.server";
import { logSummaryEvent } from "./log.server";
import { findOperatorByName } from "./operator.server";

/**
 * Failed logins in System Logs (docs/auth.md): one entry per 15-minute window for all of
 * them, updated in place with the count, the number of distinct addresses and the latest
 * name, so a password-guessing run cannot flood the table with one row per attempt.
 *
 * The window's row id and counters live in Redis (keys under QUEUE_PREFIX, shared by all
 * web processes); while Redis is unreachable this process counts in memory (a second row
 * for that window can then appear).
 */
export const FAILED_LOGIN_WINDOW_MS = 15 * 60_000;
/** Distinct addresses remembered per window without Redis (Redis uses a HyperLogLog: fixed 12 KB). */
const MEMORY_ADDRESS_CAP = 10_000;

export type FailedLogin = { ip: string; name: string; rateLimited: boolean; now?: Date };

type WindowCount = { id: string; count: number; rateLimited: number; addresses: number };

/**
 * What we may show of a typed name: an operator's name as is; anything else — possibly a
 * password typed into the wrong field — as its first character and "***" (never the length).
 */
export function maskName(name: string): string {
  const first = Array.from(name.trim())[0];
  return first ? `${first}***` : "***";
}

export async function noteFailedLogin(attempt: FailedLogin): Promise<void> {
  const now = attempt.now ?? new Date();
  const start = Math.floor(now.getTime() / FAILED_LOGIN_WINDOW_MS) * FAILED_LOGIN_WINDOW_MS;
  const operator = await findOperatorByName(attempt.name).catch(() => null);
  const latestName = operator ? operator.name : maskName(attempt.name);
  const counted = (await countInRedis(start, attempt)) ?? countInMemory(start, attempt);
  const { id, count, addresses, rateLimited } = counted;
  await logSummaryEvent(id, {
    type: "error",
    source: "system",
    message: `Failed logins: ${count} from ${addresses} address${addresses === 1 ? "" : "es"} (latest for ${latestName})`,
    details: {
      count,
      addresses,
      rateLimited,
      latestName,
      latestIp: attempt.ip,
      windowStart: new Date(start).toISOString(),
      windowEnd: new Date(start + FAILED_LOGIN_WINDOW_MS).toISOString(),
    },
  });
}

const windowKey = (start: number) => `${queuePrefix()}:failed-logins:${start}`;

/** One MULTI: claim the window's row id (first writer wins), count, and count distinct addresses. */
async function countInRedis(start: number, attempt: FailedLogin): Promise<WindowCount | null> {
  try {
    const client = producerConnection();
    if (!(await waitForReady(client, 1_000))) return null;
    const key = windowKey(start);
    const ttlMs = 2 * FAILED_LOGIN_WINDOW_MS;
    const replies = await client
      .multi()
      .hsetnx(key, "id", crypto.randomUUID())
      .hincrby(key, "count", 1)
      .hincrby(key, "rateLimited", attempt.rateLimited ? 1 : 0)
      .pfadd(`${key}:addresses`, attempt.ip)
      .pfcount(`${key}:addresses`)
      .hget(key, "id")
      .pexpire(key, ttlMs)
      .pexpire(`${key}:addresses`, ttlMs)
      .exec();
    if (!replies || replies.some(([err]) => err)) return null;
    const value = (i: number) => replies[i]![1];
    return { count: Number(value(1)), rateLimited: Number(value(2)), addresses: Number(value(4)), id: String(value(5)) };
  } catch {
    return null;
  }
}

type MemoryWindow = WindowCount & { start: number; seen: Set<string> };

function countInMemory(start: number, attempt: FailedLogin): WindowCount {
  const holder = remember("failed-login-window", () => ({ current: null as MemoryWindow | null }));
  if (holder.current?.start !== start) {
    holder.current = { start, id: crypto.randomUUID(), count: 0, rateLimited: 0, addresses: 0, seen: new Set() };
  }
  const w = holder.current;
  w.count += 1;
  if (attempt.rateLimited) w.rateLimited += 1;
  if (w.seen.size < MEMORY_ADDRESS_CAP) w.seen.add(attempt.ip);
  w.addresses = w.seen.size;
  return { id: w.id, count: w.count, rateLimited: w.rateLimited, addresses: w.addresses };
}

/** Tests: start counting afresh (this process's memory window and this QUEUE_PREFIX's keys in Redis). */
export async function clearFailedLoginWindows(): Promise<void> {
  remember("failed-login-window", () => ({ current: null as MemoryWindow | null })).current = null;
  const client = producerConnection();
  if (!(await waitForReady(client, 1_000))) return;
  let cursor = "0";
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `${queuePrefix()}:failed-logins:*`, "COUNT", 1000);
    if (keys.length) await client.del(...keys);
    cursor = next;
  } while (cursor !== "0");
}
