import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getEnv, resetEnv } from "~/utils/env.server";
import { GIFTS, giftImageUrl } from "~/data/gifts";
import { demoEnv, startDemoEnvironment, type DemoEnvironment } from "./demo-env";

const saved = { ...process.env };
let sim: DemoEnvironment | null = null;
beforeEach(() => {
  process.env.DISCORD_SIM_PORT = "0";
});
afterEach(async () => {
  await sim?.close();
  sim = null;
  for (const k of [
    "GALAXY_WS_URL",
    "GALAXY_SERVICES_URL",
    "GALAXY_SIM_URL",
    "GALAXY_SIM_PORT",
    "GIFT_IMAGE_BASE_URL",
    "DISCORD_SIM_PORT",
    "DISCORD_TOKEN",
    "DISCORD_API_URL",
  ]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnv();
});

describe("npm run demo (issue: the app's start command can run against the simulator)", () => {
  it("demoEnv points the Galaxy endpoints at the simulator", () => {
    expect(demoEnv({ url: "http://127.0.0.1:1", wsUrl: "ws://127.0.0.1:1/", servicesUrl: "http://127.0.0.1:1/services/" })).toEqual({
      GALAXY_WS_URL: "ws://127.0.0.1:1/",
      GALAXY_SERVICES_URL: "http://127.0.0.1:1/services/",
      GALAXY_SIM_URL: "http://127.0.0.1:1",
      GIFT_IMAGE_BASE_URL: "http://127.0.0.1:1/services/img/gifts/",
    });
  });

  it("starts the simulator, sets the app's env (seen by getEnv), then seeds with the simulator up", async () => {
    process.env.GALAXY_SIM_PORT = "0";
    expect(getEnv().GALAXY_WS_URL).not.toMatch(/127\.0\.0\.1/);
    const lines: string[] = [];
    let seenDuringSeed: { ws?: string; accounts?: number } = {};
    sim = await startDemoEnvironment({
      log: (l) => lines.push(l),
      seed: async () => {
        const res = await fetch(`${process.env.GALAXY_SIM_URL}/__sim/accounts`);
        seenDuringSeed = { ws: getEnv().GALAXY_WS_URL, accounts: ((await res.json()) as { accounts: unknown[] }).accounts.length };
      },
    });
    expect(getEnv().GALAXY_WS_URL).toBe(sim.wsUrl);
    expect(getEnv().GALAXY_SERVICES_URL).toBe(sim.servicesUrl);
    expect(seenDuringSeed).toEqual({ ws: sim.wsUrl, accounts: sim.world.accounts.length });
    expect(lines).toEqual([`Demo: Galaxy simulator at ${sim.url}, Discord simulator at ${sim.discord.url}`]);
  });

  it("issue 13: the demo also starts the Discord simulator and points the GalaCord bot at it (DISCORD_TOKEN, DISCORD_API_URL)", async () => {
    process.env.GALAXY_SIM_PORT = "0";
    sim = await startDemoEnvironment({ log: () => {}, seed: false });
    const api = process.env.DISCORD_API_URL!;
    expect(api).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const res = await fetch(`${api}/v10/gateway/bot`, { headers: { authorization: `Bot ${process.env.DISCORD_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/gateway$/);
    await sim.close();
    sim = null;
    await expect(fetch(`${api}/v10/gateway/bot`)).rejects.toThrow();
  });

  it("issue 8 §2.10: the demo is offline — every catalogue gift's picture comes from the simulator", async () => {
    process.env.GALAXY_SIM_PORT = "0";
    expect(getEnv().GIFT_IMAGE_BASE_URL).toBe("https://galaxy.mobstudio.ru/img/gifts/");
    sim = await startDemoEnvironment({ log: () => {}, seed: false });
    const base = getEnv().GIFT_IMAGE_BASE_URL;
    expect(base.startsWith(`${sim.url}/`)).toBe(true);
    for (const gift of GIFTS) {
      const res = await fetch(giftImageUrl(gift.name, base));
      expect(res.status, gift.name).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.text()).toMatch(/^<svg /);
    }
    expect(await (await fetch(giftImageUrl("Fire Cannon Ball", base))).text()).toContain(">FCB</text>");
  });

  it("stops the simulator when seeding fails", async () => {
    process.env.GALAXY_SIM_PORT = "0";
    let url = "";
    await expect(
      startDemoEnvironment({
        log: () => {},
        seed: async () => {
          url = process.env.GALAXY_SIM_URL!;
          throw new Error("seed broke");
        },
      }),
    ).rejects.toThrow("seed broke");
    await expect(fetch(`${url}/__sim/accounts`)).rejects.toThrow();
  });
});
