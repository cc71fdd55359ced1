// Writes tests/setup/file-seconds.json (the vitest sequencer's "longest first" hints) from a
// run's JSON report: node scripts/file-seconds.mjs [test-results/vitest.json]. Files of 3 s or
// more, in whole seconds; run it after a full `npm test` when files have been added or changed much.
import fs from "node:fs";
import path from "node:path";

const report = JSON.parse(fs.readFileSync(process.argv[2] ?? "test-results/vitest.json", "utf8"));
const root = process.cwd();
const seconds = {};
for (const file of report.testResults.map((r) => ({ name: path.relative(root, r.name), s: (r.endTime - r.startTime) / 1000 })).sort((a, b) => b.s - a.s)) {
  if (file.s >= 3) seconds[file.name.split(path.sep).join("/")] = Math.round(file.s);
}
fs.writeFileSync("tests/setup/file-seconds.json", JSON.stringify(seconds, null, 2) + "\n");
console.log(`tests/setup/file-seconds.json: ${Object.keys(seconds).length} files`);
