// Prints the combined closing line of the vitest and Playwright JSON reports.
import fs from "node:fs";

let passed = 0,
  failed = 0,
  skipped = 0,
  missing = [];
const [vitestFile, pwFile] = process.argv.slice(2);

try {
  const v = JSON.parse(fs.readFileSync(vitestFile, "utf8"));
  passed += v.numPassedTests;
  // A file that fails to load has no failed test, only a failed suite.
  const vitestFailed = v.numFailedTests || v.numFailedTestSuites;
  failed += vitestFailed;
  skipped += v.numPendingTests + v.numTodoTests;
  // vitest's JSON report leaves out errors raised outside any test (an uncaught exception or
  // an unhandled rejection): the run still fails on them, so its exit status counts as one more
  // failure when every test passed.
  const rc = Number(process.env.VITEST_RC ?? 0);
  if (rc !== 0 && vitestFailed === 0) {
    failed += 1;
    console.log(`vitest exited with ${rc} although every test passed: an error outside the tests (its report is above)`);
  }
} catch {
  missing.push("vitest");
}

try {
  const p = JSON.parse(fs.readFileSync(pwFile, "utf8"));
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
} catch {
  missing.push("playwright");
}

if (missing.length) console.log(`no report from: ${missing.join(", ")}`);
// scripts/test.sh passes the lint step's outcome ("passed" or "failed"): it counts as one
// check, so the closing line keeps the exact "N passed, N failed" form CI reads.
const lint = process.env.LINT_RESULT;
if (lint === "passed") passed += 1;
if (lint === "failed") failed += 1;
if (lint) console.log(`lint (ESLint + Prettier): ${lint}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || missing.length || passed === 0 || lint === "failed" ? 1 : 0);
