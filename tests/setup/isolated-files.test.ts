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

/** The test files (this one aside) whose code, comments left out, matches `re`. */
function filesMatching(re: RegExp): string[] {
  return ["app", "api", "jobs", "sim", "tests", "scripts"]
    .flatMap(testFiles)
    .filter((f) => f !== "tests/setup/isolated-files.test.ts")
    .filter((f) => re.test(fs.readFileSync(path.join(root, f), "utf8").replace(/\/\/.*$/gm, "")))
    .sort();
}

describe("vitest's isolated project (vitest.config.ts)", () => {
  it("holds exactly the test files that call vi.mock, which would leak into the files after them", () => {
    expect(filesMatching(/\bvi\.(mock|doMock)\(/)).toEqual([...MOCKING_FILES].sort());
  });

  it("holds exactly the test files that take the process off PostgreSQL (the embedded database)", () => {
    expect(filesMatching(/\bsetEmbeddedMode\(|delete process\.env\.DATABASE_URL\b/)).toEqual([...EMBEDDED_FILES].sort());
  });
});
