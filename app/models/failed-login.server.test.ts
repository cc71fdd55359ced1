import { like } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeProducerConnection } from "~/queue/redis.server";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { resetEnv } from "~/utils/env.server";
import { clearFailedLoginWindows, FAILED_LOGIN_WINDOW_MS, maskName, noteFailedLogin } from "./failed-login.server";
import { createOperator } from "./operator.server";

/** Issue 7 #4/#5: failed logins share one System Logs row per 15-minute window; unknown names are masked. */
async function rows() {
  const db = await getDb();
  return db.select().from(logs).where(like(logs.message, "Failed logins:%"));
}

beforeEach(async () => {
  await clearFailedLoginWindows();
  await (await getDb()).delete(logs);
});

describe("noteFailedLogin", () => {
  it("40 concurrent failures from 8 addresses: one row, count 40, 8 addresses", async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => noteFailedLogin({ ip: `203.0.113.${i % 8}`, name: `x${i}`, rateLimited: i % 10 === 0 })));
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ type: "error", source: "system", details: { count: 40, addresses: 8, rateLimited: 4 } });
    expect(all[0]!.message).toMatch(/^Failed logins: 40 from 8 addresses \(latest for x\*\*\*\)$/);
  });

  it("a new window starts a new row; a cleared row comes back when more failures arrive", async () => {
    const t0 = new Date(Math.floor(Date.now() / FAILED_LOGIN_WINDOW_MS) * FAILED_LOGIN_WINDOW_MS);
    await noteFailedLogin({ ip: "203.0.113.1", name: "a", rateLimited: false, now: t0 });
    const db = await getDb();
    await db.update(logs).set({ cleared: true });
    await noteFailedLogin({ ip: "203.0.113.1", name: "a", rateLimited: false, now: new Date(t0.getTime() + 1_000) });
    expect(await rows()).toMatchObject([{ cleared: false, details: { count: 2 } }]);
    await noteFailedLogin({ ip: "203.0.113.1", name: "a", rateLimited: false, now: new Date(t0.getTime() + FAILED_LOGIN_WINDOW_MS) });
    const both = await rows();
    expect(both).toHaveLength(2);
    expect(both.map((r) => (r.details as { count: number }).count).sort()).toEqual([1, 2]);
  });

  it("shows an operator's name as is and masks any other", async () => {
    await createOperator("carol", "correct horse");
    await noteFailedLogin({ ip: "203.0.113.1", name: "carol", rateLimited: false });
    expect((await rows())[0]!.message).toBe("Failed logins: 1 from 1 address (latest for carol)");
    expect(maskName("hunter2hunter2")).toBe("h***");
    expect(maskName("x")).toBe("x***");
    expect(maskName("  ")).toBe("***");
  });

  describe("while Redis is unreachable", () => {
    const saved = process.env.REDIS_URL;
    beforeEach(() => {
      process.env.REDIS_URL = "redis://127.0.0.1:1";
      resetEnv();
    });
    afterEach(async () => {
      await closeProducerConnection();
      process.env.REDIS_URL = saved;
      resetEnv();
    });

    it("still writes one row per window, counted in memory", async () => {
      for (let i = 0; i < 5; i++) await noteFailedLogin({ ip: `198.51.100.${i % 2}`, name: "nobody", rateLimited: false });
      expect(await rows()).toMatchObject([{ message: "Failed logins: 5 from 2 addresses (latest for n***)", details: { count: 5, addresses: 2 } }]);
    });
  });
});
