import { afterEach, describe, expect, it } from "vitest";
import { getEnv, resetEnv } from "./env.server";

describe("environment (validated once at boot, CONVENTIONS rule 9)", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnv();
  });

  it("has zero-configuration defaults", () => {
    for (const k of ["PORT", "DATABASE_URL", "REDIS_URL", "GALAXY_WS_URL", "GALAXY_SERVICES_URL", "RUN_WORKER", "START_REDIS"]) delete process.env[k];
    resetEnv();
    const env = getEnv();
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(env.RUN_WORKER).toBe(true);
    expect(env.GALAXY_WS_URL).toBe("wss://cs.mobstudio.ru:6672");
    expect(env.GALAXY_SERVICES_URL).toBe("https://galaxy.mobstudio.ru/services/");
  });

  it("treats an empty DATABASE_URL as unset and parses booleans", () => {
    process.env.DATABASE_URL = "";
    process.env.RUN_WORKER = "false";
    resetEnv();
    expect(getEnv().DATABASE_URL).toBeUndefined();
    expect(getEnv().RUN_WORKER).toBe(false);
  });

  it("refuses an invalid value with a message naming the variable", () => {
    process.env.PORT = "not-a-port";
    resetEnv();
    expect(() => getEnv()).toThrow(/PORT/);
    process.env.PORT = "3000";
    process.env.APP_SECRET = "short";
    resetEnv();
    expect(() => getEnv()).toThrow(/APP_SECRET/);
  });
});
