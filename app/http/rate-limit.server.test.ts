import { Redis } from "ioredis";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { producerConnection, queuePrefix } from "~/queue/redis.server";
import {
  addressKey,
  clearLoginLimits,
  LOGIN_ADDRESS_FAILURE_LIMIT,
  LOGIN_FAILURE_LIMIT,
  LOGIN_PAIR_BLOCK_MS,
  loginBlockedFor,
  LoginLimits,
  recordLoginFailure,
  recordLoginSuccess,
  tooManyAttemptsMessage,
} from "./rate-limit.server";

/**
 * Issue 7 #4: failed logins slow down a (name, address) pair without locking the name for
 * everyone, a flood of other addresses cannot make the limiter forget a locked pair, and the
 * counters live in Redis, shared by every web process.
 */
const MIN = 60_000;

async function fail(times: number, ip: string, name: string, limits?: LoginLimits) {
  let last = 0;
  for (let i = 0; i < times; i++) last = limits ? await limits.failure(ip, name) : await recordLoginFailure(ip, name);
  return last;
}

/** `count` failures, each from its own address and for its own name, `batch` at a time. */
async function flood(count: number, record: (ip: string, name: string) => Promise<unknown>) {
  for (let i = 0; i < count; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, (_, j) => {
        const n = i + j;
        return record(`10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, `sprayed-${n}`);
      }),
    );
  }
}

beforeEach(() => clearLoginLimits());

describe("login limits (Redis)", () => {
  it("5 consecutive failures block that pair for 15 minutes; the same name from another address still may try", async () => {
    expect(LOGIN_FAILURE_LIMIT).toBe(5);
    expect(await fail(4, "203.0.113.1", "alice")).toBe(0);
    expect(await loginBlockedFor("203.0.113.1", "alice")).toBe(0);
    const wait = await recordLoginFailure("203.0.113.1", "Alice "); // the same name: trimmed, case-insensitive
    expect(wait).toBe(LOGIN_PAIR_BLOCK_MS);
    expect(await loginBlockedFor("203.0.113.1", "alice")).toBeGreaterThan(14 * MIN);
    expect(await loginBlockedFor("203.0.113.1", "ALICE")).toBeGreaterThan(14 * MIN);
    // Nobody else is locked out: not the name from elsewhere, not another name from here.
    expect(await loginBlockedFor("198.51.100.7", "alice")).toBe(0);
    expect(await loginBlockedFor("203.0.113.1", "bob")).toBe(0);
  });

  it("a success resets the pair", async () => {
    await fail(4, "203.0.113.1", "alice");
    await recordLoginSuccess("203.0.113.1", "alice");
    expect(await fail(4, "203.0.113.1", "alice")).toBe(0);
    expect(await loginBlockedFor("203.0.113.1", "alice")).toBe(0);
  });

  it("100 failures from one address, whatever the names, block that address for an hour", async () => {
    expect(LOGIN_ADDRESS_FAILURE_LIMIT).toBe(100);
    for (let i = 0; i < 99; i++) await recordLoginFailure("203.0.113.9", `name-${i}`);
    expect(await loginBlockedFor("203.0.113.9", "someone-new")).toBe(0);
    await recordLoginFailure("203.0.113.9", "name-99");
    expect(await loginBlockedFor("203.0.113.9", "someone-new")).toBeGreaterThan(59 * MIN);
    expect(await loginBlockedFor("203.0.113.10", "someone-new")).toBe(0);
  });

  it("5,100 failures from other addresses do not unlock a locked pair", async () => {
    await fail(5, "203.0.113.1", "alice");
    await flood(5_100, recordLoginFailure);
    expect(await loginBlockedFor("203.0.113.1", "alice")).toBeGreaterThan(14 * MIN);
  });

  it("keeps its counters in Redis under QUEUE_PREFIX, shared by every process", async () => {
    await fail(5, "203.0.113.1", "alice");
    const keys = await producerConnection().keys(`${queuePrefix()}:login-limit:*`);
    expect(keys.length).toBeGreaterThan(0);
    // Another web process: its own LoginLimits (own memory), the same Redis.
    const otherProcess = new LoginLimits({ redis: producerConnection, keyPrefix: queuePrefix });
    expect(await otherProcess.blockedFor("203.0.113.1", "alice")).toBeGreaterThan(14 * MIN);
  });
});

describe("login limits without Redis (in-memory insurance)", () => {
  const dead = new Redis("redis://127.0.0.1:1", { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  dead.on("error", () => {});
  afterAll(() => dead.disconnect());
  const memoryOnly = () => new LoginLimits({ redis: () => dead, keyPrefix: () => "unused", readyTimeoutMs: 500 });

  it("still blocks the pair, and a flood of 5,100 other addresses does not make it forget", async () => {
    const limits = memoryOnly();
    expect(await fail(5, "203.0.113.1", "alice", limits)).toBe(LOGIN_PAIR_BLOCK_MS);
    expect(await limits.blockedFor("198.51.100.7", "alice")).toBe(0);
    await flood(5_100, (ip, name) => limits.failure(ip, name));
    expect(await limits.blockedFor("203.0.113.1", "alice")).toBeGreaterThan(14 * MIN);
  });
});

describe("addressKey", () => {
  it("counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4", () => {
    expect(addressKey("203.0.113.1")).toBe("203.0.113.1");
    expect(addressKey("::ffff:203.0.113.1")).toBe("203.0.113.1");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2::99")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
  });
});

describe("tooManyAttemptsMessage", () => {
  it("words the wait in whole minutes", () => {
    expect(tooManyAttemptsMessage(14 * MIN + 1)).toBe("Too many failed logins. Try again in 15 minutes.");
    expect(tooManyAttemptsMessage(10_000)).toBe("Too many failed logins. Try again in 1 minute.");
  });
});
