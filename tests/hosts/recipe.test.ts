/**
 * The deployment recipe and its doc say the same: docs/deploy.md shows exactly the table the
 * multi-host test starts its hosts from (tests/hosts/recipe.ts), and every variable the app
 * documents in .env.example has a row.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hostEnv, RECIPE, recipeMarkdown } from "./recipe";

const root = path.resolve(import.meta.dirname, "../..");
const read = (f: string) => fs.readFileSync(path.join(root, f), "utf8");

describe("deployment recipe (docs/deploy.md)", () => {
  it("docs/deploy.md shows the recipe's table as the multi-host test uses it", () => {
    expect(read("docs/deploy.md")).toContain(recipeMarkdown());
  });

  it("every variable of .env.example has a row", () => {
    const documented = [...read(".env.example").matchAll(/(?:^#\s*|\s)([A-Z][A-Z0-9_]{2,})=/gm)].map((m) => m[1]!);
    const rows = RECIPE.map((r) => r.name);
    const missing = documented.filter((v) => !rows.includes(v) && !rows.some((r) => r.endsWith("*") && v.startsWith(r.slice(0, -1))));
    expect(missing).toEqual([]);
  });

  it("web and worker hosts share what must be shared", () => {
    const values = {
      DATA: "10.0.0.2",
      PG_PASSWORD: "p",
      REDIS_PASSWORD: "r",
      APP_SECRET: "s".repeat(40),
      GALAXY_WS_URL: "w",
      GALAXY_SERVICES_URL: "x",
      GIFT_IMAGE_BASE_URL: "y",
    };
    const web = hostEnv("web", values);
    const worker = hostEnv("worker", values);
    for (const v of ["DATABASE_URL", "REDIS_URL", "QUEUE_PREFIX", "APP_SECRET", "GALAXY_WS_URL", "SUMMARY_TIME_ZONE"]) expect(web[v], v).toBe(worker[v]);
    expect(web.RUN_WORKER).toBe("false");
    expect(web.START_REDIS).toBe("false");
    expect(worker.START_REDIS).toBe("false");
  });
});
