import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_SERVICES_CONFIG, buildServicesConfig, getServicesConfig, loadServicesConfig, pick, place, resetServicesConfig } from "./services-config";

afterEach(() => {
  delete process.env.GALAXY_SERVICES_CONFIG;
  resetServicesConfig();
});

function writeJson(value: unknown) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gsc-")), "services.json");
  fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

describe("Galaxy services configuration (undocumented actions are configured assumptions)", () => {
  it("defaults: documented names from the reference, collection parameter 151 (spec 1 §7, §9)", () => {
    const c = buildServicesConfig();
    expect(c).toEqual(DEFAULT_SERVICES_CONFIG);
    expect(c.documented.userPics.action).toBe("user_pics_ajax");
    expect(c.documented.inventory.action).toBe("show_inventory");
    expect(c.documented.sendGifts.action).toBe("present_make");
    expect(c.documented.search.action).toBe("search_ajax");
    expect(c.undocumented.collectionStats.defaultCollectionId).toBe(151);
    expect(c.undocumented.collectionStats.collections).toEqual({ "151": "Capybara", "161": "Dragon Collection Set 1", "178": "Dragon Collection Set 2" });
    expect(c.headers.defaults["X-Galaxy-Platform"]).toBe("web");
  });

  it("a GALAXY_SERVICES_CONFIG file overrides single fields and keeps the rest", () => {
    process.env.GALAXY_SERVICES_CONFIG = writeJson({
      limits: { concurrency: 4 },
      undocumented: { giftStats: { action: "my_gifts", response: { amount: "count" } } },
      headers: { defaults: { "X-Galaxy-Platform": "web", "X-Galaxy-Kbv": "353" } },
    });
    const c = getServicesConfig();
    expect(c.limits.concurrency).toBe(4);
    expect(c.limits.timeoutMs).toBe(DEFAULT_SERVICES_CONFIG.limits.timeoutMs);
    expect(c.undocumented.giftStats.action).toBe("my_gifts");
    expect(c.undocumented.giftStats.response).toMatchObject({ amount: "count", type: "type", listPath: "gifts" });
    // Header maps are replaced whole, so an operator can drop a default header.
    expect(c.headers.defaults).toEqual({ "X-Galaxy-Platform": "web", "X-Galaxy-Kbv": "353" });
  });

  it("rejects a bad file loudly", () => {
    expect(() => loadServicesConfig("/nonexistent/file.json")).toThrow(/cannot read/);
    expect(() => loadServicesConfig(writeJson("{not json"))).toThrow(/not valid JSON/);
    expect(() => loadServicesConfig(writeJson({ limits: { concurrency: 0 } }))).toThrow(/limits.concurrency/);
    expect(() => loadServicesConfig(writeJson({ undocumented: { mastic: { action: "" } } }))).toThrow(/undocumented.mastic.action/);
    expect(() => loadServicesConfig(writeJson({ headers: { forward: "(" } }))).toThrow(/Invalid Galaxy services config/);
    expect(() => loadServicesConfig(writeJson([1]))).toThrow(/JSON object/);
  });

  it("pick and place are inverses on dot paths", () => {
    const obj = place(place({}, "a.b", 1), "a.c.d", "x");
    expect(obj).toEqual({ a: { b: 1, c: { d: "x" } } });
    expect(pick(obj, "a.c.d")).toBe("x");
    expect(pick(obj, "")).toBe(obj);
    expect(pick({ list: [{ v: 3 }] }, "list.0.v")).toBe(3);
    expect(pick(obj, "a.b.z")).toBeUndefined();
  });
});
