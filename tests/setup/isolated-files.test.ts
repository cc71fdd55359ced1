import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EMBEDDED_FILES, MOCKING_FILES } from "./isolated-files";

const root = path.resolve(import.meta.dirname, "../..");

function testFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || rel === "tests/e2e" ? [] : testFiles(rel);
    return /\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

describe("vitest's isolated project (vitest.config.ts)", () => {
  it("holds exactly the test files that call vi.mock, which would leak into the files after them", () => {
    const mocking = ["app", "api", "jobs", "sim", "tests", "scripts"]
      .flatMap(testFiles)
      .filter((f) => /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(path.join(root, f), "utf8").replace(/\/\/.*$/gm, "")))
      .filter((f) => f !== "tests/setup/isolated-files.test.ts")
      .sort();
    expect(mocking).toEqual([...MOCKING_FILES].sort());
  });

  it("holds exactly the test files that take the process off PostgreSQL (the embedded database)", () => {
    const embedded = ["app", "api", "jobs", "sim", "tests", "scripts"]
      .flatMap(testFiles)
      .filter((f) => /\bsetEmbeddedMode\(|delete process\.env\.DATABASE_URL\b/.test(fs.readFileSync(path.join(root, f), "utf8").replace(/\/\/.*$/gm, "")))
      .filter((f) => f !== "tests/setup/isolated-files.test.ts")
      .sort();
    expect(embedded).toEqual([...EMBEDDED_FILES].sort());
  });
});
