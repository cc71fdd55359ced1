// Prints the closing lines of `npm test`: what failed, by name, then the combined counts of the
// vitest and Playwright JSON reports and the lint step.
import fs from "node:fs";

let passed = 0,
  failed = 0,
  skipped = 0,
  missing = [];
// What failed, by name, printed just above the closing line: vitest prints its failures first,
// and the checks' and journeys' output that follows can push them out of a log's tail.
const failures = [];
// Terminal colour codes, stripped from the messages quoted.
// eslint-disable-next-line no-control-regex -- the escape character is what it matches
const COLOUR = /\u001b\[[0-9;]*m/g;
const [vitestFile, pwFile] = process.argv.slice(2);

try {
  const v = JSON.parse(fs.readFileSync(vitestFile, "utf8"));
  passed += v.numPassedTests;
  // A file that fails to load has no failed test, only a failed suite.
  const vitestFailed = v.numFailedTests || v.numFailedTestSuites;
  failed += vitestFailed;
  skipped += v.numPendingTests + v.numTodoTests;
  const root = process.cwd() + "/";
  for (const file of v.testResults ?? []) {
    const name = String(file.name).replace(root, "");
    const tests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of tests) failures.push(`vitest  ${name} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (file.status === "failed" && tests.length === 0) failures.push(`vitest  ${name}: ${firstLine(file.message)}`);
  }
  // vitest's JSON report leaves out errors raised outside any test (an uncaught exception or
  // an unhandled rejection): the run still fails on them, so its exit status counts as one more
  // failure when every test passed.
  const rc = Number(process.env.VITEST_RC ?? 0);
  if (rc !== 0 && vitestFailed === 0) {
    failed += 1;
    failures.push(`vitest  exited with ${rc} although every test passed: an error outside the tests`);
    for (const line of unhandledErrors(process.env.VITEST_LOG)) failures.push(`    ${line}`);
  }
} catch {
  missing.push("vitest");
}

try {
  const p = JSON.parse(fs.readFileSync(pwFile, "utf8"));
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
  // Errors outside any journey (a webServer that cannot start, a failing globalSetup): the
  // run fails with no journey failed, so each counts as one failure.
  for (const error of p.errors ?? []) {
    failed += 1;
    failures.push(`playwright  ${firstLine(error.message)}`);
  }
  for (const { spec, project, status } of playwrightTests(p.suites ?? [])) {
    if (status === "unexpected") failures.push(`journey [${project}] ${spec.file}:${spec.line} › ${spec.title}`);
  }
} catch {
  missing.push("playwright");
}

if (failures.length) console.log(`failed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
if (missing.length) console.log(`no report from: ${missing.join(", ")}`);
// scripts/test.sh passes the lint step's outcome ("passed" or "failed"): it counts as one
// check, so the closing line keeps the exact "N passed, N failed" form CI reads.
const lint = process.env.LINT_RESULT;
if (lint === "passed") passed += 1;
if (lint === "failed") failed += 1;
if (lint) console.log(`lint (ESLint + Prettier): ${lint}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || missing.length || passed === 0 || lint === "failed" ? 1 : 0);

function firstLine(text) {
  const line =
    String(text ?? "")
      .replace(COLOUR, "")
      .split("\n")
      .find((l) => l.trim()) ?? "";
  return line.trim().slice(0, 300);
}

function* playwrightTests(suites) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) for (const t of spec.tests ?? []) yield { spec, project: t.projectName, status: t.status };
    yield* playwrightTests(suite.suites ?? []);
  }
}

// The first lines of vitest's "Unhandled Errors" block in its saved output, colour codes stripped.
function unhandledErrors(logFile) {
  let text = "";
  try {
    if (logFile) text = fs.readFileSync(logFile, "utf8");
  } catch {
    return [];
  }
  const lines = text.replace(COLOUR, "").split("\n");
  const start = lines.findIndex((l) => /Unhandled (Errors?|Rejection)/.test(l));
  if (start < 0) return [];
  return lines
    .slice(start, start + 40)
    .filter((l) => l.trim() && !/^\s*⎯+\s*$/.test(l))
    .slice(0, 12)
    .map((l) => l.trimEnd().slice(0, 200));
}
