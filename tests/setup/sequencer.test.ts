import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import { HEAVY_FILES, HeavyFirstSequencer } from "./sequencer";

const root = "/repo";
const spec = (project: string, file: string, isolate = false) =>
  ({ project: { name: project, config: { isolate, sequence: { groupOrder: 0 } } }, moduleId: `${root}/${file}` }) as unknown as TestSpecification;

/** A vitest context with the given durations cached (none: a fresh clone) and file sizes. */
function ctx(durations: Record<string, number> | null, sizes: Record<string, number>) {
  return {
    config: { root },
    cache: {
      getFileTestResults: (key: string) => (durations && key in durations ? { duration: durations[key], failed: false } : undefined),
      getFileStats: (key: string) => ({ size: sizes[key.split(":")[1]!] ?? 1 }),
    },
  } as unknown as Vitest;
}

const names = (files: TestSpecification[]) => files.map((f) => `${f.project.name}:${f.moduleId.slice(root.length + 1)}`);

describe("HeavyFirstSequencer", () => {
  const files = [
    spec("unit", "app/a.test.ts"),
    spec("unit", "tests/security/api-fuzz.test.ts"),
    spec("unit", "app/big.test.ts"),
    spec("unit", "jobs/processors/automation.fault.test.ts"),
    spec("isolated", "app/db/client.server.test.ts", true),
  ];
  const sizes = { "app/a.test.ts": 10, "tests/security/api-fuzz.test.ts": 5, "app/big.test.ts": 900, "jobs/processors/automation.fault.test.ts": 20 };

  it("on a fresh clone: the measured heavy files first within their project, longest first; the rest in vitest's order (larger first)", async () => {
    expect(HEAVY_FILES["jobs/processors/automation.fault.test.ts"]).toBeGreaterThan(HEAVY_FILES["tests/security/api-fuzz.test.ts"]!);
    const sorted = await new HeavyFirstSequencer(ctx(null, sizes)).sort(files);
    expect(names(sorted)).toEqual([
      "isolated:app/db/client.server.test.ts",
      "unit:jobs/processors/automation.fault.test.ts",
      "unit:tests/security/api-fuzz.test.ts",
      "unit:app/big.test.ts",
      "unit:app/a.test.ts",
    ]);
  });

  it("where every file has run before: vitest's own order by the durations measured here", async () => {
    const durations = Object.fromEntries(names(files).map((n, i) => [n, [5, 1, 3, 2, 9][i]!]));
    const sorted = await new HeavyFirstSequencer(ctx(durations, sizes)).sort(files);
    expect(names(sorted)).toEqual([
      "isolated:app/db/client.server.test.ts",
      "unit:app/a.test.ts",
      "unit:app/big.test.ts",
      "unit:jobs/processors/automation.fault.test.ts",
      "unit:tests/security/api-fuzz.test.ts",
    ]);
  });
});
