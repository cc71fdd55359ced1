/**
 * scripts/test-summary.mjs, the closing lines of `npm test`: the counts CI reads and, above
 * them, what failed by name, since a log's tail may hold nothing else of the run.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-summary-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

function summary(vitest: unknown, playwright: unknown, env: Record<string, string> = {}) {
  const script = path.resolve(import.meta.dirname, "test-summary.mjs");
  const r = spawnSync(process.execPath, [script, write("v.json", vitest), write("p.json", playwright)], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, NODE_ENV: "test", LINT_RESULT: "passed", ...env },
  });
  return { out: r.stdout, status: r.status };
}

const passingVitest = { numPassedTests: 5, numFailedTests: 0, numFailedTestSuites: 0, numPendingTests: 0, numTodoTests: 0, testResults: [] };
const journeys = (tests: { projectName: string; status: string }[]) => ({
  stats: {
    expected: tests.filter((t) => t.status === "expected").length,
    flaky: tests.filter((t) => t.status === "flaky").length,
    unexpected: tests.filter((t) => t.status === "unexpected").length,
    skipped: 0,
  },
  suites: [{ specs: [], suites: [{ specs: [{ file: "bowling.spec.ts", line: 12, title: "refresh", tests }] }] }],
});

describe("the closing lines", () => {
  it("all green: the counts, lint counted as one check, exit 0", () => {
    const r = summary(
      passingVitest,
      journeys([
        { projectName: "js", status: "expected" },
        { projectName: "nojs", status: "flaky" },
      ]),
    );
    expect(r.out).toBe("lint (ESLint + Prettier): passed\n8 passed, 0 failed\n");
    expect(r.status).toBe(0);
  });

  it("a failed vitest test, a file that did not load and a failed journey are named above the counts", () => {
    const vitest = {
      ...passingVitest,
      numFailedTests: 1,
      numFailedTestSuites: 1,
      testResults: [
        {
          name: path.join(process.cwd(), "app/models/a.test.ts"),
          status: "failed",
          message: "",
          assertionResults: [
            { fullName: "rates saves", status: "passed", failureMessages: [] },
            { fullName: "rates refuses", status: "failed", failureMessages: ["\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at x"] },
          ],
        },
        { name: path.join(process.cwd(), "jobs/b.test.ts"), status: "failed", message: "Error: Cannot find module 'x'\n  at y", assertionResults: [] },
      ],
    };
    const r = summary(vitest, journeys([{ projectName: "nojs", status: "unexpected" }]));
    expect(r.out).toBe(
      [
        "failed:",
        "  vitest  app/models/a.test.ts › rates refuses: AssertionError: expected 1 to be 2",
        "  vitest  jobs/b.test.ts: Error: Cannot find module 'x'",
        "  journey [nojs] bowling.spec.ts:12 › refresh",
        "lint (ESLint + Prettier): passed",
        "6 passed, 2 failed",
        "",
      ].join("\n"),
    );
    expect(r.status).toBe(1);
  });

  it("a Playwright run that failed before any journey (a port in use) counts and is named", () => {
    const r = summary(passingVitest, { ...journeys([]), errors: [{ message: "Error: http://127.0.0.1:3300/healthz is already used, make sure…\n at x" }] });
    expect(r.out).toBe(
      [
        "failed:",
        "  playwright  Error: http://127.0.0.1:3300/healthz is already used, make sure…",
        "lint (ESLint + Prettier): passed",
        "6 passed, 1 failed",
        "",
      ].join("\n"),
    );
    expect(r.status).toBe(1);
  });

  it("an error outside the tests: vitest's exit status counts, with the first lines of its report", () => {
    const log = write("vitest.log", "\u001b[31m⎯⎯⎯ Unhandled Errors ⎯⎯⎯\u001b[39m\n\nError: read ECONNRESET\n ❯ TCP.onStreamRead\n");
    const r = summary(passingVitest, journeys([]), { VITEST_RC: "1", VITEST_LOG: log });
    expect(r.out).toContain("  vitest  exited with 1 although every test passed: an error outside the tests\n");
    expect(r.out).toContain("      ⎯⎯⎯ Unhandled Errors ⎯⎯⎯\n      Error: read ECONNRESET\n       ❯ TCP.onStreamRead\n");
    expect(r.out).toMatch(/6 passed, 1 failed\n$/);
    expect(r.status).toBe(1);
  });
});
