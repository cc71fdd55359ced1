import { beforeEach, describe, expect, it } from "vitest";
import {
  LOGIN_FAILURE_LIMIT,
  LOGIN_WINDOW_MS,
  loginBlockedFor,
  loginLimiter,
  RateLimiter,
  recordLoginFailure,
  recordLoginSuccess,
  tooManyAttemptsMessage,
} from "./rate-limit.server";

/** Issue "Foundation" item 3: "Login attempts rate-limited" (5 failures / 15 min per IP and per name). */
describe("RateLimiter", () => {
  let now = 1_000_000;
  const clock = () => now;

  it("allows `limit` failures inside the window and refuses the next attempt", () => {
    const l = new RateLimiter({ limit: 3, windowMs: 60_000, now: clock });
    expect(l.check("k").limited).toBe(false);
    l.hit("k");
    l.hit("k");
    expect(l.check("k")).toEqual({ limited: false, remaining: 1, retryAfterMs: 0 });
    const after = l.hit("k");
    expect(after.limited).toBe(true);
    expect(after.retryAfterMs).toBe(60_000);
  });

  it("slides: each failure leaves the window on its own", () => {
    const l = new RateLimiter({ limit: 2, windowMs: 60_000, now: clock });
    l.hit("k");
    now += 30_000;
    l.hit("k");
    expect(l.check("k").limited).toBe(true);
    expect(l.check("k").retryAfterMs).toBe(30_000);
    now += 30_001; // the first failure expired
    expect(l.check("k").limited).toBe(false);
    expect(l.check("k").remaining).toBe(1);
  });

  it("keeps keys apart and forgets a key on reset", () => {
    const l = new RateLimiter({ limit: 1, windowMs: 60_000, now: clock });
    l.hit("a");
    expect(l.check("a").limited).toBe(true);
    expect(l.check("b").limited).toBe(false);
    l.reset("a");
    expect(l.check("a").limited).toBe(false);
  });

  it("remembers at most maxKeys keys, dropping the least recently failed", () => {
    const l = new RateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2, now: clock });
    l.hit("a");
    l.hit("b");
    l.hit("c");
    expect(l.check("a").limited).toBe(false);
    expect(l.check("b").limited).toBe(true);
    expect(l.check("c").limited).toBe(true);
  });
});

describe("login limits", () => {
  beforeEach(() => loginLimiter().clear());

  it("blocks an IP after 5 failures, whatever names it tries", () => {
    expect(LOGIN_FAILURE_LIMIT).toBe(5);
    expect(LOGIN_WINDOW_MS).toBe(15 * 60_000);
    for (let i = 0; i < 4; i++) recordLoginFailure("203.0.113.1", `name${i}`);
    expect(loginBlockedFor("203.0.113.1", "someone")).toBe(0);
    recordLoginFailure("203.0.113.1", "name4");
    expect(loginBlockedFor("203.0.113.1", "someone")).toBeGreaterThan(14 * 60_000);
    expect(loginBlockedFor("203.0.113.2", "someone")).toBe(0);
  });

  it("blocks a name after 5 failures, from whatever IPs (case-insensitive)", () => {
    for (let i = 0; i < 5; i++) recordLoginFailure(`198.51.100.${i}`, i % 2 ? "Alice" : "alice");
    expect(loginBlockedFor("192.0.2.9", "alice")).toBeGreaterThan(0);
    expect(loginBlockedFor("192.0.2.9", "bob")).toBe(0);
  });

  it("a successful login clears that IP's and that name's failures", () => {
    for (let i = 0; i < 4; i++) recordLoginFailure("203.0.113.1", "alice");
    recordLoginSuccess("203.0.113.1", "alice");
    recordLoginFailure("203.0.113.1", "alice");
    expect(loginBlockedFor("203.0.113.1", "alice")).toBe(0);
  });

  it("words the wait in whole minutes", () => {
    expect(tooManyAttemptsMessage(14 * 60_000 + 1)).toBe("Too many failed logins. Try again in 15 minutes.");
    expect(tooManyAttemptsMessage(10_000)).toBe("Too many failed logins. Try again in 1 minute.");
  });
});
